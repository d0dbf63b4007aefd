import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openHostSession } from "@raw/host";
import { generateText, isStepCount, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { rawRepairToolCall, rawToolApproval, toAiSdkTools } from "../src/index.js";
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

describe("rawRepairToolCall: a call the tool set cannot take gets Raw's code (ai 7 repairToolCall)", () => {
  for (const mode of ["generateText", "streamText"] as const) {
    it(`${mode}: unknown or hidden → unknown_tool (not told apart), not JSON → invalid_arguments; nothing runs`, async () => {
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
            { id: "j", name: "echo", input: "{not json" },
          ],
        },
      ]);
      const options = {
        model,
        tools,
        toolApproval: rawToolApproval(session),
        repairToolCall: rawRepairToolCall(),
        prompt: "x",
        stopWhen: isStepCount(2),
      };
      if (mode === "generateText") await generateText(options);
      else await streamText(options).consumeStream();
      const seen = toolResultsSeen(prompts);
      const text = (id: string) => (seen.get(id) as { type: string; value: string }).value;
      expect(seen.get("u")).toMatchObject({ type: "error-text" });
      // What ai 7 puts in front of a repair function's error: the evidence that the code cannot lead the text.
      expect(text("u")).toBe(
        'AI_ToolCallRepairError: Error repairing tool call: unknown_tool: no tool named "nope" is available',
      );
      // A hidden tool is not told apart from an unknown one.
      expect(text("h")).toBe(
        'AI_ToolCallRepairError: Error repairing tool call: unknown_tool: no tool named "secret" is available',
      );
      expect(text("j")).toMatch(/Error repairing tool call: invalid_arguments: /);
      expect(runs(cwd)).toBe("");
      await session.close();
    });
  }

  it("with a whitelist, a name outside it gets unknown_tool whether or not the session has it", async () => {
    const cwd = freshCwd();
    const session = openHostSession({
      cwd,
      tools: [counter(cwd, "local/echo", "echo"), counter(cwd, "local/other", "other")],
    });
    const whitelist = ["echo"];
    const { model, prompts } = scriptedModel([
      {
        calls: [
          { id: "w", name: "other", input: "{}" },
          { id: "u", name: "nope", input: "{}" },
        ],
      },
    ]);
    await generateText({
      model,
      tools: toAiSdkTools(session, { whitelist }),
      repairToolCall: rawRepairToolCall(),
      prompt: "x",
      stopWhen: isStepCount(2),
    });
    const seen = toolResultsSeen(prompts);
    for (const id of ["w", "u"]) {
      expect((seen.get(id) as { value: string }).value).toMatch(/Error repairing tool call: unknown_tool: /);
    }
    expect(runs(cwd)).toBe("");
    await session.close();
  });

  it("a 100 KB tool name is cut in the error the model reads", async () => {
    const cwd = freshCwd();
    const session = openHostSession({ cwd, tools: [counter(cwd, "local/echo", "echo")] });
    const long = "n".repeat(100_000);
    const { model, prompts } = scriptedModel([{ calls: [{ id: "l", name: long, input: "{}" }] }]);
    await generateText({
      model,
      tools: toAiSdkTools(session),
      repairToolCall: rawRepairToolCall(),
      prompt: "x",
      stopWhen: isStepCount(2),
    });
    const value = (toolResultsSeen(prompts).get("l") as { value: string }).value;
    expect(value.length).toBeLessThan(2_000);
    expect(value).toMatch(/unknown_tool: /);
    await session.close();
  });
});
