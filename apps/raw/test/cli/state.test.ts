import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { raw, rawInPty, tempDir } from "./helpers.js";

const QUESTION = {
  title: "Setup",
  questions: [
    {
      id: "env",
      label: "Which environment?",
      kind: "single_select",
      required: true,
      options: [
        { id: "staging", label: "Staging" },
        { id: "prod", label: "Production" },
      ],
    },
  ],
};

describe("raw call --state <file>", () => {
  it("keeps the interaction request and its answer in the SQLite state file", () => {
    const dir = tempDir();
    const state = join(dir, "state.db");
    const run = rawInPty(
      ["call", "ask_user", "--state", state, "--args", JSON.stringify(QUESTION)],
      [["> ", "prod\r"]],
    );
    expect(run.status, run.stdout).toBe(0);
    const db = new Database(state, { readonly: true });
    const rows = db.prepare("SELECT state, revision, canonical_result FROM raw_interactions").all();
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
    expect(rows).toEqual([
      { state: "answered", revision: 2, canonical_result: '{"status":"answered","answers":{"env":"prod"}}' },
    ]);
  });

  it("a state file that is not a database: a coded error, exit 1, no stack, the file unchanged", () => {
    const dir = tempDir();
    const state = join(dir, "state.db");
    writeFileSync(state, "hello, not sqlite\n".repeat(100));
    const run = raw(["call", "ask_user", "--state", state, "--args", JSON.stringify(QUESTION)]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "raw: interaction_store_corrupt: the database file is not a valid interaction database\n",
    );
  });
});
