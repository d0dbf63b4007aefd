import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connect, expectAllValid, updatesOf, workdir, writeArgs } from "./support.js";

const ASK = JSON.stringify({
  questions: [{ id: "why", label: "Why?", kind: "text", required: true }],
});

function deferred() {
  let resolve: (value: unknown) => void = () => undefined;
  let reached: () => void = () => undefined;
  const asked = new Promise<void>((r) => {
    reached = r;
  });
  const answer = new Promise((r) => {
    resolve = r;
  });
  return { asked, answer, resolve, reached };
}

describe("serveAcpAgent: bad input from a client", () => {
  it("a disconnect during a pending permission writes nothing, and a new connection gets a working agent", async () => {
    const cwd = workdir();
    const d = deferred();
    const c = await connect({
      cwd,
      script: {
        permission: () => {
          d.reached();
          return d.answer;
        },
      },
    });
    const s = await c.newSession();
    const turn = c.prompt(s, `write_file ${writeArgs("a.txt")}`).catch((error: unknown) => error);
    await d.asked;
    c.disconnect();
    await c.agentConnection.closed.catch(() => undefined);
    d.resolve({ outcome: { outcome: "selected", optionId: "allow_once" } });
    await turn;
    await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    const again = await connect({
      cwd,
      script: { permission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) },
    });
    await again.prompt(await again.newSession(), `write_file ${writeArgs("b.txt")}`);
    expect(existsSync(join(cwd, "b.txt"))).toBe(true);
  });

  it("cancel during a pending elicitation withdraws it; the late answer is ignored; the turn ends cancelled", async () => {
    const cwd = workdir();
    const d = deferred();
    const c = await connect({
      cwd,
      script: {
        capabilities: { elicitation: { form: {} } },
        elicitation: () => {
          d.reached();
          return d.answer;
        },
      },
    });
    const s = await c.newSession();
    const turn = c.prompt(s, `ask_user ${ASK}`);
    await d.asked;
    await c.connection.agent.notify("session/cancel", { sessionId: s });
    expect((await turn).stopReason).toBe("cancelled");
    d.resolve({ action: "accept", content: { why: "late" } });
    await new Promise((r) => setTimeout(r, 50));
    const final = updatesOf(c.updates, "tool_call_update").at(-1);
    expect(final.status).toBe("failed");
    expect(JSON.stringify(final)).not.toContain("late");
    expect(c.sent.some((m: any) => m.method === "$/cancel_request")).toBe(true);
    expectAllValid(c.sent);
  });

  it("an elicitation answer refused on every attempt ends the interaction cancelled, never answered", async () => {
    const cwd = workdir();
    const c = await connect({
      cwd,
      script: {
        capabilities: { elicitation: { form: {} } },
        elicitation: () => ({ action: "accept", content: { why: 42, extra: "x" } }),
      },
    });
    const s = await c.newSession();
    expect((await c.prompt(s, `ask_user ${ASK}`)).stopReason).toBe("end_turn");
    expect(c.elicitations).toHaveLength(3);
    expect(JSON.stringify(updatesOf(c.updates, "tool_call_update").at(-1))).toMatch(/cancel/);
    expectAllValid(c.sent);
  });

  it("an unknown session, a relative cwd and MCP servers without a mount hook get stated codes", async () => {
    const cwd = workdir();
    const c = await connect({ cwd });
    await expect(
      c.connection.agent.request("session/prompt", {
        sessionId: "nope",
        prompt: [{ type: "text", text: "/tools" }],
      }),
    ).rejects.toMatchObject({ data: { code: "unknown_session" } });
    await expect(
      c.connection.agent.request("session/new", { cwd: "relative", mcpServers: [] }),
    ).rejects.toMatchObject({
      data: { code: "invalid_cwd" },
    });
    await expect(
      c.connection.agent.request("session/new", {
        cwd,
        mcpServers: [{ name: "x", command: "node", args: [], env: [] }],
      }),
    ).rejects.toMatchObject({ data: { code: "mcp_servers_unsupported" } });
    // The agent stays up.
    const s = await c.newSession();
    expect((await c.prompt(s, "/tools")).stopReason).toBe("end_turn");
  });

  it("a hostile tool name and arguments are echoed escaped once (A1), and nothing runs", async () => {
    const cwd = workdir();
    const c = await connect({ cwd });
    const s = await c.newSession();
    await c.prompt(s, "evil\u001b]0;x\u0007\u202e {}");
    await c.prompt(s, "write_file {not json");
    const texts = JSON.stringify(c.sent);
    expect(texts).not.toMatch(/\u001b|\u202e|\u0007/);
    const said = updatesOf(c.updates, "agent_message_chunk").map((u) => u.content.text);
    expect(said.join("\n")).toContain("\\u202e");
    expect(said.join("\n")).toContain("invalid_arguments");
    expectAllValid(c.sent);
  });
});
