import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { parsePanelDeclarations } from "@raw/panel";
import { createPanelHost } from "@raw/panel/host";
import type { ToolHandlerContext } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import { handler } from "../src/write-file/index.js";
import { WRITE_FILE_MANIFEST } from "../src/write-file/manifest.js";
import { operationErrorCode } from "../src/write-file/operations.js";
import { contextFor, rowsOf, scriptedSignal, tempDir } from "./helpers.js";

const sha = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

describe("operations: overwrite and append", () => {
  it("overwrite creates missing parents, writes UTF-8 and reports its byte length", async () => {
    const dir = tempDir();
    const result = await handler(
      {
        operations: [
          { path: "a/b/c.txt", mode: "overwrite", content: "héllo" },
          { path: "./empty.txt", mode: "overwrite", content: "" },
        ],
      },
      contextFor(dir),
    );
    expect(result.isError).toBe(false);
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "a/b/c.txt", mode: "overwrite", status: "ok", bytes_written: 6 },
      { index: 1, path: "./empty.txt", mode: "overwrite", status: "ok", bytes_written: 0 },
    ]);
    expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("héllo");
    expect(readFileSync(join(dir, "empty.txt"), "utf8")).toBe("");
  });

  it("overwrite replaces existing content and follows symbolic links in place", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "target.txt"), "old content");
    symlinkSync("target.txt", join(dir, "link.txt"));
    const result = await handler(
      { operations: [{ path: "link.txt", mode: "overwrite", content: "new" }] },
      contextFor(dir),
    );
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "link.txt", mode: "overwrite", status: "ok", bytes_written: 3 },
    ]);
    expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, "link.txt"))).toBe("target.txt");
    expect(readFileSync(join(dir, "target.txt"), "utf8")).toBe("new");
  });

  it("append creates the file and its parents, then appends", async () => {
    const dir = tempDir();
    const ops = [
      { path: "log/x.log", mode: "append", content: "one\n" },
      { path: join(dir, "log/x.log"), mode: "append", content: "twö\n" },
    ] as const;
    const result = await handler({ operations: ops }, contextFor(dir));
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "log/x.log", mode: "append", status: "ok", bytes_written: 4 },
      { index: 1, path: join(dir, "log/x.log"), mode: "append", status: "ok", bytes_written: 5 },
    ]);
    expect(readFileSync(join(dir, "log/x.log"), "utf8")).toBe("one\ntwö\n");
  });
});

describe("operations: replace_text", () => {
  it("replaces the single occurrence and reports the UTF-8 length of new_text", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "alpha beta gamma");
    const result = await handler(
      { operations: [{ path: "f.txt", mode: "replace_text", old_text: "beta", new_text: "βeta" }] },
      contextFor(dir),
    );
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "f.txt", mode: "replace_text", status: "ok", bytes_written: 5 },
    ]);
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("alpha βeta gamma");
  });

  it("an empty new_text deletes the occurrence", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "keep DROP keep");
    const result = await handler(
      { operations: [{ path: "f.txt", mode: "replace_text", old_text: " DROP", new_text: "" }] },
      contextFor(dir),
    );
    expect(rowsOf(result)[0]).toMatchObject({ status: "ok", bytes_written: 0 });
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("keep keep");
  });

  it("text_not_found, and text_not_unique counting overlapping occurrences", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "aaa");
    const result = await handler(
      {
        operations: [
          { path: "f.txt", mode: "replace_text", old_text: "b", new_text: "x" },
          { path: "f.txt", mode: "replace_text", old_text: "aa", new_text: "x" },
        ],
      },
      contextFor(dir),
    );
    expect(result.isError).toBe(true);
    expect(result.code).toBe("text_not_found");
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "f.txt", mode: "replace_text", status: "error", error: "text_not_found" },
      { index: 1, path: "f.txt", mode: "replace_text", status: "error", error: "text_not_unique" },
    ]);
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("aaa");
  });

  it("matches bytes exactly (CRLF is not LF)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "a\r\nb");
    const result = await handler(
      { operations: [{ path: "f.txt", mode: "replace_text", old_text: "a\nb", new_text: "x" }] },
      contextFor(dir),
    );
    expect(rowsOf(result)[0]).toMatchObject({ status: "error", error: "text_not_found" });
  });
});

describe("operations: replace_lines", () => {
  const op = (start: number, end: number, content: string, selected: string | Buffer) => ({
    path: "f.txt",
    mode: "replace_lines" as const,
    start_line: start,
    end_line: end,
    content,
    expected_sha256: sha(selected),
  });

  it("replaces lines with their terminators; a content without LF gets the selection's LF", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "one\ntwo\nthree\n");
    const result = await handler({ operations: [op(2, 2, "TWO", "two\n")] }, contextFor(dir));
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "f.txt", mode: "replace_lines", status: "ok", bytes_written: 4 },
    ]);
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("one\nTWO\nthree\n");
  });

  it("keeps CRLF: the selection's own terminator is appended", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "one\r\ntwo\r\nthree\r\n");
    const result = await handler({ operations: [op(1, 2, "uno", "one\r\ntwo\r\n")] }, contextFor(dir));
    expect(rowsOf(result)[0]).toMatchObject({ status: "ok", bytes_written: 5 });
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("uno\r\nthree\r\n");
  });

  it("a content ending with LF gets no terminator; the last line may have none", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "one\ntwo");
    const result = await handler(
      { operations: [op(1, 1, "ONE\n", "one\n"), op(2, 2, "TWO", "two")] },
      contextFor(dir),
    );
    expect(rowsOf(result).map((row) => row.bytes_written)).toEqual([4, 3]);
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("ONE\nTWO");
  });

  it("the hash covers a leading BOM; the BOM is kept in front of a replacement at byte 0", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "\uFEFFfirst\nsecond\n");
    const bad = await handler({ operations: [op(1, 1, "x", "first\n")] }, contextFor(dir));
    expect(rowsOf(bad)[0]).toMatchObject({ status: "error", error: "guard_mismatch" });
    const good = await handler({ operations: [op(1, 1, "FIRST", "\uFEFFfirst\n")] }, contextFor(dir));
    expect(rowsOf(good)[0]).toMatchObject({ status: "ok", bytes_written: 9 });
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("\uFEFFFIRST\nsecond\n");
  });

  it("empty content deletes the lines", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "a\nb\nc\n");
    const result = await handler({ operations: [op(2, 3, "", "b\nc\n")] }, contextFor(dir));
    expect(rowsOf(result)[0]).toMatchObject({ status: "ok", bytes_written: 0 });
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("a\n");
  });

  it("line_out_of_range past the last line and on an empty file; guard_mismatch on a stale hash", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), "a\nb\n");
    writeFileSync(join(dir, "empty.txt"), "");
    const result = await handler(
      {
        operations: [
          op(2, 3, "x", "b\n"),
          { ...op(1, 1, "x", ""), path: "empty.txt" },
          op(1, 1, "x", "stale\n"),
        ],
      },
      contextFor(dir),
    );
    expect(rowsOf(result).map((row) => row.error)).toEqual([
      "line_out_of_range",
      "line_out_of_range",
      "guard_mismatch",
    ]);
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("a\nb\n");
  });
});

describe("operations: errors, independence, abort, budget", () => {
  it("OS error codes become the row error; failures do not stop later operations", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "folder"));
    writeFileSync(join(dir, "file"), "x");
    const result = await handler(
      {
        operations: [
          { path: "missing.txt", mode: "replace_text", old_text: "a", new_text: "b" },
          { path: "folder", mode: "overwrite", content: "x" },
          { path: "file/child.txt", mode: "overwrite", content: "x" },
          { path: "ok.txt", mode: "overwrite", content: "fine" },
        ],
      },
      contextFor(dir),
    );
    expect(result.isError).toBe(true);
    expect(result.code).toBe("ENOENT");
    const rows = rowsOf(result);
    expect(rows[0]).toEqual({
      index: 0,
      path: "missing.txt",
      mode: "replace_text",
      status: "error",
      error: "ENOENT",
    });
    expect(rows[1]).toEqual({
      index: 1,
      path: "folder",
      mode: "overwrite",
      status: "error",
      // Amendment A3: a directory is not a regular file (was the OS code EISDIR).
      error: "not_regular_file",
    });
    expect(rows[2]).toMatchObject({ status: "error" });
    expect(String(rows[2]?.error)).toMatch(/^(ENOTDIR|EEXIST)$/);
    expect(rows[3]).toEqual({ index: 3, path: "ok.txt", mode: "overwrite", status: "ok", bytes_written: 4 });
    expect(readFileSync(join(dir, "ok.txt"), "utf8")).toBe("fine");
  });

  it("an error code that is not letters, digits and underscores is write_error", () => {
    expect(operationErrorCode(Object.assign(new Error("x"), { code: "ERR-BAD" }))).toBe("write_error");
    expect(operationErrorCode(new Error("no code"))).toBe("write_error");
    expect(operationErrorCode(Object.assign(new Error("x"), { code: "EACCES" }))).toBe("EACCES");
  });

  it("an abort before an operation skips it and every later one", async () => {
    const dir = tempDir();
    const before = await handler(
      { operations: [{ path: "a.txt", mode: "overwrite", content: "a" }] },
      contextFor(dir, { signal: AbortSignal.abort() }),
    );
    expect(before.isError).toBe(true);
    expect(before.code).toBe("aborted");
    expect(rowsOf(before)).toEqual([
      { index: 0, path: "a.txt", mode: "overwrite", status: "skipped", error: "aborted" },
    ]);
    expect(readdirSync(dir)).toEqual([]);

    const midway = await handler(
      {
        operations: [
          { path: "a.txt", mode: "overwrite", content: "a" },
          { path: "b.txt", mode: "overwrite", content: "b" },
          { path: "c.txt", mode: "overwrite", content: "c" },
        ],
      },
      // Reads: 1 before operation 0, 2 before it truncates, 3 before its one chunk; 4 before operation 1.
      contextFor(dir, { signal: scriptedSignal((read) => read >= 4) }),
    );
    expect(rowsOf(midway).map((row) => [row.status, row.error])).toEqual([
      ["ok", undefined],
      ["skipped", "aborted"],
      ["skipped", "aborted"],
    ]);
    expect(readdirSync(dir)).toEqual(["a.txt"]);
  });

  it("checks the worst-case rows against the output budget first: too small touches nothing", async () => {
    const dir = tempDir();
    const operations = [
      { path: "a.txt", mode: "overwrite", content: "a" },
      { path: "b.txt", mode: "append", content: "b" },
    ] as const;
    const worst = JSON.stringify({
      results: operations.map((op, index) => ({
        index,
        path: op.path,
        mode: op.mode,
        status: "error",
        error: "x".repeat(120),
      })),
    });
    const fits = Buffer.byteLength(worst);
    const tooSmall = await handler({ operations }, contextFor(dir, { maxOutputBytes: fits - 1 }));
    expect(tooSmall).toEqual({
      isError: true,
      code: "output_budget_too_small",
      content: [{ type: "text", text: "write batch outcomes exceed output budget" }],
    });
    expect(readdirSync(dir)).toEqual([]);
    const exact = await handler({ operations }, contextFor(dir, { maxOutputBytes: fits }));
    expect(exact.isError).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt"]);
  });
});

describe("operations: the files_changed panel", () => {
  function panelContext(cwd: string): { context: ToolHandlerContext; settle: () => unknown } {
    const parsed = parsePanelDeclarations(WRITE_FILE_MANIFEST.panels);
    if (!parsed.ok) throw new Error("bad declarations");
    const host = createPanelHost();
    const call = host.beginCall({
      owner: "builtin/write_file",
      declarations: parsed.declarations,
      toolCallId: "c1",
    });
    return {
      context: contextFor(cwd, { panels: call.context as never }),
      settle: () => call.context.get("files_changed"),
    };
  }

  it("publishes the changed files (added or modified) and keeps the file-system outcome", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "old.txt"), "x");
    const { context, settle } = panelContext(dir);
    const result = await handler(
      {
        operations: [
          { path: "old.txt", mode: "append", content: "y" },
          { path: "sub/new.txt", mode: "overwrite", content: "z" },
          { path: "missing.txt", mode: "replace_text", old_text: "a", new_text: "b" },
        ],
      },
      context,
    );
    expect(rowsOf(result).map((row) => row.status)).toEqual(["ok", "ok", "error"]);
    expect(settle()).toMatchObject({
      revision: 1,
      document: {
        blocks: [
          {
            id: "files",
            kind: "files",
            entries: [
              { path: "old.txt", status: "modified" },
              { path: "sub/new.txt", status: "added" },
            ],
          },
        ],
      },
    });
  });

  it("a publish failure never changes the outcome", async () => {
    const dir = tempDir();
    const panels = {
      protocol: 2 as const,
      get: () => undefined,
      update: async () => {
        throw Object.assign(new Error("panel_limit: full"), { code: "panel_limit" });
      },
    };
    const result = await handler(
      { operations: [{ path: "a.txt", mode: "overwrite", content: "a" }] },
      contextFor(dir, { panels }),
    );
    expect(result).toEqual({
      isError: false,
      content: [
        {
          type: "json",
          value: {
            results: [{ index: 0, path: "a.txt", mode: "overwrite", status: "ok", bytes_written: 1 }],
          },
        },
      ],
    });
  });
});
