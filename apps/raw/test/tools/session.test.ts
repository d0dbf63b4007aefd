/**
 * `openSession` in process: its trace is a view of the registry's own step events, and interactions are fitted to
 * the output cap dispatch really gives the handler (raised by a host tool's `outputLimit`), not the default.
 */

import { createHookDispatcher } from "@raw/hook-protocol";
import { parsePanelDeclarations } from "@raw/panel";
import type { InteractionRecord } from "@raw/panel/host";
import type {
  HandlerResult,
  LoadedTool,
  PreToolUseGate,
  ToolHandlerContext,
  ToolNotification,
  ToolRegistration,
} from "@raw/tool-api";
import { describe, expect, expectTypeOf, it } from "vitest";
import { openSession } from "../../src/support/session.js";

const response = (id: "submit" | "cancel") => ({
  id,
  label: id,
  scope: "block",
  blocks: ["form"],
  kind: "response",
  response: id,
});
const parsed = parsePanelDeclarations([
  { id: "ask", title: "Ask", placement: "chat", actions: [response("submit"), response("cancel")] },
]);
if (!parsed.ok) throw new Error("declarations");
const declarations = parsed.declarations;

/** A host tool (not a folder) asking one form of three long text fields. */
function hostTool(outputLimit: number | undefined): LoadedTool {
  const registration: ToolRegistration = {
    name: "ask_big",
    identity: "host/ask_big",
    description: "Asks three long questions.",
    inputSchema: { type: "object" },
    panels: declarations,
    ...(outputLimit === undefined ? {} : { outputLimit }),
    handler: async (_args: unknown, context: ToolHandlerContext): Promise<HandlerResult> => {
      const fields = ["a", "b", "c"].map((id) => ({
        id,
        kind: "text",
        label: id.toUpperCase(),
        max_bytes: 65_536,
      }));
      const answer = await context.interactions?.request({
        panel: "ask",
        document: { blocks: [{ id: "form", kind: "form", fields }] },
      });
      return {
        isError: false,
        content: [{ type: "text", text: `${context.maxOutputBytes} ${JSON.stringify(answer)}` }],
      };
    },
  };
  return {
    identity: "host/ask_big",
    dir: "/nonexistent",
    manifest: {} as LoadedTool["manifest"],
    registration,
    digest: "",
    importDir: "/nonexistent",
    warnings: [],
  };
}

async function askedLimits(outputLimit: number | undefined) {
  const seen: InteractionRecord[] = [];
  const session = await openSession({
    cwd: "/tmp",
    tools: [hostTool(outputLimit)],
    interactionAdapter: (request) => {
      seen.push(request);
      return {
        requestId: request.identity.requestId,
        expectedRevision: request.revision,
        idempotencyKey: "k",
        response: "cancel",
      };
    },
  });
  try {
    const trace = await session.call("ask_big", {});
    return { trace, form: seen[0]?.form };
  } finally {
    session.close();
  }
}

describe("openSession", () => {
  it("fits interactions to the cap dispatch gives the handler (outputLimit raises it)", async () => {
    const raised = await askedLimits(400_000);
    expect(raised.trace.result).toMatchObject({ isError: false });
    expect(raised.form?.maxResultBytes).toBe(400_000);
    expect(raised.form?.fields.map((f) => f.max_bytes)).toEqual([65_536, 65_536, 65_536]);

    const plain = await askedLimits(undefined);
    expect(plain.form?.maxResultBytes).toBe(65_536);
    expect(plain.form?.fields.every((f) => (f.max_bytes as number) < 65_536 / 2)).toBe(true);
  });

  it("traces the call from the registry's step events", async () => {
    const { trace } = await askedLimits(undefined);
    expect(trace.steps.map((s) => [s.step, s.status])).toEqual([
      ["exposure", "ok"],
      ["validation", "ok"],
      ["effects", "none"],
      ["policy", "allow"],
      ["hook", "none"],
      ["approval", "skipped"],
      ["handler", "ran"],
      ["panel", "updated"],
      ["result", "ok"],
    ]);
    expect(trace.steps[0]?.text).toBe("ask_big → host/ask_big");
  });

  it("the hook dispatcher's ports are tool-api's ports (type level, no cast)", () => {
    const hooks = createHookDispatcher([]);
    expectTypeOf(hooks.preToolUse).toExtend<PreToolUseGate>();
    expectTypeOf(hooks.notify).toExtend<ToolNotification>();
    const gate: PreToolUseGate = hooks.preToolUse;
    const notify: ToolNotification = hooks.notify;
    expect(typeof gate).toBe("function");
    expect(typeof notify).toBe("function");
  });
});
