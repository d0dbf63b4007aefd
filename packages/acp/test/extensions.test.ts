import { describe, expect, it } from "vitest";
import { connect, expectAllValid, updatesOf, workdir } from "./support.js";

const ASK = JSON.stringify({
  questions: [{ id: "why", label: "Why?", kind: "text", required: true }],
});

describe("serveAcpAgent: _raw/* extensions, only when advertised in _meta.raw", () => {
  it("_raw/interaction/request carries a form when the client has no elicitation but advertised interactions", async () => {
    const cwd = workdir();
    const requests: any[] = [];
    const c = await connect({
      cwd,
      script: {
        capabilities: { _meta: { raw: { interactions: true } } },
        extension: (method, params) => {
          if (method !== "_raw/interaction/request") return {};
          requests.push(params);
          return { response: "submit", answers: { why: "because" } };
        },
      },
    });
    const s = await c.newSession();
    await c.prompt(s, `ask_user ${ASK}`);
    expect(c.elicitations).toHaveLength(0);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ sessionId: s, toolCallId: "raw-1", owner: "builtin/ask_user" });
    expect(JSON.stringify(updatesOf(c.updates, "tool_call_update").at(-1).content)).toContain("because");
    expectAllValid(c.sent);
  });

  it("_raw/panel/update follows every committed panel change when _meta.raw.panels was advertised, and never otherwise", async () => {
    const cwd = workdir();
    const items = [{ id: "a", label: "First" }];
    const seen: any[] = [];
    const c = await connect({ cwd, script: { capabilities: { _meta: { raw: { panels: true } } } } });
    const s = await c.newSession();
    await c.prompt(s, `todo ${JSON.stringify({ mode: "replace", items })}`);
    for (const m of c.sent as any[]) if (m.method === "_raw/panel/update") seen.push(m.params);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ sessionId: s, owner: "builtin/todo", revision: 1, closed: false });
    expectAllValid(c.sent);
    const plain = await connect({ cwd });
    await plain.prompt(await plain.newSession(), `todo ${JSON.stringify({ mode: "replace", items })}`);
    expect((plain.sent as any[]).some((m) => m.method === "_raw/panel/update")).toBe(false);
  });
});
