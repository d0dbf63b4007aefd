import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openHostSession } from "@raw/host";
import { generateText, isStepCount } from "ai";
import { describe, expect, it } from "vitest";
import { MAX_ARGUMENT_BYTES, rawToolApproval, toAiSdkTools } from "../src/index.js";
import { freshCwd, scriptedModel, toolResultsSeen } from "./support.js";

function counter(cwd: string, identity: string, name: string) {
  return {
    name,
    identity,
    description: "Counts its runs in runs.log.",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    handler: () => {
      appendFileSync(join(cwd, "runs.log"), `${name}\n`);
      return { isError: false, content: [{ type: "text" as const, text: "ran" }] };
    },
  };
}

const runs = (cwd: string) => {
  try {
    return readFileSync(join(cwd, "runs.log"), "utf8");
  } catch {
    return "";
  }
};

describe("bad input from the model or the chat history", () => {
  it("a 10 MB argument: no handler runs, nothing is kept, the model gets arguments_too_large (in-band and bridged)", async () => {
    const cwd = freshCwd();
    const session = openHostSession({
      cwd,
      tools: [counter(cwd, "local/echo", "echo")],
      rules: [{ match: "local/echo", effect: "ask" }],
      approve: () => true,
    });
    const huge = JSON.stringify({ text: "x".repeat(10 * 1024 * 1024) });
    expect(huge.length).toBeGreaterThan(MAX_ARGUMENT_BYTES);
    const { model, prompts } = scriptedModel([
      { calls: [{ id: "big", name: "echo", input: huge }] },
      { text: "ok" },
      { calls: [{ id: "big2", name: "echo", input: huge }] },
    ]);
    const tools = toAiSdkTools(session);
    await generateText({ model, tools, prompt: "x", stopWhen: isStepCount(2) });
    const seen = toolResultsSeen(prompts).get("big") as { type: string; value: string };
    expect(seen).toMatchObject({ type: "error-text" });
    expect(seen.value).toMatch(/^arguments_too_large: /);
    expect(seen.value.length).toBeLessThan(1000);
    const bridged = await generateText({ model, tools, toolApproval: rawToolApproval(session), prompt: "x" });
    expect(bridged.steps[0]?.content.some((part) => part.type === "tool-result")).toBe(false);
    expect(JSON.stringify(bridged.steps[0]?.content.filter((part) => part.type !== "tool-call"))).toContain(
      "arguments_too_large",
    );
    expect(runs(cwd)).toBe("");
    await session.close();
  });

  it("a model that calls a hidden or unknown tool: no handler runs and the model gets an error naming the tool", async () => {
    const cwd = freshCwd();
    const session = openHostSession({
      cwd,
      tools: [counter(cwd, "local/echo", "echo"), counter(cwd, "local/secret", "secret")],
      rules: [{ match: "local/secret", effect: "deny" }],
    });
    const tools = toAiSdkTools(session);
    expect(Object.keys(tools)).toEqual(["echo"]);
    const { model, prompts } = scriptedModel([
      {
        calls: [
          { id: "h", name: "secret", input: "{}" },
          { id: "u", name: "nope", input: "{}" },
        ],
      },
    ]);
    await generateText({
      model,
      tools,
      toolApproval: rawToolApproval(session),
      prompt: "x",
      stopWhen: isStepCount(2),
    });
    const seen = toolResultsSeen(prompts);
    expect(seen.get("h")).toMatchObject({ type: "error-text", value: expect.stringContaining("secret") });
    expect(seen.get("u")).toMatchObject({ type: "error-text", value: expect.stringContaining("nope") });
    expect(runs(cwd)).toBe("");
    await session.close();
  });
});
