import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadHookFolder } from "@raw/hook-protocol";
import { openHostSession } from "@raw/host";
import type { InteractionRecord, PanelFrame } from "@raw/panel/host";
import { generateText, isStepCount, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { toAiSdkTools } from "../src/index.js";
import { bundledTools, freshCwd, scriptedModel, toolResultsSeen } from "./support.js";

function denyHook(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "raw-ai-sdk-hook-")), "gate");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "hook.json"),
    JSON.stringify({
      protocol_version: 2,
      name: "gate",
      events: [{ name: "PreToolUse" }],
      command: "node",
      args: ["./index.mjs"],
      timeout_ms: 20_000,
    }),
  );
  writeFileSync(
    join(dir, "index.mjs"),
    'process.stdin.resume(); process.stdin.on("end", () => process.stdout.write(JSON.stringify({ decision: "deny", reason: "todo lists are frozen" })));',
  );
  return dir;
}

describe("hooks, panels and interactions go through the session", () => {
  it("a PreToolUse deny reaches the model as the tool's error (hook_denied), and the handler never runs", async () => {
    const cwd = freshCwd();
    const hook = await loadHookFolder(denyHook(), { id: "local/gate" });
    const frames: PanelFrame[] = [];
    const session = openHostSession({
      cwd,
      tools: await bundledTools(),
      hooks: [hook],
      onPanelFrame: (frame) => frames.push(frame),
    });
    const { model, prompts } = scriptedModel([
      {
        calls: [
          {
            id: "td",
            name: "todo",
            input: JSON.stringify({ mode: "replace", items: [{ id: "a", label: "A", status: "pending" }] }),
          },
        ],
      },
    ]);
    await generateText({ model, tools: toAiSdkTools(session), prompt: "x", stopWhen: isStepCount(2) });
    const seen = toolResultsSeen(prompts).get("td") as { type: string; value: string };
    expect(seen.type).toBe("error-text");
    expect(seen.value).toMatch(/^hook_denied: /);
    expect(seen.value).toContain("todo lists are frozen");
    expect(frames).toEqual([]);
    await session.close();
  });

  it("panel updates go to the session's panel host; the model reads the confirmation line, never a panel block", async () => {
    const cwd = freshCwd();
    const frames: PanelFrame[] = [];
    const session = openHostSession({
      cwd,
      tools: await bundledTools(),
      onPanelFrame: (frame) => frames.push(frame),
    });
    const { model, prompts } = scriptedModel([
      {
        calls: [
          {
            id: "td",
            name: "todo",
            input: JSON.stringify({
              mode: "replace",
              items: [{ id: "ship", label: "Ship it", status: "done" }],
            }),
          },
        ],
      },
    ]);
    const run = streamText({ model, tools: toAiSdkTools(session), prompt: "x", stopWhen: isStepCount(2) });
    await run.consumeStream();
    expect(frames.length).toBeGreaterThan(0);
    expect(JSON.stringify(frames)).toContain("Ship it");
    const seen = toolResultsSeen(prompts).get("td") as {
      type: string;
      value: { type: string; text: string }[];
    };
    expect(seen.type).toBe("content");
    expect(seen.value.length).toBeGreaterThan(0);
    expect(JSON.stringify(seen)).not.toContain('"panel"');
    expect(JSON.stringify(seen)).not.toContain("Ship it");
    await session.close();
  });

  it("an ask_user form is answered through the session's interaction service", async () => {
    const cwd = freshCwd();
    const asked: InteractionRecord[] = [];
    const session = openHostSession({
      cwd,
      tools: await bundledTools(),
      interactionAdapter: (request) => {
        asked.push(request);
        return {
          requestId: request.identity.requestId,
          expectedRevision: request.revision,
          idempotencyKey: "k1",
          response: "submit",
          answers: { color: "teal" },
        };
      },
    });
    const { model, prompts } = scriptedModel([
      {
        calls: [
          {
            id: "q",
            name: "ask_user",
            input: JSON.stringify({ questions: [{ id: "color", label: "Which color?", kind: "text" }] }),
          },
        ],
      },
    ]);
    await generateText({ model, tools: toAiSdkTools(session), prompt: "x", stopWhen: isStepCount(2) });
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(toolResultsSeen(prompts).get("q"))).toContain("teal");
    await session.close();
  });
});
