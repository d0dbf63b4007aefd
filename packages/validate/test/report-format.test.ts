/**
 * Amendment A1 in the report formatters of `raw validate` and `raw panel validate`, for any file name and message:
 * text keeps one issue per line, JSON is one document that parses back to the exact strings, and GitHub gives one
 * workflow command per issue whose decoded values are the display-escaped texts.
 */
import { escapeDisplayText } from "@raw/schema";
import { type FileReport, formatGithub, formatJson, formatText } from "@raw/validate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const unit = fc.oneof(
  fc.constantFrom(
    "\u001b",
    "\u009b",
    "\u202e",
    "\n",
    "\r",
    "\t",
    "%",
    ":",
    ",",
    "\u2028",
    "\u200b",
    "\u007f",
  ),
  fc.string({ unit: "binary", maxLength: 1 }),
);
const hostile = fc.string({ unit, maxLength: 40 });

const RAW =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

function reportOf(file: string, messages: string[]): FileReport {
  return {
    file,
    kind: "unknown",
    ok: messages.length === 0,
    issues: messages.map((message, i) => ({
      code: "json_invalid",
      message,
      pointer: null,
      line: i + 1,
      column: 1,
    })),
    warnings: [],
  };
}

const decode = (s: string) =>
  s
    .replaceAll("%2C", ",")
    .replaceAll("%3A", ":")
    .replaceAll("%0A", "\n")
    .replaceAll("%0D", "\r")
    .replaceAll("%25", "%");

describe("report formats (A1)", () => {
  it("text: a header, one line per issue and the summary, whatever the names and messages hold", () => {
    fc.assert(
      fc.property(hostile, fc.array(hostile, { minLength: 1, maxLength: 3 }), (file, messages) => {
        const out = formatText([reportOf(file, messages)]);
        expect(out).not.toMatch(RAW);
        expect(out.split("\n")).toHaveLength(1 + messages.length + 1 + 1 + 1);
      }),
      { seed: 20261209, numRuns: 1000 },
    );
  });

  it("json: one document with the exact strings", () => {
    fc.assert(
      fc.property(hostile, fc.array(hostile, { maxLength: 3 }), (file, messages) => {
        const out = formatJson([reportOf(file, messages)]);
        expect(out).not.toMatch(RAW);
        const body = JSON.parse(out);
        expect(body.files[0].file).toBe(file);
        expect(body.files[0].issues.map((issue: { message: string }) => issue.message)).toEqual(messages);
      }),
      { seed: 20261210, numRuns: 1000 },
    );
  });

  it("github: one command per issue; decoded, the file is the escaped line and the message the escaped block", () => {
    fc.assert(
      fc.property(hostile, fc.array(hostile, { minLength: 1, maxLength: 3 }), (file, messages) => {
        const out = formatGithub([reportOf(file, messages)]).split("\n");
        expect(out.at(-1)).toBe("");
        expect(out).toHaveLength(messages.length + 2);
        messages.forEach((message, i) => {
          const line = out[i] as string;
          // A message is a block: TAB may stay (LF and CR are %-encoded), nothing else raw.
          expect(line.replaceAll("\t", " ")).not.toMatch(RAW);
          const match = /^::error file=([^,]*),line=(\d+),col=1,title=json_invalid::(.*)$/.exec(line);
          expect(match, line).not.toBeNull();
          expect(decode(match?.[1] as string)).toBe(escapeDisplayText(file));
          expect(match?.[2]).toBe(String(i + 1));
          expect(decode(match?.[3] as string)).toBe(escapeDisplayText(message, { multiline: true }));
        });
      }),
      { seed: 20261211, numRuns: 1000 },
    );
  });
});
