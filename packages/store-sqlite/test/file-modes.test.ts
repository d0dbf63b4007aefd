/**
 * Issue 23 (item 3), amendment A10 "Refused means untouched": a state file (and its `-wal`/`-shm` companions) may hold
 * a host's secrets, so the store creates and keeps them mode 0600 whatever the path points to, and never writes
 * through a path it refuses: a link to a file that does not exist yet, another user's file, a companion that is a
 * link. Real links and a real foreign-owned file (the tests run as root and give the file to `nobody`).
 */
import {
  chownSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isContractError } from "@raw/schema";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteInteractionStore, STATE_FILE_MODE } from "../src/index.js";

const base = mkdtempSync(join(tmpdir(), "raw-sqlite-modes-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const folder = () => mkdtempSync(join(base, `case-${n++}-`));

function codeOf(run: () => unknown): string {
  try {
    const store = run() as { close?: () => void } | undefined;
    store?.close?.();
  } catch (error) {
    return isContractError(error) ? error.message : `raw error: ${String(error)}`;
  }
  return "no error";
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("state file modes", () => {
  it("STATE_FILE_MODE is 0600", () => {
    expect(STATE_FILE_MODE).toBe(0o600);
  });

  it("a new file, its -wal and its -shm are 0600 even under umask 0", () => {
    const dir = folder();
    const path = join(dir, "state.db");
    const previous = process.umask(0);
    try {
      const store = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
      store.savePanels("s", { x: 1 });
      expect(mode(path)).toBe(0o600);
      expect(mode(`${path}-wal`)).toBe(0o600);
      expect(mode(`${path}-shm`)).toBe(0o600);
      store.close();
    } finally {
      process.umask(previous);
    }
  });

  it("a link to a file that does not exist yet: interaction_store_unsafe, nothing created", () => {
    const dir = folder();
    const link = join(dir, "link.db");
    symlinkSync(join(dir, "state.db"), link);
    expect(codeOf(() => openSqliteInteractionStore({ path: link, sweepIntervalMs: 0 }))).toBe(
      `interaction_store_unsafe: ${link} is a symbolic link to a file that does not exist yet; ` +
        "create the file first or give its own path",
    );
    expect(readdirSync(dir)).toEqual(["link.db"]);
  });

  it("a link to an existing 0644 file: the file and the companions made next to it are 0600", () => {
    const dir = folder();
    const target = join(dir, "state.db");
    writeFileSync(target, "", { mode: 0o644 });
    const link = join(dir, "link.db");
    symlinkSync(target, link);
    const store = openSqliteInteractionStore({ path: link, sweepIntervalMs: 0 });
    store.savePanels("s", { x: 1 });
    expect(mode(target)).toBe(0o600);
    expect(mode(`${target}-wal`)).toBe(0o600);
    expect(mode(`${target}-shm`)).toBe(0o600);
    store.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("a 0644 companion left by an earlier run is restricted to 0600 when the store opens", () => {
    const dir = folder();
    const path = join(dir, "state.db");
    const first = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    first.savePanels("s", { x: 1 });
    first.close();
    writeFileSync(path, readFileSync(path), { mode: 0o644 });
    writeFileSync(`${path}-wal`, "", { mode: 0o644 });
    const store = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    expect(mode(path)).toBe(0o600);
    expect(mode(`${path}-wal`)).toBe(0o600);
    expect(store.loadPanels("s")).toEqual({ x: 1 });
    store.close();
  });

  it("another user's state file: interaction_store_unsafe, its bytes and owner unchanged", () => {
    const dir = folder();
    const path = join(dir, "state.db");
    openSqliteInteractionStore({ path, sweepIntervalMs: 0 }).close();
    chownSync(path, 65_534, 65_534);
    const bytes = readFileSync(path);
    expect(codeOf(() => openSqliteInteractionStore({ path, sweepIntervalMs: 0 }))).toBe(
      `interaction_store_unsafe: ${path} is owned by uid 65534, not by this user`,
    );
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(statSync(path).uid).toBe(65_534);
    expect(readdirSync(dir)).toEqual(["state.db"]);
  });

  it("a -wal companion that is a link to a victim: interaction_store_unsafe, the victim untouched", () => {
    const dir = folder();
    const path = join(dir, "state.db");
    openSqliteInteractionStore({ path, sweepIntervalMs: 0 }).close();
    const victim = join(folder(), "victim.txt");
    writeFileSync(victim, "precious\n", { mode: 0o644 });
    symlinkSync(victim, `${path}-wal`);
    expect(codeOf(() => openSqliteInteractionStore({ path, sweepIntervalMs: 0 }))).toBe(
      `interaction_store_unsafe: ${path}-wal is a symbolic link`,
    );
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(mode(victim)).toBe(0o644);
    expect(existsSync(`${path}-shm`)).toBe(false);
  });
});
