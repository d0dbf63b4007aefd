/**
 * Issue 8 — fault injection with real processes (hooks.md §8–§11): hooks that hang, ignore SIGTERM, flood their
 * output, fork a bounded process tree, close stdout early, write invalid UTF-8, die by a signal or die mid-write.
 * Through `createHookDispatcher` the PreToolUse gate must always block (fail closed), no process of the hook may
 * survive (checked by pid; a zombie left for an init that does not reap counts as gone), and memory must stay
 * bounded while a hook floods.
 */
import { existsSync, readFileSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createHookDispatcher,
  type HookRunResult,
  type LoadedHook,
  parseHookManifest,
  runHook,
} from "../../src/index.js";
import { isGone, prePayload, tempFolder } from "../helpers.js";

/** Every pid a fault hook recorded, over the whole file (for the final count). */
const observed: number[] = [];

interface Fault {
  hook: LoadedHook;
  dir: string;
  pids: string;
}

/** A hook running `sh <script> <pids file>`; the script records its pid first. */
async function fault(body: string, timeoutMs = 500, event = "PreToolUse"): Promise<Fault> {
  const dir = await tempFolder({}, "raw-hook-fault-");
  const script = join(dir, "fault.sh");
  const pids = join(dir, "pids");
  await writeFile(script, `#!/bin/sh\necho $$ >> "$1"\n${body}\n`);
  await chmod(script, 0o755);
  const parsed = parseHookManifest({
    protocol_version: 2,
    name: "fault",
    events: [{ name: event, match: "*" }],
    command: "sh",
    args: [script, pids],
    timeout_ms: timeoutMs,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return { hook: { id: "agent/fault", folder: dir, manifest: parsed.manifest }, dir, pids };
}

function recordedPids(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(Number);
}

/** Waits (two seconds at most, for all of them together) until every recorded pid is gone; returns the survivors. */
async function survivors(file: string, expectedAtLeast = 1): Promise<number[]> {
  const pids = recordedPids(file);
  expect(pids.length).toBeGreaterThanOrEqual(expectedAtLeast);
  observed.push(...pids);
  let alive = pids;
  for (let i = 0; i < 40 && alive.length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = alive.filter((pid) => !isGone(pid));
  }
  return alive;
}

const request = (args: Record<string, unknown> = { command: "ls" }) => ({
  identity: "builtin/bash",
  name: "bash",
  source: "model" as const,
  arguments: args,
  toolCallId: "call-1",
});

/** Runs a fault hook as the PreToolUse gate; the gate must block. */
async function gate(f: Fault, args?: Record<string, unknown>, signal?: AbortSignal) {
  const receipts: unknown[] = [];
  const dispatcher = createHookDispatcher([f.hook], {
    envelope: { cwd: f.dir },
    onReceipt: (receipt) => receipts.push(receipt),
  });
  const answer = await dispatcher.preToolUse({ ...request(args), ...(signal ? { signal } : {}) });
  expect(answer.blocked === "error" || answer.blocked === "denied").toBe(true);
  expect(typeof answer.reason).toBe("string");
  return { answer, receipts: receipts as HookRunResult["receipt"][] };
}

const FAULTS: Array<[string, string, string]> = [
  ["hangs after reading stdin", "cat >/dev/null\nsleep 30", "timeout"],
  ["hangs without reading stdin", "sleep 30", "timeout"],
  ["hangs ignoring SIGTERM", "trap '' TERM\ncat >/dev/null\nsleep 30", "timeout"],
  ["floods stdout forever", "exec yes", "output_too_large"],
  ["floods stderr forever", "exec yes >&2", "output_too_large"],
  ["floods both streams", "yes >&2 &\nexec yes", "output_too_large"],
  ["closes stdout early and hangs", "exec 1>&-\ncat >/dev/null\nsleep 30", "timeout"],
  ["closes every stream early and hangs", "exec 0<&- 1>&- 2>&-\nsleep 30", "timeout"],
  ["closes stdout early and exits 1", "exec 1>&-\ncat >/dev/null\nexit 1", "exit"],
  ["writes invalid UTF-8", "cat >/dev/null\nprintf '\\377\\376{}'", "invalid_output"],
  [
    "writes a lone surrogate as CESU-8",
    'cat >/dev/null\nprintf \'{"reason":"\\355\\240\\200"}\'',
    "invalid_output",
  ],
  ["writes NUL bytes", "cat >/dev/null\nprintf '{}\\000'", "invalid_output"],
  ["exits by SIGTERM", "cat >/dev/null\nkill -TERM $$", "exit"],
  ["exits by SIGKILL", "cat >/dev/null\nkill -KILL $$", "exit"],
  ["exits by SIGSEGV", "cat >/dev/null\nkill -SEGV $$", "exit"],
  ["dies mid-write by a signal", 'cat >/dev/null\nprintf \'{"decision":"contin\'\nkill -KILL $$', "exit"],
  ["dies mid-write with exit 0", 'cat >/dev/null\nprintf \'{"decision":"continue"\'', "invalid_output"],
  ["writes half an answer then hangs", "cat >/dev/null\nprintf '{\"decision\":'\nsleep 30", "timeout"],
  ["answers twice", "cat >/dev/null\necho '{}'\necho '{\"decision\":\"continue\"}'", "invalid_output"],
  [
    "answers with a prototype-named key",
    'cat >/dev/null\necho \'{"__proto__":{"decision":"continue"}}\'',
    "invalid_output",
  ],
  [
    "answers continue on stdout but exits 3",
    'cat >/dev/null\necho \'{"decision":"continue"}\'\nexit 3',
    "exit",
  ],
];

async function expectBlocked(body: string, code: string): Promise<void> {
  const f = await fault(body);
  const { answer, receipts } = await gate(f);
  expect(answer).toEqual({ blocked: "error", reason: `hook agent/fault failed: ${code}` });
  expect(receipts).toHaveLength(1);
  expect(receipts[0]).toMatchObject({ id: "agent/fault", event: "PreToolUse", outcome: "error", code });
  expect(await survivors(f.pids)).toEqual([]);
}

describe("adversarial hooks: the gate fails closed and no process survives", () => {
  // Hooks that hang only wait for their timeout: they run side by side to keep the file fast.
  it.concurrent.for(FAULTS.filter(([, , code]) => code === "timeout"))(
    "a hook that %s",
    async ([, body, code]) => {
      await expectBlocked(body, code);
    },
  );

  it.for(FAULTS.filter(([, , code]) => code !== "timeout"))("a hook that %s", async ([, body, code]) => {
    await expectBlocked(body, code);
  });

  it("invalid UTF-8 with exit 2 still denies", async () => {
    const f = await fault("cat >/dev/null\nprintf '\\377'\nexit 2");
    const { answer } = await gate(f);
    expect(answer).toEqual({ blocked: "denied", reason: "hook agent/fault denied" });
    expect(await survivors(f.pids)).toEqual([]);
  });

  it("a spawn failure blocks", async () => {
    const parsed = parseHookManifest({
      protocol_version: 2,
      name: "fault",
      events: [{ name: "PreToolUse" }],
      command: "raw-no-such-command-on-path",
      timeout_ms: 800,
    });
    if (!parsed.ok) throw new Error("manifest");
    const dir = await tempFolder();
    const { answer } = await gate({
      hook: { id: "agent/fault", folder: dir, manifest: parsed.manifest },
      dir,
      pids: "",
    });
    expect(answer).toEqual({ blocked: "error", reason: "hook agent/fault failed: spawn" });
  });

  it("an abort kills a running gate hook and blocks", async () => {
    const f = await fault("cat >/dev/null\nsleep 30", 30_000);
    const controller = new AbortController();
    const pending = gate(f, undefined, controller.signal);
    while (recordedPids(f.pids).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const { answer } = await pending;
    expect(answer).toEqual({ blocked: "error", reason: "hook agent/fault failed: aborted" });
    expect(await survivors(f.pids)).toEqual([]);
  });

  it.each([
    ["a BigInt", () => ({ size: 10n })],
    [
      "a cycle",
      () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    ],
    [
      "a throwing toJSON",
      () => ({
        toJSON() {
          throw new Error("toJSON");
        },
      }),
    ],
  ])(
    "arguments holding %s cannot be serialized: the gate blocks and nothing is spawned",
    async (_name, make) => {
      const f = await fault("cat >/dev/null\necho '{}'");
      const { answer, receipts } = await gate(f, make());
      expect(answer).toEqual({ blocked: "error", reason: "hook agent/fault failed: hook_callback" });
      expect(receipts[0]).toMatchObject({ outcome: "error", code: "hook_callback" });
      expect(recordedPids(f.pids)).toEqual([]);
    },
  );

  it("a payload of 8 MiB to a hook that never reads it times out and is killed", async () => {
    const f = await fault("sleep 30");
    const { answer } = await gate(f, { blob: "x".repeat(8 * 1024 * 1024) });
    expect(answer).toEqual({ blocked: "error", reason: "hook agent/fault failed: timeout" });
    expect(await survivors(f.pids)).toEqual([]);
  });
});

/**
 * A polite fork bomb: `node.sh <pids> <depth>` records its pid, starts three children below depth 3 and sleeps in
 * place; the hook starts three nodes of depth 1, so the tree is the hook plus 3 + 9 + 27 processes, each recording
 * its pid.
 */
async function forkTree(
  detach: boolean,
  tail: string,
  timeoutMs = 800,
): Promise<Fault & { expected: number }> {
  const dir = await tempFolder({}, "raw-hook-fork-");
  const nodeScript = join(dir, "node.sh");
  await writeFile(
    nodeScript,
    `#!/bin/sh
PIDS="$1"; SELF="$0"
echo $$ >> "$PIDS"
if [ "$2" -lt 3 ]; then
  for i in 1 2 3; do
    sh "$SELF" "$PIDS" $(($2 + 1)) ${detach ? "</dev/null >/dev/null 2>&1 " : ""}&
  done
fi
exec sleep 30
`,
  );
  const start = `sh ${JSON.stringify(nodeScript)} "$1" 1 ${detach ? "</dev/null >/dev/null 2>&1 " : ""}&`;
  const f = await fault(`for i in 1 2 3; do\n  ${start}\ndone\n${tail}`, timeoutMs);
  // The hook itself, then 3 + 9 + 27 nodes below it.
  return { ...f, expected: 1 + 3 + 9 + 27 };
}

async function waitForPids(file: string, count: number): Promise<void> {
  for (let i = 0; i < 1000 && recordedPids(file).length < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("adversarial hooks: a bounded fork tree (depth 3 × 3 children)", () => {
  it("a tree that holds the pipes and hangs: aborted once complete, blocked, every pid gone", async () => {
    const f = await forkTree(false, "cat >/dev/null\nsleep 30", 20_000);
    const controller = new AbortController();
    const pending = gate(f, undefined, controller.signal);
    await waitForPids(f.pids, f.expected);
    controller.abort();
    const { answer } = await pending;
    expect(answer).toEqual({ blocked: "error", reason: "hook agent/fault failed: aborted" });
    expect(recordedPids(f.pids)).toHaveLength(f.expected);
    expect(await survivors(f.pids, f.expected)).toEqual([]);
  });

  it("a tree that holds the pipes and hangs past its timeout: blocked, every pid gone", async () => {
    const f = await forkTree(false, "cat >/dev/null\nsleep 30", 800);
    const { answer } = await gate(f);
    expect(answer).toEqual({ blocked: "error", reason: "hook agent/fault failed: timeout" });
    expect(await survivors(f.pids)).toEqual([]);
  });

  it("a tree detached from the pipes, the hook exiting 1: blocked, every pid gone", async () => {
    const f = await forkTree(
      true,
      `cat >/dev/null\nwhile [ $(wc -l < "$1") -lt 40 ]; do sleep 0.05; done\nexit 1`,
      5000,
    );
    const { answer } = await gate(f);
    expect(answer).toEqual({ blocked: "error", reason: "hook agent/fault failed: exit" });
    await waitForPids(f.pids, f.expected);
    expect(await survivors(f.pids, f.expected)).toEqual([]);
  });

  it("a tree detached from the pipes, the hook answering {} and exiting 0: no process outlives the hook", async () => {
    const f = await forkTree(
      true,
      `cat >/dev/null\nwhile [ $(wc -l < "$1") -lt 40 ]; do sleep 0.05; done\necho '{}'`,
      5000,
    );
    const result = await runHook(f.hook, prePayload(f.dir, { command: "ls" }));
    // A clean answer is a clean answer: the gate continues, but the hook's leftovers are stopped.
    expect(result.outcome).toBe("continued");
    await waitForPids(f.pids, f.expected);
    expect(await survivors(f.pids, f.expected)).toEqual([]);
  });
});

describe("adversarial hooks: memory stays bounded while a hook floods", () => {
  it("a 64 MiB flood keeps at most the 1 MiB output limit (plus stream buffers)", async () => {
    const f = await fault("cat >/dev/null\nhead -c 67108864 /dev/zero | tr '\\000' 'a'\nsleep 30", 10_000);
    const before = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.arrayBuffers - before.arrayBuffers);
    }, 5);
    const result = await runHook(f.hook, prePayload(f.dir));
    clearInterval(sampler);
    expect(result.code).toBe("output_too_large");
    expect(peak).toBeLessThan(16 * 1024 * 1024);
    expect(await survivors(f.pids)).toEqual([]);
  });

  it("a notification hook that floods only leaves a receipt with at most 4096 bytes of stderr", async () => {
    const f = await fault("cat >/dev/null\nexec yes >&2", 800, "PostToolUse");
    const dispatcher = createHookDispatcher([f.hook], { envelope: { cwd: f.dir } });
    const receipts: unknown[] = [];
    const result = await dispatcher.run("PostToolUse", {
      cwd: f.dir,
      tool: {
        identity: "builtin/bash",
        name: "bash",
        arguments: {},
        result: { isError: false, content: [] },
      },
    });
    receipts.push(...result.receipts);
    expect(result.blocked).toBeUndefined();
    expect(result.receipts[0]).toMatchObject({ outcome: "error", code: "output_too_large" });
    expect(Buffer.byteLength(result.receipts[0]?.stderr ?? "")).toBeLessThanOrEqual(4096);
    expect(await survivors(f.pids)).toEqual([]);
  });
});

describe("adversarial hooks: totals", () => {
  it("every process a fault hook started is gone", () => {
    expect(observed.length).toBeGreaterThan(100);
    expect(observed.filter((pid) => !isGone(pid))).toEqual([]);
  });
});
