import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ApprovalView, openHostSession } from "@raw/host";
import { generateText, isStepCount, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { toAiSdkTools } from "../src/index.js";
import { bundledTools, freshCwd, scriptedModel, toolResultsSeen } from "./support.js";

const write = (path: string, content: string) =>
  JSON.stringify({ operations: [{ path, mode: "overwrite", content }] });

describe("toAiSdkTools (in-band approval, the default)", () => {
  it("exposes every tool the rules do not hide, as dynamic tools with the identity as metadata", async () => {
    const cwd = freshCwd();
    const session = openHostSession({
      cwd,
      tools: await bundledTools(),
      rules: [{ match: "builtin/bash", effect: "deny" }],
    });
    const tools = toAiSdkTools(session);
    expect(Object.keys(tools).sort()).toEqual(["ask_user", "diagram", "todo", "write_file"]);
    expect(tools.write_file?.type).toBe("dynamic");
    expect((tools.write_file as { metadata?: unknown }).metadata).toEqual({ identity: "builtin/write_file" });
    expect(Object.keys(toAiSdkTools(session, { whitelist: ["todo", "bash"] }))).toEqual(["todo"]);
    await session.close();
  });

  it("an ask waits inside execute for the session's approver (the A10 view); a refusal reaches the model as the tool's error", async () => {
    const cwd = freshCwd();
    const views: ApprovalView[] = [];
    let answer = true;
    const session = openHostSession({
      cwd,
      tools: await bundledTools(),
      approve: (_request, view) => {
        views.push(view);
        return answer;
      },
    });
    const { model, prompts } = scriptedModel([
      { calls: [{ id: "w1", name: "write_file", input: write("a.txt", "one") }] },
      { text: "written" },
      { calls: [{ id: "w2", name: "write_file", input: write("b.txt", "two") }] },
      { text: "refused" },
    ]);
    const tools = toAiSdkTools(session);
    await generateText({ model, tools, prompt: "write", stopWhen: isStepCount(2) });
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one");
    answer = false;
    await generateText({ model, tools, prompt: "write", stopWhen: isStepCount(2) });
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    expect(views.map((view) => view.identity)).toEqual(["builtin/write_file", "builtin/write_file"]);
    expect(views[0]?.text).toContain(`write ${join(cwd, "a.txt")}`);
    const seen = toolResultsSeen(prompts);
    expect(JSON.stringify(seen.get("w1"))).toContain("a.txt");
    expect(seen.get("w2")).toMatchObject({ type: "error-text" });
    expect(String((seen.get("w2") as { value: string }).value)).toMatch(/^approval_denied: /);
    await session.close();
  });

  it("invalid input reaches the model as the registry's invalid_arguments text, and the handler never runs", async () => {
    const cwd = freshCwd();
    const session = openHostSession({ cwd, tools: await bundledTools(), approve: () => true });
    const { model, prompts } = scriptedModel([
      { calls: [{ id: "bad", name: "write_file", input: JSON.stringify({ operations: [{ path: 7 }] }) }] },
    ]);
    const result = await generateText({
      model,
      tools: toAiSdkTools(session),
      prompt: "x",
      stopWhen: isStepCount(2),
    });
    const seen = toolResultsSeen(prompts).get("bad") as { type: string; value: string };
    expect(seen.type).toBe("error-text");
    expect(seen.value).toMatch(/^invalid_arguments: /);
    expect(result.steps[0]?.content.find((part) => part.type === "tool-error")).toBeDefined();
    await session.close();
  });

  it("the abort signal of the call reaches the handler", async () => {
    const cwd = freshCwd();
    let seen: AbortSignal | undefined;
    const waiter = {
      name: "wait",
      identity: "local/wait",
      description: "Waits until the call is aborted.",
      inputSchema: { type: "object", properties: {} },
      handler: (_args: unknown, context: { signal?: AbortSignal }) =>
        new Promise<{ isError: boolean; content: { type: "text"; text: string }[] }>((resolve) => {
          seen = context.signal;
          context.signal?.addEventListener("abort", () =>
            resolve({ isError: true, content: [{ type: "text", text: "stopped" }] }),
          );
          controller.abort();
        }),
    };
    const controller = new AbortController();
    const session = openHostSession({ cwd, tools: [waiter] });
    const { model } = scriptedModel([{ calls: [{ id: "w", name: "wait", input: "{}" }] }]);
    const run = streamText({
      model,
      tools: toAiSdkTools(session),
      prompt: "x",
      abortSignal: controller.signal,
    });
    await run.consumeStream();
    expect(seen?.aborted).toBe(true);
    await session.close();
  });
});
