import { mkdtempSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** The entry script of an npm-installed MCP server package. */
export function serverEntry(
  pkg: "@modelcontextprotocol/server-filesystem" | "@modelcontextprotocol/server-everything",
): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), "dist", "index.js");
}

/** A fresh real temporary folder (symlinks resolved, as the filesystem server reports paths). */
export function tempDir(prefix = "raw-mcp-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** A fixture file of this package's tests. */
export function fixture(name: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), "fixtures", name);
}

/** True while a process with `pid` exists (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const { readFileSync } = require("node:fs") as typeof import("node:fs");
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
