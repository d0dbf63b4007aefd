/**
 * `openSessionBoard`: a host session driven from a page. Calls run one at a time with their traces as events, an
 * `ask` becomes an escaped approval card that only `answerApproval` settles (refused means untouched), a bad
 * request is a `BoardRequestError` with a stable code and a refusal kind, and `close()` denies what is pending.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type ApprovalCard,
  type BoardEvent,
  BoardRequestError,
  MAX_BOARD_CALLS,
  openSessionBoard,
} from "../src/index.js";

const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function touchTool(cwd: string) {
  return {
    name: "touch",
    identity: "local/touch",
    description: "Writes a file at a path.",
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
      return { isError: false, content: [{ type: "text" as const, text: "done" }] };
    },
  };
}

const echo = {
  name: "echo",
  identity: "local/echo",
  description: "Says back what it is given.",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  handler: (args: { text?: string }) => ({
    isError: false,
    content: [{ type: "text" as const, text: args.text ?? "" }],
  }),
};

function refusal(run: () => unknown): { refusal: string; code: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BoardRequestError);
    const { refusal, code } = error as BoardRequestError;
    return { refusal, code };
  }
  throw new Error("no refusal");
}

/** Resolves with the first event of `type` the board sends. */
function nextEvent<T extends BoardEvent["type"]>(
  events: BoardEvent[],
  type: T,
): Promise<BoardEvent & { type: T }> {
  return new Promise((resolve) => {
    const seen = events.length;
    const timer = setInterval(() => {
      const found = events.slice(seen).find((event) => event.type === type);
      if (found) {
        clearInterval(timer);
        resolve(found as BoardEvent & { type: T });
      }
    }, 5);
  });
}

describe("openSessionBoard", () => {
  it("shows an ask as an escaped approval card; the write happens only after the card is approved", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-board-"));
    const events: BoardEvent[] = [];
    const board = openSessionBoard({ cwd, tools: [touchTool(cwd), echo], onEvent: (e) => events.push(e) });
    expect(board.state().tools.map((t) => [t.name, t.identity])).toEqual([
      ["touch", "local/touch"],
      ["echo", "local/echo"],
    ]);
    const approval = nextEvent(events, "approval");
    const callId = board.startCall("touch", { path: "../x\u202etxt\u001b[2J" });
    const card = (await approval).data as ApprovalCard;
    expect(card).toMatchObject({ callId, tool: "touch", identity: "local/touch" });
    expect(card.effects).toEqual([`write ${join(cwd, "..")}/x\\u202etxt\\x1b[2J outside`]);
    // The raw arguments travel as data; what a page shows (the card, `argumentsText`, the steps) is escaped.
    expect(JSON.stringify(board.state().approvals)).not.toMatch(FORBIDDEN);
    expect(board.state().calls[0]?.argumentsText).not.toMatch(FORBIDDEN);
    expect(board.state().approvals).toEqual([card]);
    expect(existsSync(join(cwd, "touched"))).toBe(false);
    expect(refusal(() => board.answerApproval(card.id, "yes"))).toEqual({
      refusal: "invalid",
      code: "approval_invalid",
    });
    expect(refusal(() => board.answerApproval("nope", true))).toEqual({
      refusal: "unknown",
      code: "approval_unknown",
    });
    board.answerApproval(card.id, true);
    await board.idle();
    expect(readFileSync(join(cwd, "touched"), "utf8")).toBe("../x\u202etxt\u001b[2J");
    const call = board.state().calls[0];
    expect(call?.status).toBe("done");
    expect(call?.steps.map((s) => [s.step, s.status])).toContainEqual(["approval", "approved"]);
    expect(call?.steps.find((s) => s.step === "approval")?.text).toBe("by the web page");
    for (const step of call?.steps ?? []) expect(step.text).not.toMatch(FORBIDDEN);
    expect(events.map((e) => e.type)).toEqual([
      "call",
      "call",
      "step",
      "step",
      "step",
      "step",
      "step",
      "approval",
      "approval-settled",
      "step",
      "step",
      "step",
      "call",
    ]);
    board.close();
  });

  it("refuses unknown tools, bad actions and bad submissions with stable codes, and denies what close leaves", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-board-"));
    const events: BoardEvent[] = [];
    const board = openSessionBoard({ cwd, tools: [touchTool(cwd), echo], onEvent: (e) => events.push(e) });
    expect(refusal(() => board.startCall("nope", {}))).toEqual({ refusal: "unknown", code: "tool_unknown" });
    expect(refusal(() => board.startCall(42, {}))).toEqual({ refusal: "unknown", code: "tool_unknown" });
    expect(refusal(() => board.runAction({ key: 1 }))).toEqual({
      refusal: "invalid",
      code: "action_invalid",
    });
    expect(refusal(() => board.runAction({ key: "a#b", action: "go" }))).toEqual({
      refusal: "unknown",
      code: "panel_unknown",
    });
    expect(refusal(() => board.answerInteraction("r", []))).toEqual({
      refusal: "invalid",
      code: "submission_invalid",
    });
    expect(refusal(() => board.answerInteraction("r", {}))).toEqual({
      refusal: "unknown",
      code: "interaction_unknown",
    });
    const approval = nextEvent(events, "approval");
    board.startCall("touch", { path: "a" });
    await approval;
    board.close();
    await board.idle();
    // The pending card is denied and the session aborted: the call ends either way, and nothing is written.
    expect(board.state().calls[0]?.result?.code).toMatch(/^(approval_denied|aborted)$/);
    expect(existsSync(join(cwd, "touched"))).toBe(false);
  });

  it(`keeps the last ${MAX_BOARD_CALLS} calls of its timeline`, async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-board-"));
    const board = openSessionBoard({ cwd, tools: [echo], onEvent: () => {} });
    for (let i = 0; i <= MAX_BOARD_CALLS; i++) board.startCall("echo", { text: String(i) });
    await board.idle();
    const calls = board.state().calls;
    expect(calls).toHaveLength(MAX_BOARD_CALLS);
    expect(calls[0]?.arguments).toEqual({ text: "1" });
    expect(calls.at(-1)?.result).toEqual({
      isError: false,
      code: null,
      text: String(MAX_BOARD_CALLS),
      truncated: false,
    });
    board.close();
  });
});
