import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { type HookManifestResult, parseHookManifest } from "../src/index.js";

const ID = "agent/guard";
const base = (): Record<string, unknown> => ({
  protocol_version: 2,
  name: "guard",
  events: [{ name: "PreToolUse", match: "builtin/bash" }],
  command: "node",
  args: ["./index.mjs"],
  timeout_ms: 5000,
});
const parse = (value: unknown) => parseHookManifest(value, { expectedName: "guard", id: ID });
const issuesOf = (result: HookManifestResult) => (result.ok ? [] : result.issues);
const one = (code: string, message: string, path: string) => [{ code, message, path }];
const withField = (key: string, value: unknown) => ({ ...base(), [key]: value });
const without = (key: string) => {
  const value = base();
  delete value[key];
  return value;
};
const events = (...items: unknown[]) => withField("events", items);

const bytes = (n: number, char = "a") => char.repeat(n);

describe("parseHookManifest: invalid manifests (code, message, pointer)", () => {
  const NOT_OBJECT = one("hook_manifest_not_object", `hook ${ID} must be an object`, "");
  const VERSION = one(
    "hook_protocol_version_unsupported",
    `hook ${ID} requires protocol_version 2`,
    "/protocol_version",
  );
  const NAME_BOUNDED = one("hook_invalid_name", `${ID}.name must be a bounded string`, "/name");
  const NAME_INVALID = one("hook_invalid_name", `invalid hook name: ${ID}`, "/name");
  const EVENTS = one("hook_invalid_events", `${ID}.events must be a nonempty bounded array`, "/events");
  const COMMAND_BOUNDED = one("hook_invalid_command", `${ID}.command must be a bounded string`, "/command");
  const COMMAND_INVALID = one("hook_invalid_command", `invalid hook command: ${ID}`, "/command");
  const COMMAND_PATH = one(
    "hook_invalid_command",
    `hook command must be on PATH or inside folder: ${ID}`,
    "/command",
  );
  const ARGS = one("hook_invalid_args", `invalid hook args: ${ID}`, "/args");
  const TIMEOUT = one("hook_invalid_timeout", `invalid hook timeout_ms: ${ID}`, "/timeout_ms");
  const event = (path: string, message: string) => one("hook_event_invalid", message, path);

  const cases: Array<[string, unknown, Array<{ code: string; message: string; path: string }>]> = [
    ["null", null, NOT_OBJECT],
    ["an array", [base()], NOT_OBJECT],
    ["a string", "{}", NOT_OBJECT],
    ["a number", 2, NOT_OBJECT],
    [
      "unknown fields, one issue per key, escaped pointers",
      { ...base(), extra: 1, "a/b~c": true },
      [
        { code: "hook_manifest_unknown_field", message: `unknown hook ${ID} field: extra`, path: "/extra" },
        { code: "hook_manifest_unknown_field", message: `unknown hook ${ID} field: a/b~c`, path: "/a~1b~0c" },
      ],
    ],
    ["protocol_version missing", without("protocol_version"), VERSION],
    ["protocol_version 1", withField("protocol_version", 1), VERSION],
    ["protocol_version 3", withField("protocol_version", 3), VERSION],
    ['protocol_version "2"', withField("protocol_version", "2"), VERSION],
    ["protocol_version null", withField("protocol_version", null), VERSION],
    ["protocol_version 2.5", withField("protocol_version", 2.5), VERSION],
    ["name missing", without("name"), NAME_BOUNDED],
    ["name empty", withField("name", ""), NAME_BOUNDED],
    ["name not a string", withField("name", 3), NAME_BOUNDED],
    ["name of 65 bytes", withField("name", bytes(65)), NAME_BOUNDED],
    ["name of 66 bytes in 33 characters", withField("name", bytes(33, "é")), NAME_BOUNDED],
    ["name with an upper-case letter", withField("name", "Guard"), NAME_INVALID],
    ["name starting with a digit", withField("name", "1guard"), NAME_INVALID],
    ["name with a space", withField("name", "gu ard"), NAME_INVALID],
    ["name with a non-ASCII letter", withField("name", "gé"), NAME_INVALID],
    ["name different from the folder name", withField("name", "other"), NAME_INVALID],
    ["events missing", without("events"), EVENTS],
    ["events empty", withField("events", []), EVENTS],
    ["events not an array", withField("events", { name: "Stop" }), EVENTS],
    [
      "33 events",
      withField(
        "events",
        Array.from({ length: 33 }, () => ({ name: "Stop" })),
      ),
      EVENTS,
    ],
    ["event item not an object", events(3), event("/events/0", `${ID}.events[0] must be an object`)],
    [
      "event item null",
      events({ name: "Stop" }, null),
      event("/events/1", `${ID}.events[1] must be an object`),
    ],
    ["event item an array", events([]), event("/events/0", `${ID}.events[0] must be an object`)],
    [
      "event item with unknown keys (one issue per key, then stop)",
      events({ name: "Nope", foo: 1, "x/y": 2 }),
      [
        { code: "hook_event_invalid", message: `unknown ${ID}.events[0] field: foo`, path: "/events/0/foo" },
        { code: "hook_event_invalid", message: `unknown ${ID}.events[0] field: x/y`, path: "/events/0/x~1y" },
      ],
    ],
    [
      "event name unknown",
      events({ name: "PreToolCall" }),
      event("/events/0/name", `invalid hook event: ${ID}.events[0]`),
    ],
    ["event name missing", events({}), event("/events/0/name", `invalid hook event: ${ID}.events[0]`)],
    [
      "event name lower-case",
      events({ name: "stop" }),
      event("/events/0/name", `invalid hook event: ${ID}.events[0]`),
    ],
    [
      "match on a non-tool event",
      events({ name: "Stop", match: "x" }),
      event("/events/0", `${ID}.events[0] match/when requires a tool event`),
    ],
    [
      "when on a non-tool event (checked before the predicate)",
      events({ name: "UserPromptSubmit", when: { bogus: true } }),
      event("/events/0", `${ID}.events[0] match/when requires a tool event`),
    ],
    [
      "match on SessionStart with an invalid glob",
      events({ name: "SessionStart", match: "" }),
      event("/events/0", `${ID}.events[0] match/when requires a tool event`),
    ],
    [
      "match empty",
      events({ name: "PreToolUse", match: "" }),
      event("/events/0/match", `${ID}.events[0].match must be a bounded string`),
    ],
    [
      "match whitespace",
      events({ name: "PostToolUse", match: " \t\n" }),
      event("/events/0/match", `${ID}.events[0].match must be a bounded string`),
    ],
    [
      "match of 257 bytes",
      events({ name: "PreToolUse", match: bytes(257) }),
      event("/events/0/match", `${ID}.events[0].match must be a bounded string`),
    ],
    [
      "match not a string",
      events({ name: "PreToolUse", match: 3 }),
      event("/events/0/match", `${ID}.events[0].match must be a bounded string`),
    ],
    [
      "match null",
      events({ name: "PreToolUse", match: null }),
      event("/events/0/match", `${ID}.events[0].match must be a bounded string`),
    ],
    [
      "when not an object",
      events({ name: "PreToolUse", when: "x" }),
      [{ code: "predicate_invalid", message: "when must be an object", path: "/events/0/when" }],
    ],
    [
      "when without source (no default)",
      events({ name: "PreToolUse", match: "builtin/bash", when: { any: "command", regex: "rm" } }),
      [
        {
          code: "predicate_invalid",
          message: "when.source must be arguments or effects",
          path: "/events/0/when/source",
        },
      ],
    ],
    [
      "when with every issue reported",
      events(
        { name: "Stop" },
        { name: "PostToolUseFailure", when: { source: "x", any: "a[0]", regex: "(?=x)", z: 1 } },
      ),
      [
        { code: "predicate_invalid", message: "unknown when field: z", path: "/events/1/when/z" },
        {
          code: "predicate_invalid",
          message: "when.source must be arguments or effects",
          path: "/events/1/when/source",
        },
        { code: "predicate_invalid", message: "invalid when.any path: a[0]", path: "/events/1/when/any" },
        {
          code: "predicate_invalid",
          message: "invalid RE2 when.regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
          path: "/events/1/when/regex",
        },
      ],
    ],
    [
      "match checked before when",
      events({ name: "PreToolUse", match: "", when: { source: "x" } }),
      event("/events/0/match", `${ID}.events[0].match must be a bounded string`),
    ],
    ["command missing", without("command"), COMMAND_BOUNDED],
    ["command empty", withField("command", ""), COMMAND_BOUNDED],
    ["command not a string", withField("command", ["node"]), COMMAND_BOUNDED],
    ["command of 1025 bytes", withField("command", bytes(1025)), COMMAND_BOUNDED],
    ["command ..", withField("command", ".."), COMMAND_INVALID],
    ["command ../x", withField("command", "../x"), COMMAND_INVALID],
    ["command .x", withField("command", ".x"), COMMAND_INVALID],
    ["command .", withField("command", "."), COMMAND_INVALID],
    ["command .\\x", withField("command", ".\\x"), COMMAND_INVALID],
    ["command with a slash", withField("command", "bin/node"), COMMAND_PATH],
    ["command absolute", withField("command", "/usr/bin/node"), COMMAND_PATH],
    ["command with a backslash", withField("command", "bin\\node"), COMMAND_PATH],
    ["args not an array", withField("args", "./index.mjs"), ARGS],
    ["args null", withField("args", null), ARGS],
    [
      "args of 65 items",
      withField(
        "args",
        Array.from({ length: 65 }, () => "a"),
      ),
      ARGS,
    ],
    ["args with a number", withField("args", ["a", 3]), ARGS],
    ["args with 4097 bytes", withField("args", [bytes(4097)]), ARGS],
    ["args with 2049 two-byte characters", withField("args", [bytes(2049, "é")]), ARGS],
    ["timeout_ms 0", withField("timeout_ms", 0), TIMEOUT],
    ["timeout_ms negative", withField("timeout_ms", -1), TIMEOUT],
    ["timeout_ms 600001", withField("timeout_ms", 600_001), TIMEOUT],
    ["timeout_ms fractional", withField("timeout_ms", 1.5), TIMEOUT],
    ["timeout_ms a string", withField("timeout_ms", "5000"), TIMEOUT],
    ["timeout_ms null", withField("timeout_ms", null), TIMEOUT],
    ["timeout_ms unsafe", withField("timeout_ms", 2 ** 53), TIMEOUT],
  ];

  it.each(cases)("%s", (_title, value, expected) => {
    const result = parse(value);
    expect(result.ok).toBe(false);
    // The contract text (code, message, path); hints are guidance beside it, asserted below.
    expect(issuesOf(result).map(({ hint: _hint, ...contract }) => contract)).toEqual(expected);
  });

  it("reports every issue in the specified order", () => {
    const result = parse({
      zeta: 1,
      timeout_ms: 0,
      args: [1],
      command: "../x",
      events: [{ name: "Stop", match: "x" }, 5, { name: "PreToolUse" }, { name: "Bad" }],
      name: "Guard",
      protocol_version: 1,
      alpha: 2,
    });
    expect(issuesOf(result).map((issue) => [issue.code, issue.path])).toEqual([
      ["hook_manifest_unknown_field", "/zeta"],
      ["hook_manifest_unknown_field", "/alpha"],
      ["hook_protocol_version_unsupported", "/protocol_version"],
      ["hook_invalid_name", "/name"],
      ["hook_event_invalid", "/events/0"],
      ["hook_event_invalid", "/events/1"],
      ["hook_event_invalid", "/events/3/name"],
      ["hook_invalid_command", "/command"],
      ["hook_invalid_args", "/args"],
      ["hook_invalid_timeout", "/timeout_ms"],
    ]);
  });

  it("uses the expected name, then the manifest's valid name, then `hook` as <id>", () => {
    expect(
      issuesOf(parseHookManifest(withField("protocol_version", 1), { expectedName: "guard" }))[0]?.message,
    ).toBe("hook guard requires protocol_version 2");
    expect(issuesOf(parseHookManifest(withField("protocol_version", 1)))[0]?.message).toBe(
      "hook guard requires protocol_version 2",
    );
    expect(issuesOf(parseHookManifest({ ...base(), name: "Bad", protocol_version: 1 }))[0]?.message).toBe(
      "hook hook requires protocol_version 2",
    );
    expect(issuesOf(parseHookManifest(null))).toEqual(
      one("hook_manifest_not_object", "hook hook must be an object", ""),
    );
  });
});

describe("parseHookManifest: presence is own-property based (hooks.md §3.1, tool-api.md §2.1)", () => {
  it("an object of any prototype gets field-level issues, not hook_manifest_not_object", () => {
    class Manifest {
      constructor() {
        Object.assign(this, { name: "guard", events: ["Stop"] });
      }
    }
    for (const value of [
      new Manifest(),
      Object.assign(Object.create({ command: "./x" }), { name: "guard" }),
    ]) {
      const codes = issuesOf(parseHookManifest(value)).map((issue) => issue.code);
      expect(codes).not.toContain("hook_manifest_not_object");
      // Inherited fields do not count: `command` (and the protocol version) are missing.
      expect(codes).toContain("hook_invalid_command");
    }
    const full = Object.assign(new (class {})(), base());
    expect(parseHookManifest(full).ok).toBe(true);
  });
});

describe("parseHookManifest: valid manifests", () => {
  it("returns the frozen parsed form with defaults", () => {
    const result = parseHookManifest({
      protocol_version: 2,
      name: "guard",
      events: [{ name: "Stop" }],
      command: "node",
    });
    expect(result).toEqual({
      ok: true,
      manifest: {
        protocol_version: 2,
        name: "guard",
        events: [{ name: "Stop" }],
        command: "node",
        args: [],
        timeoutMs: 60_000,
      },
    });
    if (!result.ok) throw new Error("unreachable");
    expect(Object.isFrozen(result.manifest)).toBe(true);
    expect(Object.isFrozen(result.manifest.events[0])).toBe(true);
    expect(Object.isFrozen(result.manifest.args)).toBe(true);
  });

  it("parses the example of hooks.md §3.2", () => {
    const when = { source: "arguments", any: "commands[*].command", regex: "(^|[;&|()\\n])\\s*rm(\\s|$)" };
    const result = parse({
      protocol_version: 2,
      name: "guard",
      events: [
        { name: "PreToolUse", match: "builtin/bash", when },
        { name: "PostToolUseFailure", match: "builtin/bash" },
      ],
      command: "node",
      args: ["./index.mjs"],
      timeout_ms: 5000,
    });
    expect(result).toEqual({
      ok: true,
      manifest: {
        protocol_version: 2,
        name: "guard",
        events: [
          { name: "PreToolUse", match: "builtin/bash", when },
          { name: "PostToolUseFailure", match: "builtin/bash" },
        ],
        command: "node",
        args: ["./index.mjs"],
        timeoutMs: 5000,
      },
    });
  });

  const valid: Array<[string, Record<string, unknown>]> = [
    ["name of 64 bytes", { ...base(), name: bytes(64) }],
    [
      "32 events",
      withField(
        "events",
        Array.from({ length: 32 }, () => ({ name: "SessionEnd" })),
      ),
    ],
    ["duplicate event items", events({ name: "Stop" }, { name: "Stop" })],
    [
      "when without match",
      events({ name: "PreToolUse", when: { source: "effects", any: "files[*].path", regex: " " } }),
    ],
    ["match of 256 bytes", events({ name: "PostToolUse", match: bytes(256) })],
    ["match with surrounding whitespace", events({ name: "PostToolUse", match: " x " })],
    [
      "every event",
      events(
        ...[
          "SessionStart",
          "UserPromptSubmit",
          "PreToolUse",
          "PostToolUse",
          "PostToolUseFailure",
          "Stop",
          "SessionEnd",
        ].map((name) => ({ name })),
      ),
    ],
    ["command of 1024 bytes", withField("command", bytes(1024))],
    ["command ./x", withField("command", "./x")],
    ["command ./ with a backslash (checked at load)", withField("command", "./a\\b")],
    ["args with empty strings", withField("args", ["", ""])],
    [
      "64 args",
      withField(
        "args",
        Array.from({ length: 64 }, () => "a"),
      ),
    ],
    ["an arg of 4096 bytes", withField("args", [bytes(4096)])],
    ["timeout_ms 1", withField("timeout_ms", 1)],
    ["timeout_ms 600000", withField("timeout_ms", 600_000)],
    [
      "protocol_version written 2.0 in JSON",
      JSON.parse('{"protocol_version":2.0,"name":"guard","events":[{"name":"Stop"}],"command":"node"}'),
    ],
  ];
  it.each(valid)("accepts %s", (_title, value) => {
    const result = parseHookManifest(value, { expectedName: value.name as string });
    expect(issuesOf(result)).toEqual([]);
  });

  it("never throws, even for hostile input", () => {
    const hostile = JSON.parse(
      '{"__proto__":{"x":1},"protocol_version":2,"name":"guard","events":[{"name":"Stop"}],"command":"node"}',
    );
    expect(issuesOf(parse(hostile))).toEqual([
      {
        code: "hook_manifest_unknown_field",
        message: `unknown hook ${ID} field: __proto__`,
        path: "/__proto__",
      },
    ]);
    expect(() => parse(Object.create(null))).not.toThrow();
    expect(isContractError(parse(undefined))).toBe(false);
  });
});

describe("amendment A9: $schema editor hint", () => {
  it("accepts and ignores a string $schema", () => {
    const result = parse({
      $schema: "https://raw.tlelabs.com/schemas/raw.hook/2/hook.schema.json",
      ...base(),
    });
    expect(result.ok).toBe(true);
    if (result.ok) expect(Object.hasOwn(result.manifest, "$schema")).toBe(false);
  });

  it("rejects a non-string $schema and any other unknown field", () => {
    expect(issuesOf(parse(withField("$schema", 2)))).toEqual(
      one("hook_manifest_unknown_field", `unknown hook ${ID} field: $schema`, "/$schema"),
    );
    expect(issuesOf(parse(withField("$id", "x")))).toEqual(
      one("hook_manifest_unknown_field", `unknown hook ${ID} field: $id`, "/$id"),
    );
  });
});

describe("hints beside the contract text", () => {
  const hintsOf = (value: unknown) => issuesOf(parse(value)).map((i) => [i.code, i.hint]);

  it("suggests the nearest known field for an unknown field", () => {
    expect(hintsOf(withField("timout_ms", 5))).toEqual([
      ["hook_manifest_unknown_field", "did you mean `timeout_ms`?"],
    ]);
    expect(hintsOf(withField("comand", "x"))[0]).toEqual([
      "hook_manifest_unknown_field",
      "did you mean `command`?",
    ]);
    expect(hintsOf(withField("zzzzzzzz", 1))).toEqual([["hook_manifest_unknown_field", undefined]]);
    expect(hintsOf(events({ name: "Stop", mtach: "x" }))).toEqual([
      ["hook_event_invalid", "did you mean `match`?"],
    ]);
  });

  it("lists the valid events for an invalid event name", () => {
    const [issue] = issuesOf(parse(events({ name: "PreToolUsed" })));
    expect(issue?.message).toBe(`invalid hook event: ${ID}.events[0]`);
    expect(issue?.hint).toBe(
      "did you mean `PreToolUse`? the events are SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Stop, SessionEnd.",
    );
    expect(issuesOf(parse(events({ name: 1 })))[0]?.hint).toMatch(/^the events are SessionStart, /);
  });

  it("gives the allowed range of timeout_ms", () => {
    expect(hintsOf(withField("timeout_ms", 0))).toEqual([
      ["hook_invalid_timeout", "timeout_ms must be an integer from 1 to 600000 (milliseconds)."],
    ]);
  });
});
