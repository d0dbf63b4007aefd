import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cli, rawInPty, tempDir } from "./helpers.js";

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
  it("keeps the interaction request and its answer in the SQLite state file", async () => {
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

  it("a state file that is not a database: a coded error, exit 1, no stack, the file unchanged", async () => {
    const dir = tempDir();
    const state = join(dir, "state.db");
    writeFileSync(state, "hello, not sqlite\n".repeat(100));
    const run = await cli(["call", "ask_user", "--state", state, "--args", JSON.stringify(QUESTION)]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "raw: interaction_store_corrupt: the database file is not a valid interaction database\n",
    );
  });
});

describe("raw panel render with several files (panels.md §14.3)", () => {
  it("renders each document as a panel, selects by path or name, and reports an unknown panel", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "build.json"), '{"blocks":[{"id":"p","kind":"progress","value":1,"max":4}]}');
    writeFileSync(
      join(dir, "todo.json"),
      '{"title":"Todo","blocks":[{"id":"m","kind":"markdown","text":"hi"}]}',
    );
    const both = await cli(["panel", "render", "build.json", "todo.json"], { cwd: dir });
    expect(both.status).toBe(0);
    expect(both.stdout).toBe("build\nProgress 25%\n\nTodo\nhi\n");
    expect(
      (await cli(["panel", "render", "build.json", "todo.json", "--select", "todo"], { cwd: dir })).stdout,
    ).toBe("Todo\nhi\n");
    expect(
      (await cli(["panel", "render", "build.json", "todo.json", "--select", "build.json"], { cwd: dir }))
        .stdout,
    ).toBe("build\nProgress 25%\n");
    const unknown = await cli(["panel", "render", "build.json", "--select", "nope"], { cwd: dir });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe("raw: panel_unknown: unknown panel nope\n");
  });
});
