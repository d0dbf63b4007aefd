import { describe, expect, it } from "vitest";
import { HOOK_EVENTS, type HookResponse, parseHookResponse } from "../src/index.js";

const enc = (s: string) => new TextEncoder().encode(s);
const parse = (
  event: string,
  stdout: string | Uint8Array,
  exitCode: number | null = 0,
  signal: string | null = null,
) =>
  parseHookResponse(event, {
    stdout: typeof stdout === "string" ? enc(stdout) : stdout,
    exitCode,
    signal,
    id: "agent/guard",
  });

const error = (code: string): HookResponse => ({
  outcome: "error",
  code: code as NonNullable<HookResponse["code"]>,
  reason: `hook agent/guard failed: ${code}`,
});
const CONTINUE: HookResponse = { outcome: "continued", decision: "continue" };
const NOTIFIED: HookResponse = { outcome: "continued" };
const denied = (reason = "hook agent/guard denied", message?: string): HookResponse =>
  message === undefined
    ? { outcome: "denied", decision: "deny", reason }
    : { outcome: "denied", decision: "deny", reason, message };

describe("parseHookResponse on a gate (PreToolUse)", () => {
  const cases: Array<[string, string | Uint8Array, number | null, HookResponse]> = [
    ["empty stdout means continue", "", 0, CONTINUE],
    ["{} means continue", "{}", 0, CONTINUE],
    ["surrounding whitespace is allowed", " \n\t{}\r\n", 0, CONTINUE],
    ["an explicit continue", '{"decision":"continue"}', 0, CONTINUE],
    [
      "continue with a message",
      '{"decision":"continue","message":"looked fine"}',
      0,
      { ...CONTINUE, message: "looked fine" },
    ],
    ["an empty message is dropped", '{"message":""}', 0, CONTINUE],
    ["a reason without deny is ignored", '{"reason":"ignored"}', 0, CONTINUE],
    [
      "deny with a reason",
      '{"decision":"deny","reason":"Review removal commands first"}',
      0,
      denied("Review removal commands first"),
    ],
    ["deny without a reason", '{"decision":"deny"}', 0, denied()],
    ["deny with an empty reason", '{"decision":"deny","reason":""}', 0, denied()],
    ["deny with a message", '{"decision":"deny","message":"m"}', 0, denied(undefined, "m")],
    ["exit 2 with empty stdout denies", "", 2, denied()],
    ["exit 2 wins over continue", '{"decision":"continue"}', 2, denied()],
    ["exit 2 uses a valid object's reason", '{"decision":"continue","reason":"no"}', 2, denied("no")],
    ["exit 2 ignores malformed JSON", "{nope", 2, denied()],
    ["exit 2 ignores two objects", "{}{}", 2, denied()],
    ["exit 2 ignores an array", "[]", 2, denied()],
    ["exit 2 ignores invalid UTF-8", new Uint8Array([0x7b, 0xff, 0x7d]), 2, denied()],
    ["exit 2 with an unknown key is invalid_output", '{"deny":true}', 2, error("invalid_output")],
    ["exit 2 with a bad decision is invalid_output", '{"decision":"maybe"}', 2, error("invalid_output")],
    [
      "exit 2 with an oversized reason is invalid_output",
      JSON.stringify({ reason: "r".repeat(1025) }),
      2,
      error("invalid_output"),
    ],
    [
      "exit 2 with an oversized message is invalid_output",
      JSON.stringify({ message: "m".repeat(513) }),
      2,
      error("invalid_output"),
    ],
    ["exit 1 is an error", "{}", 1, error("exit")],
    ["exit 3 is an error", "", 3, error("exit")],
    ["exit 1 wins over deny JSON", '{"decision":"deny"}', 1, error("exit")],
    ["stdout of only a newline", "\n", 0, error("invalid_output")],
    ["whitespace only", "   ", 0, error("invalid_output")],
    ["two JSON values", "{}\n{}", 0, error("invalid_output")],
    ["trailing garbage", "{} x", 0, error("invalid_output")],
    ["an array", "[]", 0, error("invalid_output")],
    ["null", "null", 0, error("invalid_output")],
    ["a string", '"continue"', 0, error("invalid_output")],
    ["a number", "2", 0, error("invalid_output")],
    ["malformed JSON", '{"decision":', 0, error("invalid_output")],
    [
      "invalid UTF-8",
      new Uint8Array([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d]),
      0,
      error("invalid_output"),
    ],
    ["a byte order mark", new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), 0, error("invalid_output")],
    ["an unknown key", '{"decision":"continue","extra":1}', 0, error("invalid_output")],
    ["a __proto__ key", '{"__proto__":{}}', 0, error("invalid_output")],
    ["a bad decision value", '{"decision":"allow"}', 0, error("invalid_output")],
    ["a null decision", '{"decision":null}', 0, error("invalid_output")],
    ["a non-string reason", '{"decision":"deny","reason":1}', 0, error("invalid_output")],
    ["a non-string message", '{"message":["x"]}', 0, error("invalid_output")],
    [
      "a reason of 1025 bytes",
      JSON.stringify({ decision: "deny", reason: "r".repeat(1025) }),
      0,
      error("invalid_output"),
    ],
    [
      "a reason of 513 two-byte characters",
      JSON.stringify({ decision: "deny", reason: "é".repeat(513) }),
      0,
      error("invalid_output"),
    ],
    ["a message of 513 bytes", JSON.stringify({ message: "m".repeat(513) }), 0, error("invalid_output")],
  ];
  it.each(cases)("%s", (_title, stdout, exitCode, expected) => {
    expect(parse("PreToolUse", stdout, exitCode)).toEqual(expected);
  });

  it("accepts a reason of exactly 1024 bytes and a message of exactly 512 bytes", () => {
    const reason = "é".repeat(512);
    const message = "m".repeat(512);
    expect(parse("UserPromptSubmit", JSON.stringify({ decision: "deny", reason, message }))).toEqual(
      denied(reason, message),
    );
  });

  it("treats death by a signal as exit, even with exit status 2 or a deny", () => {
    expect(parse("PreToolUse", '{"decision":"deny"}', null, "SIGKILL")).toEqual(error("exit"));
    expect(parse("PreToolUse", "", 2, "SIGTERM")).toEqual(error("exit"));
  });

  it("gives runner failures priority over the exit status and stdout", () => {
    for (const failure of ["timeout", "aborted", "output_too_large", "spawn", "stdin", "io"] as const) {
      expect(
        parseHookResponse("PreToolUse", { stdout: "", exitCode: 2, failure, id: "agent/guard" }),
      ).toEqual(error(failure));
    }
  });

  it("accepts an already decoded string and defaults the id", () => {
    expect(parseHookResponse("PreToolUse", { stdout: '{"decision":"deny"}', exitCode: 0 })).toEqual({
      outcome: "denied",
      decision: "deny",
      reason: "hook hook denied",
    });
  });
});

describe("parseHookResponse on notifications", () => {
  const notifications = HOOK_EVENTS.filter((event) => event !== "PreToolUse" && event !== "UserPromptSubmit");
  const cases: Array<[string, string, number, HookResponse]> = [
    ["empty stdout", "", 0, NOTIFIED],
    ["{}", "{}", 0, NOTIFIED],
    ["a message", '{"message":"noted"}', 0, { outcome: "continued", message: "noted" }],
    ["a reason is allowed", '{"reason":"why"}', 0, NOTIFIED],
    ["any decision is invalid_output", '{"decision":"continue"}', 0, error("invalid_output")],
    ["a deny decision is invalid_output", '{"decision":"deny"}', 0, error("invalid_output")],
    ["exit 2 is an error", "", 2, error("exit")],
    ["exit 2 with a valid object is still an error", "{}", 2, error("exit")],
    ["exit 1 is an error", "{}", 1, error("exit")],
    ["an unknown key", '{"ok":true}', 0, error("invalid_output")],
  ];
  for (const event of notifications) {
    it.each(cases)(`${event}: %s`, (_title, stdout, exitCode, expected) => {
      expect(parse(event, stdout, exitCode)).toEqual(expected);
    });
  }
});
