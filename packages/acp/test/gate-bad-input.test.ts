import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_ACP_LINE_BYTES } from "../src/index.js";
import { failedUpdates, gateWorkdir, openGate } from "./gate-support.js";

const allowReads = [{ match: "acp/*/fs/read_text_file", effect: "allow" as const }];
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("createAcpGate under bad input (A10 bounds, A1 escaping)", () => {
  it("a 10 MB terminal command line is refused with a stated error, never reaches the client; the gate goes on", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", rules: [{ match: "acp/*", effect: "allow" }] });
    const answers = await g.run([
      { request: "terminal/create", params: {}, fill: { field: "command", char: "a", times: 10_000_000 } },
      { request: "fs/read_text_file", params: { path: join(cwd, "a.txt") } },
    ]);
    expect(answers[0].error.code).toBe(-32600);
    expect(answers[0].error.message).toMatch(
      new RegExp(`^message too large: \\d+ bytes \\(at most ${MAX_ACP_LINE_BYTES}\\)$`),
    );
    expect(g.terminals).toEqual([]);
    expect(answers[1].result).toEqual({ content: "file text\n" });
    expect(g.diagnostics.some((d) => d.includes("terminal/create") && d.includes("dropped"))).toBe(true);
    await g.close();
  }, 30_000);

  it("malformed JSON from the agent and from the client is dropped with a diagnostic; both sides go on", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", rules: allowReads });
    g.sendRaw("{this is not json");
    g.sendRaw("[1,2,3]");
    const answers = await g.run([
      { raw: '{"jsonrpc":"2.0","id":"x-1","method":"fs/write_text_file","params":' },
      { raw: "\u001b[2J not json at all" },
      { request: "fs/read_text_file", params: { path: join(cwd, "a.txt") } },
    ]);
    expect(answers[2].result).toEqual({ content: "file text\n" });
    expect(g.writes).toEqual([]);
    expect(g.diagnostics.filter((d) => d.includes("not a JSON object"))).toHaveLength(4);
    for (const d of g.diagnostics) expect(d).not.toMatch(CONTROL);
    await g.close();
  });

  it("a path with control characters is escaped in the approval view and the refusal", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({
      cwd,
      name: "bot",
      script: { permission: () => ({ outcome: { outcome: "cancelled" } }) },
    });
    const path = join(cwd, "a\u001b]0;pwned\u0007\n\u202eb.txt");
    const [answer] = await g.run([{ request: "fs/write_text_file", params: { path, content: "x" } }]);
    expect(answer.error.data.code).toBe("approval_denied");
    const view = g.permissions[0].toolCall.content[0].content.text as string;
    expect(view).toContain("a\\x1b]0;pwned\\x07\\n\\u202eb.txt");
    expect(view).not.toMatch(CONTROL);
    expect(g.permissions[0].toolCall.title).not.toMatch(CONTROL);
    const failed = failedUpdates(g.updates);
    expect(failed).toHaveLength(1);
    expect(failed[0].content[0].content.text).not.toMatch(CONTROL);
    for (const d of g.diagnostics) expect(d).not.toMatch(CONTROL);
    await g.close();
  });

  it("the agent exits mid-request: every pending client request ends with a stated error and the gate ends", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot" });
    const prompt = g.connection.agent.request("session/prompt", {
      sessionId: g.sessionId,
      prompt: [
        {
          type: "text",
          text: JSON.stringify([
            { update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "bye" } } },
            { exit: 3 },
          ]),
        },
      ],
    });
    await expect(prompt).rejects.toMatchObject({
      code: -32603,
      message: "the ACP agent exited (code 3) before answering session/prompt",
    });
    expect(await g.gate.closed).toEqual({ code: 3, signal: null });
    expect(g.lines.at(-1)).toMatchObject({ error: { data: { code: "agent_exited" } } });
  });

  it("a flood of updates to a client that does not read: the gate stops reading (bounded), then delivers all in order", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", rules: allowReads });
    const count = 20_000;
    g.hold();
    const done = g.run([
      { updates: count },
      { request: "fs/read_text_file", params: { path: join(cwd, "a.txt") } },
    ]);
    await new Promise((r) => setTimeout(r, 1500));
    const buffered = g.output.writableLength + g.output.readableLength;
    expect(buffered).toBeLessThan(1024 * 1024);
    g.release();
    const answers = await done;
    expect(answers[1].result).toEqual({ content: "file text\n" });
    const chunks = g.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.text.startsWith("chunk "))
      .map((u) => Number(u.content.text.slice(6)));
    expect(chunks).toHaveLength(count);
    expect(chunks.every((n, i) => n === i)).toBe(true);
    await g.close();
  }, 60_000);

  it("requests past the pending cap are refused with a stated error; the others are answered", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({
      cwd,
      name: "bot",
      maxPendingRequests: 3,
      other: () => new Promise((resolve) => setTimeout(() => resolve({ late: true }), 500)),
    });
    const [answer] = await g.run([
      { parallel: Array.from({ length: 5 }, (_, i) => ({ request: "_custom/slow", params: { i } })) },
    ]);
    const outcomes = answer.result.map((a: any) => a.result?.late ?? a.error.message);
    expect(outcomes.filter((o: unknown) => o === true)).toHaveLength(3);
    expect(outcomes.filter((o: unknown) => o === "too many pending requests (at most 3)")).toHaveLength(2);
    await g.close();
  });
});
