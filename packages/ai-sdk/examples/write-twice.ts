import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { rawToolApproval, toAiSdkTools } from "@raw/ai-sdk";
import { openHostSession } from "@raw/host";
import { loadToolFolders } from "@raw/tool-api";
import { bundledToolFolders } from "@raw/tools";
import { isStepCount, type ModelMessage, streamText } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";

// A model that calls write_file twice (notes.md, then src/app.ts), then says it is done.
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const writes = [
  { id: "w1", path: "notes.md", content: "# Notes\n" },
  { id: "w2", path: "src/app.ts", content: "export {};\n" },
];
let turn = 0;
const model = new MockLanguageModelV4({
  doStream: async () => {
    const write = writes[turn++];
    const parts: LanguageModelV4StreamPart[] = write
      ? [
          {
            type: "tool-call",
            toolCallId: write.id,
            toolName: "write_file",
            input: JSON.stringify({
              operations: [{ path: write.path, mode: "overwrite", content: write.content }],
            }),
          },
          {
            type: "finish",
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
          },
        ]
      : [
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Both files are written." },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
        ];
    return { stream: convertArrayToReadableStream(parts) };
  },
});

// The app's rules: write_file runs unasked, except under src/ where the user is asked.
const cwd = mkdtempSync(join(tmpdir(), "raw-ai-sdk-example-"));
const session = openHostSession({
  cwd,
  tools: await loadToolFolders(bundledToolFolders()),
  rules: [
    { match: "builtin/write_file", effect: "allow" },
    {
      match: "builtin/write_file",
      effect: "ask",
      when: { source: "effects", any: "files[*].path", regex: "/src/" },
    },
  ],
});
const tools = toAiSdkTools(session);
const toolApproval = rawToolApproval(session);
// The chat history comes back from the browser: approval requests are signed with a server-side secret, so the AI
// SDK refuses one the server did not issue or whose tool call was edited. Required.
const secret = process.env.RAW_APPROVAL_SECRET;
if (!secret)
  throw new Error(
    "RAW_APPROVAL_SECRET is not set: give the server a secret for experimental_toolApprovalSecret",
  );

let messages: ModelMessage[] = [{ role: "user", content: "Write the notes and the app." }];
for (let request = 0; request < 4; request++) {
  const result = streamText({
    model,
    tools,
    toolApproval,
    experimental_toolApprovalSecret: secret,
    messages,
    stopWhen: isStepCount(8),
  });
  const answers: ModelMessage[] = [];
  for await (const part of result.fullStream) {
    if (part.type === "tool-result") console.log(`ran ${part.toolCallId}`);
    if (part.type === "tool-approval-request") {
      // What the user reads: the one approval view (A10), here its first line.
      console.log(`asked ${part.toolCall.toolCallId}: ${part.reason?.split("\n")[0]}`);
      answers.push({
        role: "tool",
        content: [{ type: "tool-approval-response", approvalId: part.approvalId, approved: true }],
      });
    }
    if (part.type === "text-delta") console.log(part.text);
  }
  messages = [...messages, ...(await result.response).messages, ...answers];
  if (answers.length === 0) break;
}
console.log(
  readFileSync(join(cwd, "notes.md"), "utf8").trim(),
  readFileSync(join(cwd, "src/app.ts"), "utf8").trim(),
);
await session.close();
