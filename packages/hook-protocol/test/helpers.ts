import { readFileSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { buildHookPayload, type HookPayload, type RunnableHook } from "../src/index.js";

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Writes `files` into a fresh temporary folder (`*.sh` files executable) and returns the folder. */
export async function tempFolder(
  files: Record<string, string> = {},
  prefix = "raw-hook-test-",
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  created.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text);
    if (name.endsWith(".sh")) await chmod(join(dir, name), 0o755);
  }
  return dir;
}

/** A runnable hook spawning `command args` with `timeoutMs`. */
export function hookOf(command: string, args: string[], timeoutMs = 5000, id = "agent/test"): RunnableHook {
  return { id, manifest: { command, args, timeoutMs } };
}

/** A runnable hook running a Node script file with the current Node binary. */
export function nodeHook(dir: string, script: string, timeoutMs = 5000): RunnableHook {
  return hookOf(process.execPath, [join(dir, script)], timeoutMs);
}

/** A `PreToolUse` request for `builtin/bash` in `cwd`. */
export function prePayload(cwd: string, args: Record<string, unknown> = { command: "ls" }): HookPayload {
  return buildHookPayload("PreToolUse", {
    cwd,
    turn_id: "op-1",
    tool: { identity: "builtin/bash", name: "bash", arguments: args, tool_call_id: "call-1" },
  });
}

/** A `PostToolUse` request for `builtin/bash` in `cwd`. */
export function postPayload(cwd: string): HookPayload {
  return buildHookPayload("PostToolUse", {
    cwd,
    tool: {
      identity: "builtin/bash",
      name: "bash",
      arguments: { command: "ls" },
      result: { isError: false, content: [{ type: "text", text: "ok" }] },
    },
  });
}

/**
 * True when `pid` no longer runs: `kill(pid, 0)` fails with ESRCH, or (Linux) the process is a zombie that the
 * container's init has not reaped yet; a zombie has exited and holds no resources but its table entry.
 */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Polls `isGone(pid)` for up to two seconds. */
export async function waitGone(pid: number): Promise<boolean> {
  if (!Number.isSafeInteger(pid) || pid <= 1) throw new Error(`not a process id: ${pid}`);
  for (let i = 0; i < 40; i++) {
    if (isGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return isGone(pid);
}
