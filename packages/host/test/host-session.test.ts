import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadHookFolder } from "@raw/hook-protocol";
import { describe, expect, it } from "vitest";
import { type ApprovalView, type HostStepEvent, openHostSession } from "../src/index.js";

const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function writeTool(cwd: string) {
  return {
    name: "touch",
    identity: "local/touch",
    description: "Writes one line to a file at a path.",
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

function hookFolder(script: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "raw-host-hook-")), "gate");
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
  writeFileSync(join(dir, "index.mjs"), script);
  return dir;
}

describe("openHostSession (A10 guarantees without code of the host's own)", () => {
  it("asks before a tool that declares effects when there are no rules, with the escaped approval view", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    const views: ApprovalView[] = [];
    const session = openHostSession({
      cwd,
      tools: [writeTool(cwd), echo],
      approve: (_request, view) => {
        views.push(view);
        return false;
      },
    });
    const hostile = "../x\u202etxt.exe\u009b2J\u001b]0;t\u0007";
    const denied = await session.dispatch({ name: "touch", arguments: { path: hostile } });
    expect(denied.result.code).toBe("approval_denied");
    expect(existsSync(join(cwd, "touched"))).toBe(false);
    expect(views).toHaveLength(1);
    const view = views[0] as ApprovalView;
    expect(view.text).not.toMatch(FORBIDDEN);
    expect(view.effects?.[0]?.outside).toBe(true);
    expect(view.text).toContain("\\u202e");
    // A tool without effects runs unasked; a user rule that allows runs the write unasked.
    expect((await session.dispatch({ name: "echo", arguments: { text: "hi" } })).result.isError).toBe(false);
    expect(views).toHaveLength(1);
    const allowed = openHostSession({
      cwd,
      tools: [writeTool(cwd)],
      rules: [{ match: "local/*", effect: "allow" }],
    });
    expect((await allowed.dispatch({ name: "touch", arguments: { path: "a" } })).result.isError).toBe(false);
    expect(readFileSync(join(cwd, "touched"), "utf8")).toBe("a");
    expect(allowed.explain("local/touch").ruleIndex).toBe(allowed.rules.defaults);
    await session.close();
    await allowed.close();
  });

  it("a call's own approve decides its ask instead of the session's, with the same approval view", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    const sessionViews: ApprovalView[] = [];
    const session = openHostSession({
      cwd,
      tools: [writeTool(cwd)],
      approve: (_request, view) => {
        sessionViews.push(view);
        return false;
      },
    });
    const callViews: ApprovalView[] = [];
    const approved = await session.dispatch(
      { name: "touch", arguments: { path: "a" }, toolCallId: "c1" },
      {
        approve: (request, view) => {
          callViews.push(view);
          return request.toolCallId === "c1";
        },
      },
    );
    expect(approved.result.isError).toBe(false);
    expect(readFileSync(join(cwd, "touched"), "utf8")).toBe("a");
    expect(callViews.map((view) => view.identity)).toEqual(["local/touch"]);
    expect(sessionViews).toHaveLength(0);
    // The next call without its own approve goes back to the session's.
    const denied = await session.dispatch({ name: "touch", arguments: { path: "b" } });
    expect(denied.result.code).toBe("approval_denied");
    expect(sessionViews).toHaveLength(1);
    await session.close();
  });

  it("without an approval callback an ask ends approval_required, never an implicit yes", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    const session = openHostSession({ cwd, tools: [writeTool(cwd)] });
    const result = await session.dispatch({ name: "touch", arguments: { path: "a" } });
    expect(result.result.code).toBe("approval_required");
    expect(existsSync(join(cwd, "touched"))).toBe(false);
    await session.close();
  });

  it("reports every dispatch step in order and each hook receipt with its call", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    const dir = hookFolder(
      'process.stdin.resume(); process.stdin.on("end", () => process.stdout.write(JSON.stringify({ decision: "deny", reason: "no" })));',
    );
    const hook = await loadHookFolder(dir, { id: "local/gate" });
    const session = openHostSession({ cwd, tools: [echo], hooks: [hook] });
    const events: HostStepEvent[] = [];
    const stop = session.subscribe((event) => events.push(event));
    const result = await session.dispatch({ name: "echo", arguments: { text: "x" }, toolCallId: "c1" });
    stop();
    expect(result.result.code).toBe("hook_denied");
    expect(result.hooks.map((receipt) => receipt.outcome)).toEqual(["denied"]);
    const numbers = events.flatMap((event) => (event.type === "step" ? [event.step.number] : []));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(events.some((event) => event.type === "hook" && event.toolCallId === "c1")).toBe(true);
    expect(events.every((event) => event.toolCallId === "c1")).toBe(true);
    await session.close();
  });

  it("close() ends a call whose hook still runs, and leaves no hook process behind (A7)", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    const pidFile = join(cwd, "hook.pid");
    const dir = hookFolder(
      `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const hook = await loadHookFolder(dir, { id: "local/gate" });
    const session = openHostSession({ cwd, tools: [echo], hooks: [hook] });
    const running = session.dispatch({ name: "echo", arguments: {} });
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8") === "")
      await new Promise((r) => setTimeout(r, 20));
    const pid = Number(readFileSync(pidFile, "utf8"));
    await session.close();
    const result = await running;
    expect(result.result.isError).toBe(true);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it("previewEffects stops at the gate: the intended effects, and neither hook nor handler runs", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    const ran = join(cwd, "hook-ran");
    const dir = hookFolder(
      `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(ran)}, "1"); process.stdout.write("{}");`,
    );
    const hook = await loadHookFolder(dir, { id: "local/gate" });
    const session = openHostSession({ cwd, tools: [writeTool(cwd)], hooks: [hook] });
    const preview = await session.previewEffects({ name: "touch", arguments: { path: "a" } });
    expect(preview).toEqual({
      ok: true,
      identity: "local/touch",
      effects: { files: [{ path: "a", operation: "write" }] },
    });
    expect(existsSync(join(cwd, "touched"))).toBe(false);
    expect(existsSync(ran)).toBe(false);
    const unknown = await session.previewEffects({ name: "nope", arguments: {} });
    expect(unknown.ok === false && unknown.result.code).toBe("tool_not_exposed");
    await session.close();
  });

  it("runHooks runs the session's hooks on an event outside a call, and none without hooks", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    const dir = join(mkdtempSync(join(tmpdir(), "raw-host-hook-")), "notify");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "hook.json"),
      JSON.stringify({
        protocol_version: 2,
        name: "notify",
        events: [{ name: "Stop" }],
        command: "node",
        args: ["./index.mjs"],
        timeout_ms: 20_000,
      }),
    );
    writeFileSync(
      join(dir, "index.mjs"),
      'process.stdin.resume(); process.stdin.on("end", () => process.stdout.write("{}"));',
    );
    const hook = await loadHookFolder(dir, { id: "local/notify" });
    const session = openHostSession({ cwd, tools: [], hooks: [hook] });
    const result = await session.runHooks("Stop", { cwd, run: { status: "completed", steps: 0 } });
    expect(result.receipts.map((receipt) => [receipt.id, receipt.event, receipt.outcome])).toEqual([
      ["local/notify", "Stop", "continued"],
    ]);
    await session.close();
    const bare = openHostSession({ cwd, tools: [] });
    expect(await bare.runHooks("Stop", { cwd, run: { status: "completed", steps: 0 } })).toEqual({
      receipts: [],
    });
    await bare.close();
  });

  it("close() ends a running tool's child process (checked by pid), and the handler's signal aborts", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    let pid = 0;
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const spawner = {
      name: "spawn",
      identity: "local/spawn",
      description: "Runs a child process until it is cancelled.",
      inputSchema: { type: "object" },
      handler: async (_args: unknown, context: { signal?: AbortSignal }) => {
        const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
          signal: context.signal,
          stdio: "ignore",
        });
        child.once("error", () => {
          // The abort of close() kills it: the exit below is what the handler waits for.
        });
        pid = child.pid ?? 0;
        started();
        await new Promise((resolve) => child.once("exit", resolve));
        const text = context.signal?.aborted ? "ended after abort" : "ended";
        return { isError: false, content: [{ type: "text" as const, text }] };
      },
    };
    const session = openHostSession({ cwd, tools: [spawner] });
    const call = session.dispatch({ name: "spawn", arguments: {} });
    await running;
    expect(pid).toBeGreaterThan(0);
    await session.close();
    const result = await call;
    // The handler saw its signal abort (it then returned on its own; the registry keeps what it returned).
    expect(result.result.content).toEqual([{ type: "text", text: "ended after abort" }]);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it("a call given its own signal ends when that signal aborts, and when the session closes", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "raw-host-"));
    const entered: string[] = [];
    const waiter = {
      name: "wait",
      identity: "local/wait",
      description: "Waits until its signal aborts.",
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
      handler: (args: { id: string }, context: { signal?: AbortSignal }) =>
        new Promise<{ isError: false; content: { type: "text"; text: string }[] }>((resolve) => {
          entered.push(args.id);
          context.signal?.addEventListener("abort", () =>
            resolve({ isError: false, content: [{ type: "text", text: `${args.id} aborted` }] }),
          );
        }),
    };
    const session = openHostSession({ cwd, tools: [waiter], rules: [{ match: "*", effect: "allow" }] });
    const byCaller = new AbortController();
    const first = session.dispatch({ name: "wait", arguments: { id: "a" } }, { signal: byCaller.signal });
    const second = session.dispatch(
      { name: "wait", arguments: { id: "b" } },
      { signal: new AbortController().signal },
    );
    for (let i = 0; i < 100 && entered.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(entered).toEqual(["a", "b"]);
    byCaller.abort();
    expect((await first).result.content).toEqual([{ type: "text", text: "a aborted" }]);
    await session.close();
    expect((await second).result.content).toEqual([{ type: "text", text: "b aborted" }]);
  });
});
