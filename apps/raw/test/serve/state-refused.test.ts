// `--state <file>` never falls back to memory: a state file that is not a Raw interaction database, one from a newer
// schema, or a machine without better-sqlite3 stops `raw call` and `raw serve` with a coded error and exit 1, and
// leaves every byte of the file (and its folder) as it was.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { appRoot, bin, tempDir } from "../cli/helpers.js";

const SQLITE_APPLICATION_ID = 0x52415731;
const noSqlite = fileURLToPath(new URL("./no-better-sqlite3.mjs", import.meta.url));
const ASK = JSON.stringify({ questions: [{ id: "why", label: "Why?", kind: "text" }] });

/** The two commands that take `--state`: a one-shot call and the web page (which would otherwise serve forever). */
const COMMANDS: ReadonlyArray<readonly [string, (state: string, cwd: string) => string[]]> = [
  ["raw call", (state) => ["call", "ask_user", "--args", ASK, "--state", state]],
  ["raw serve", (state, cwd) => ["serve", "--cwd", cwd, "--state", state]],
];

/** Runs the built binary (never a terminal), with extra node flags; at most 20 s (serve must exit by itself). */
function run(args: string[], nodeFlags: string[] = []) {
  const out = spawnSync(process.execPath, [...nodeFlags, bin, ...args], {
    cwd: appRoot,
    input: "",
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr, signal: out.signal };
}

/** The folder's files and their bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = readFileSync(join(dir, name)).toString("base64");
  return out;
}

const FILES: ReadonlyArray<readonly [string, (path: string) => void, string]> = [
  [
    "a file that is not a database",
    (path) => writeFileSync(path, "hello, not sqlite\n".repeat(100)),
    "raw: interaction_store_corrupt: the database file is not a valid interaction database\n",
  ],
  [
    "another application's SQLite database",
    (path) => {
      const db = new Database(path);
      db.exec(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep me')",
      );
      db.close();
    },
    "raw: interaction_store_foreign: the database file belongs to another application\n",
  ],
  [
    "a Raw database from a newer schema version",
    (path) => {
      const db = new Database(path);
      db.pragma(`application_id = ${SQLITE_APPLICATION_ID}`);
      db.pragma("user_version = 99");
      db.exec("CREATE TABLE raw_future (x TEXT)");
      db.close();
    },
    "raw: interaction_store_schema_newer: schema version 99 is newer than 1; upgrade @raw/store-sqlite\n",
  ],
];

describe.each(COMMANDS)("%s --state <file> never falls back to memory", (_name, argsOf) => {
  it.each(FILES)("%s: a coded error, exit 1, no stack, every byte unchanged", (_what, make, stderr) => {
    const dir = tempDir("raw-state-refused-");
    const cwd = tempDir("raw-state-cwd-");
    const state = join(dir, "state.db");
    make(state);
    const before = snapshot(dir);
    const result = run(argsOf(state, cwd));
    expect(result.signal).toBeNull();
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(stderr);
    expect(result.stdout).not.toContain("http://");
    expect(snapshot(dir)).toEqual(before);
  });

  it("better-sqlite3 not installed: state_unavailable, exit 1, no file created", () => {
    const dir = tempDir("raw-state-refused-");
    const cwd = tempDir("raw-state-cwd-");
    const state = join(dir, "state.db");
    const result = run(argsOf(state, cwd), ["--import", noSqlite]);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "raw: state_unavailable: --state needs the better-sqlite3 package; install it next to the CLI: npm install better-sqlite3@12\n",
    );
    expect(result.stdout).not.toContain("http://");
    expect(readdirSync(dir)).toEqual([]);
  });
});
