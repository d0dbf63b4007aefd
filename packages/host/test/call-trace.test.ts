/**
 * `traceCall`: the trace of one call, step by step from the dispatch's own events (what `raw call` prints and
 * `raw serve` streams), every untrusted string A1-escaped; the text helpers that lay it out.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  blockText,
  type CallTrace,
  callHeader,
  compactJson,
  effectLines,
  MAX_HEADER_ARGUMENT_BYTES,
  openHostSession,
  stepText,
  type TraceStep,
  traceCall,
  traceJson,
} from "../src/index.js";

const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function touchTool(cwd: string) {
  return {
    name: "touch",
    identity: "local/touch",
    description: "Writes one line to a file at a path.",
    inputSchema: {
      type: "object",
      additionalProperties: false,
      required: ["path"],
      properties: { path: { type: "string" } },
    },
    effectsSchema: { type: "object" },
    describeEffects: (args: { path: string }) => ({ files: [{ path: args.path, operation: "write" }] }),
    handler: (args: { path: string }) => {
      writeFileSync(join(cwd, "touched"), args.path);
      return { isError: false, content: [{ type: "text" as const, text: `wrote ${args.path}` }] };
    },
  };
}

describe("traceCall", () => {
  it("records the pipeline's steps in order, names the deciding default rule, and escapes hostile text", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-trace-"));
    const session = openHostSession({ cwd, tools: [touchTool(cwd)], approve: () => false });
    const live: TraceStep[] = [];
    const hostile = "a\u202etxt\u001b[2J";
    const trace = await traceCall(
      session,
      { name: "touch", arguments: { path: hostile } },
      { approverLabel: "the test", onStep: (step) => live.push(step) },
    );
    expect(trace.result.code).toBe("approval_denied");
    expect(existsSync(join(cwd, "touched"))).toBe(false);
    expect(trace.steps.map((s) => [s.step, s.status])).toEqual([
      ["exposure", "ok"],
      ["validation", "ok"],
      ["effects", "ok"],
      ["policy", "ask"],
      ["hook", "none"],
      ["approval", "denied"],
      ["result", "error"],
    ]);
    expect(live).toEqual(trace.steps);
    const policy = trace.steps[3] as TraceStep;
    expect(policy.data).toMatchObject({ defaultRule: true, location: "(default rules):3:1" });
    expect(policy.text).toMatch(/^default rule 2 at \(default rules\):3:1: \{"match":"local\/touch"/);
    expect(trace.steps[5]?.text).toBe("by the test");
    for (const step of trace.steps) expect(step.text).not.toMatch(FORBIDDEN);
    expect(trace.steps[2]?.text).toContain("\\u202e");
    expect(trace.identity).toBe("local/touch");
    expect(trace.effects).toEqual({ files: [{ path: hostile, operation: "write" }] });
    await session.close();
  });

  it("names a user rule by its place in the user's rules, or as the host describes it", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-trace-"));
    const session = openHostSession({
      cwd,
      tools: [touchTool(cwd)],
      rules: [{ match: "local/touch", effect: "allow" }],
    });
    const plain = await traceCall(session, { name: "touch", arguments: { path: "x" } });
    expect(plain.result.isError).toBe(false);
    const policy = plain.steps.find((s) => s.step === "policy") as TraceStep;
    expect(policy.text).toBe('rule 0: {"match":"local/touch","effect":"allow"}');
    expect(plain.steps.find((s) => s.step === "approval")?.text).toBe(
      "not needed: the policy decision is allow",
    );
    expect(plain.steps.at(-1)).toMatchObject({ step: "result", status: "ok", text: "wrote x" });
    const placed = await traceCall(
      session,
      { name: "touch", arguments: { path: "y" } },
      {
        describeRule: (index) => ({
          rule: { match: "local/touch", effect: "allow" },
          location: "rules.json:2:3",
          label: "rule 0",
          index: index - session.rules.defaults,
          defaultRule: false,
        }),
      },
    );
    expect(placed.steps.find((s) => s.step === "policy")?.text).toBe(
      'rule 0 at rules.json:2:3: {"match":"local/touch","effect":"allow"}',
    );
    await session.close();
  });

  it("says why an ask could not be asked, in the host's words", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-trace-"));
    const session = openHostSession({ cwd, tools: [touchTool(cwd)] });
    const trace = await traceCall(
      session,
      { name: "touch", arguments: { path: "x" } },
      { approvalRequiredText: "pass --approve yes" },
    );
    expect(trace.steps.find((s) => s.step === "approval")).toEqual({
      step: "approval",
      status: "required",
      text: "pass --approve yes",
    });
    expect(traceJson(trace as CallTrace)).toMatchObject({
      tool: "touch",
      identity: "local/touch",
      panels: [],
    });
    await session.close();
  });
});

describe("the trace's text helpers", () => {
  it("lay out steps in columns and escape what is left", () => {
    expect(stepText({ step: "result", status: "ok", text: "one\ntwo\u001b" })).toBe(
      `  result      ok         one\n${" ".repeat(25)}two\\x1b\n`,
    );
    const header = callHeader("touch\u202e", { text: "x".repeat(2 * MAX_HEADER_ARGUMENT_BYTES) });
    expect(header).toMatch(/^call touch\\u202e \{"text":"x+/);
    expect(Buffer.byteLength(header)).toBeLessThan(MAX_HEADER_ARGUMENT_BYTES + 64);
    expect(effectLines({ files: [{ path: "/a\nb", operation: "write" }] })).toEqual(["write /a\\nb"]);
    expect(effectLines({ files: [] })).toEqual(["no files"]);
    expect(blockText({ type: "text", text: "a\n\u009bb" })).toBe("a\n\\x9bb");
    expect(compactJson({ a: "\u2066" })).toBe('{"a":"\\u2066"}');
  });
});
