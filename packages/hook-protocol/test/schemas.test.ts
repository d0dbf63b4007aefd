import { readFileSync } from "node:fs";
import { compileContractSchema, validateWith } from "@raw/schema";
import { type CommittedSchema, checkCommittedSchemas } from "@raw/test-support/committed-schemas";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  HOOK_EVENTS,
  type HookEvent,
  HookManifestSchema,
  type HookPayload,
  type HookPayloadOf,
  HookPayloadSchema,
  type HookResponseJson,
  HookResponseSchema,
  type HookRunStatus,
  type HookToolPayload,
  type HookToolResult,
} from "../src/index.js";
import {
  HookManifestSchemaSource,
  type HookPayloadOfSource,
  HookPayloadSchemaSource,
  type HookPayloadSource,
  type HookResponseJsonSource,
  HookResponseSchemaSource,
  type HookRunStatusSource,
  type HookToolPayloadSource,
  type HookToolResultSource,
} from "./schema-source.js";

/** A type with every intersection of object types flattened into one object type, recursively. */
type Flat<T> = T extends object ? { [K in keyof T]: Flat<T[K]> } : T;

const BASE = "https://raw.tlelabs.com/schemas/raw.hook/2";
const kebab = (event: string) => event.replace(/[a-z](?=[A-Z])/g, "$&-").toLowerCase();

/** Each committed file: its TypeBox source (build time) and the plain object the package exports (run time). */
const entries: Array<[string, object, object]> = [
  ["hook.schema.json", HookManifestSchemaSource, HookManifestSchema],
  ["payload.schema.json", HookPayloadSchemaSource, HookPayloadSchema],
  ...HOOK_EVENTS.map((event): [string, object, object] => [
    `payload-${kebab(event)}.schema.json`,
    HookPayloadSchemaSource[event],
    HookPayloadSchema[event],
  ]),
  ["response.schema.json", HookResponseSchemaSource, HookResponseSchema],
];
const files: CommittedSchema[] = entries.map(([file, source, shipped]) => [
  file,
  source,
  shipped,
  `${BASE}/${file}`,
]);

describe("committed JSON Schemas, generated at build time from their TypeBox sources", () => {
  checkCommittedSchemas(files, import.meta.url);

  it.each(files)("schemas/%s compiles with Ajv strict", (file) => {
    const json = JSON.parse(readFileSync(new URL(`../schemas/${file}`, import.meta.url), "utf8"));
    expect(() => compileContractSchema({ ...json, $id: undefined, $schema: undefined })).not.toThrow();
  });

  it("HookPayloadSchema[event] is the union member of that event, and not enumerable", () => {
    expect(Object.keys(HookPayloadSchema)).toEqual(["anyOf", "title", "description"]);
    HOOK_EVENTS.forEach((event, index) => {
      expect(HookPayloadSchema[event]).toBe(HookPayloadSchema.anyOf[index]);
      expect(HookPayloadSchema[event].properties.event.const).toBe(event);
    });
  });

  it("the plain types are the ones TypeBox derives from the sources", () => {
    expectTypeOf<Flat<HookResponseJson>>().toEqualTypeOf<Flat<HookResponseJsonSource>>();
    expectTypeOf<Flat<HookToolResult>>().toEqualTypeOf<Flat<HookToolResultSource>>();
    expectTypeOf<Flat<HookRunStatus>>().toEqualTypeOf<Flat<HookRunStatusSource>>();
    expectTypeOf<Flat<HookToolPayload>>().toEqualTypeOf<Flat<HookToolPayloadSource>>();
    expectTypeOf<Flat<HookPayload>>().toEqualTypeOf<Flat<HookPayloadSource>>();
    expectTypeOf<Flat<HookPayloadOf<"SessionStart">>>().toEqualTypeOf<
      Flat<HookPayloadOfSource<"SessionStart">>
    >();
    expectTypeOf<Flat<HookPayloadOf<"UserPromptSubmit">>>().toEqualTypeOf<
      Flat<HookPayloadOfSource<"UserPromptSubmit">>
    >();
    expectTypeOf<Flat<HookPayloadOf<"PreToolUse">>>().toEqualTypeOf<
      Flat<HookPayloadOfSource<"PreToolUse">>
    >();
    expectTypeOf<Flat<HookPayloadOf<"PostToolUse">>>().toEqualTypeOf<
      Flat<HookPayloadOfSource<"PostToolUse">>
    >();
    expectTypeOf<Flat<HookPayloadOf<"PostToolUseFailure">>>().toEqualTypeOf<
      Flat<HookPayloadOfSource<"PostToolUseFailure">>
    >();
    expectTypeOf<Flat<HookPayloadOf<"Stop">>>().toEqualTypeOf<Flat<HookPayloadOfSource<"Stop">>>();
    expectTypeOf<Flat<HookPayloadOf<"SessionEnd">>>().toEqualTypeOf<
      Flat<HookPayloadOfSource<"SessionEnd">>
    >();
    expectTypeOf<HookPayload["event"]>().toEqualTypeOf<HookEvent>();
    expectTypeOf<HookPayloadOf<"PostToolUse">["tool"]["result"]>().toEqualTypeOf<HookToolResult>();
  });
});

describe("schemas agree with the parsers on examples", () => {
  it("accepts the manifest example and rejects match on a notification", () => {
    const manifest = {
      protocol_version: 2,
      name: "guard",
      events: [
        {
          name: "PreToolUse",
          match: "builtin/bash",
          when: { source: "arguments", any: "commands[*].command", regex: "rm" },
        },
        { name: "PostToolUseFailure", match: "builtin/bash" },
      ],
      command: "node",
      args: ["./index.mjs"],
      timeout_ms: 5000,
    };
    expect(validateWith(HookManifestSchema, manifest)).toEqual([]);
    expect(
      validateWith(HookManifestSchema, { ...manifest, events: [{ name: "Stop", match: "x" }] }).length,
    ).toBeGreaterThan(0);
    expect(validateWith(HookManifestSchema, { ...manifest, protocol_version: "2" }).length).toBeGreaterThan(
      0,
    );
  });

  it("accepts responses and rejects unknown keys", () => {
    expect(validateWith(HookResponseSchema, {})).toEqual([]);
    expect(validateWith(HookResponseSchema, { decision: "deny", reason: "r", message: "m" })).toEqual([]);
    expect(validateWith(HookResponseSchema, { decision: "allow" }).length).toBeGreaterThan(0);
    expect(validateWith(HookResponseSchema, { extra: 1 }).length).toBeGreaterThan(0);
  });
});
