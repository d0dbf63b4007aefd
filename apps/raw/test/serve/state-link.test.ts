/**
 * Issue 23 (item 3), amendment A10 "Refused means untouched": the state file of `raw serve --state` holds the page
 * token, so it and its SQLite companions (`-wal`, `-shm`) are mode 0600 whatever the path points to. A path that is a
 * symbolic link to a file that does not exist yet is refused with a coded error before anything is created; a link
 * to an existing file is followed to that file, and the file and the companions SQLite creates next to it are 0600.
 * Runs the built CLI for real.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bin, tempDir } from "../cli/helpers.js";

/** How `raw serve` ended (or `url` when it served and was stopped), within a bounded wait. */
interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The modes of the state files seen while the page was served (before the stop). */
  modes: Record<string, number>;
}

/**
 * Runs `raw serve --state <state>` until it exits by itself or prints its address (at most 20 s); once it serves,
 * records the modes of `files` and stops it.
 */
function serve(cwd: string, state: string, files: readonly string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "serve", "--cwd", cwd, "--state", state], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const modes: Record<string, number> = {};
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`raw serve neither served nor exited: ${stdout}${stderr}`));
    }, 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/open http:\/\/\S+/u.test(stdout) && Object.keys(modes).length === 0) {
        for (const file of files) {
          const info = statSync(file, { throwIfNoEntry: false });
          if (info !== undefined) modes[file] = info.mode & 0o777;
        }
        child.kill("SIGINT");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, modes });
    });
  });
}

describe("raw serve --state through a symbolic link", () => {
  it("a link to a file that does not exist yet: refused with a code, the path named, nothing created", async () => {
    const dir = tempDir("raw-state-link-");
    const cwd = tempDir("raw-state-cwd-");
    const target = join(dir, "state.db");
    const link = join(dir, "link.db");
    symlinkSync(target, link);

    const run = await serve(cwd, link, [target, `${target}-wal`]);
    expect(run.modes, "raw serve served through the dangling link").toEqual({});
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `raw: interaction_store_unsafe: ${link} is a symbolic link to a file that does not exist yet; ` +
        "create the file first or give its own path\n",
    );
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir)).toEqual(["link.db"]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("a link to an existing file: the file and its -wal are 0600 while the page is served", async () => {
    const dir = tempDir("raw-state-link-");
    const cwd = tempDir("raw-state-cwd-");
    const target = join(dir, "state.db");
    // An empty file is an empty SQLite database; created with the usual umask mode.
    writeFileSync(target, "", { mode: 0o644 });
    const link = join(dir, "link.db");
    symlinkSync(target, link);

    const run = await serve(cwd, link, [target, `${target}-wal`, `${target}-shm`]);
    expect(run.stderr).toBe("");
    expect(run.modes[target]).toBe(0o600);
    expect(run.modes[`${target}-wal`]).toBe(0o600);
    // Exclusive locking mode keeps the WAL index in memory: no -shm; any that exists is 0600.
    for (const mode of Object.values(run.modes)) expect(mode).toBe(0o600);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});
