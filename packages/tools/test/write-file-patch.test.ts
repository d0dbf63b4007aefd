import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { MAX_SOURCE_BYTES } from "@raw/effects";
import { describe, expect, it } from "vitest";
import { handler } from "../src/write-file/index.js";
import { patchCode } from "../src/write-file/patch-fs.js";
import { contextFor, rowsOf, scriptedSignal, tempDir, textOf } from "./helpers.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const read = (path: string) => readFileSync(path, "utf8");
const mode = (path: string) => statSync(path).mode & 0o7777;

/** Every entry of `dir` (recursively), with `/` after directories: what a failed patch must leave unchanged. */
function tree(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(`${rel}/`, ...tree(dir, rel));
    else out.push(`${rel}=${entry.isSymbolicLink() ? "link" : read(join(dir, rel))}`);
  }
  return out;
}

async function preflightFailure(dir: string, text: string): Promise<string> {
  const before = tree(dir);
  const result = await handler({ patch: text }, contextFor(dir));
  expect(result.isError).toBe(true);
  expect(result.code).toBe("patch_preflight_failed");
  expect(tree(dir)).toEqual(before);
  return textOf(result);
}

describe("patch: the spec examples", () => {
  it("§7.8: Add nested, Update with Move, Delete", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "old"), "before\n");
    writeFileSync(join(dir, "remove"), "bye\n");
    const text = patch(
      "*** Add File: nested/new",
      "+héllo",
      "*** Update File: old",
      "*** Move to: moved",
      "@@",
      "-before",
      "+after",
      "*** Delete File: remove",
    );
    const result = await handler({ patch: text }, contextFor(dir));
    expect(result.isError).toBe(false);
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "nested/new", mode: "patch", status: "ok", bytes_written: 7 },
      { index: 1, path: "old", mode: "patch", status: "ok", destination: "moved", bytes_written: 6 },
      { index: 2, path: "remove", mode: "patch", status: "ok", bytes_written: 0 },
    ]);
    expect(tree(dir)).toEqual(["moved=after\n", "nested/", "nested/new=héllo\n"]);
  });

  it("§8.3.2: BOM, CRLF and mode 0751 survive an update", async () => {
    const dir = tempDir();
    const file = join(dir, "script");
    writeFileSync(file, "\uFEFFone\r\ntwo\r\nlast");
    chmodSync(file, 0o751);
    const text = patch(
      "*** Update File: script",
      "@@",
      " one",
      "-two",
      "+new",
      "+extra",
      " last",
      "*** End of File",
    );
    const result = await handler({ patch: text }, contextFor(dir));
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "script", mode: "patch", status: "ok", bytes_written: 24 },
    ]);
    expect(read(file)).toBe("\uFEFFone\r\nnew\r\nextra\r\nlast");
    expect(mode(file)).toBe(0o751);
    expect(readdirSync(dir)).toEqual(["script"]);
  });

  it("§8.3.2: an anchored hunk only matches the occurrence ending at the last line", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f"), "same\nother\nsame\n");
    const result = await handler(
      { patch: patch("*** Update File: f", "@@", "-same", "+last", "*** End of File") },
      contextFor(dir),
    );
    expect(result.isError).toBe(false);
    expect(read(join(dir, "f"))).toBe("same\nother\nlast\n");
  });

  it("Add contents: no lines is an empty file; the no-newline marker drops the final newline", async () => {
    const dir = tempDir();
    const text = patch("*** Add File: empty", "*** Add File: bare", "+x", "*** No newline at end of file");
    const result = await handler({ patch: text }, contextFor(dir));
    expect(rowsOf(result).map((row) => row.bytes_written)).toEqual([0, 1]);
    expect(read(join(dir, "empty"))).toBe("");
    expect(read(join(dir, "bare"))).toBe("x");
  });

  it("a moved file keeps its mode; an insertion-only hunk fills an empty file (no final LF: the source had none)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.sh"), "echo a\n");
    chmodSync(join(dir, "a.sh"), 0o700);
    writeFileSync(join(dir, "empty"), "");
    const text = patch(
      "*** Update File: a.sh",
      "*** Move to: bin/b.sh",
      "@@",
      "-echo a",
      "+echo b",
      "*** Update File: empty",
      "@@",
      "+first",
    );
    const result = await handler({ patch: text }, contextFor(dir));
    expect(result.isError).toBe(false);
    expect(read(join(dir, "bin/b.sh"))).toBe("echo b\n");
    expect(mode(join(dir, "bin/b.sh"))).toBe(0o700);
    expect(existsSync(join(dir, "a.sh"))).toBe(false);
    expect(read(join(dir, "empty"))).toBe("first");
  });
});

describe("patch: handler codes before preflight", () => {
  it("invalid_patch with the parser code of the resolved-mode re-parse", async () => {
    const dir = tempDir();
    const repeated = await handler(
      { patch: patch("*** Add File: a", "+x", "*** Delete File: ./a") },
      contextFor(dir),
    );
    expect(repeated).toEqual({
      isError: true,
      code: "invalid_patch",
      content: [{ type: "text", text: "patch_repeated_target" }],
    });
    const envelope = await handler({ patch: "*** Begin Patch\n" }, contextFor(dir));
    expect(textOf(envelope)).toBe("patch_invalid_envelope");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("output_budget_too_small from the worst-case rows: nothing is touched", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "src"), "a\n");
    const text = patch(
      "*** Add File: new",
      "+x",
      "*** Update File: src",
      "*** Move to: dst",
      "@@",
      "-a",
      "+b",
    );
    const worst = JSON.stringify({
      results: [
        {
          index: 0,
          path: "new",
          mode: "patch",
          status: "skipped",
          error: "x".repeat(120),
          bytes_written: 999999999,
          destination_created: true,
        },
        {
          index: 1,
          path: "src",
          mode: "patch",
          status: "skipped",
          destination: "dst",
          error: "x".repeat(120),
          bytes_written: 999999999,
          destination_created: true,
        },
      ],
    });
    const fits = Buffer.byteLength(worst);
    const tooSmall = await handler({ patch: text }, contextFor(dir, { maxOutputBytes: fits - 1 }));
    expect(tooSmall).toEqual({
      isError: true,
      code: "output_budget_too_small",
      content: [{ type: "text", text: "patch outcomes exceed output budget" }],
    });
    expect(tree(dir)).toEqual(["src=a\n"]);
    const exact = await handler({ patch: text }, contextFor(dir, { maxOutputBytes: fits }));
    expect(exact.isError).toBe(false);
    expect(tree(dir)).toEqual(["dst=b\n", "new=x\n"]);
  });

  it("an abort before the start skips every change and reads nothing", async () => {
    const dir = tempDir();
    const text = patch(
      "*** Add File: a",
      "+x",
      "*** Update File: missing",
      "*** Move to: b",
      "@@",
      "-x",
      "+y",
    );
    const result = await handler({ patch: text }, contextFor(dir, { signal: AbortSignal.abort() }));
    expect(result.isError).toBe(true);
    expect(result.code).toBe("aborted");
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "a", mode: "patch", status: "skipped", error: "aborted" },
      { index: 1, path: "missing", mode: "patch", status: "skipped", destination: "b", error: "aborted" },
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("patch: preflight, before any write", () => {
  it("a context failure in the second file leaves the first untouched", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "first"), "one\n");
    writeFileSync(join(dir, "second"), "two\n");
    const text = patch(
      "*** Update File: first",
      "@@",
      "-one",
      "+ONE",
      "*** Add File: third",
      "+3",
      "*** Update File: second",
      "@@",
      "-nope",
      "+NOPE",
    );
    expect(await preflightFailure(dir, text)).toBe("patch_context_not_found");
    expect(read(join(dir, "first"))).toBe("one\n");
  });

  it("patch_ambiguous_context and patch_unanchored_insertion", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f"), "x\ny\nx\n");
    expect(await preflightFailure(dir, patch("*** Update File: f", "@@", "-x", "+z"))).toBe(
      "patch_ambiguous_context",
    );
    expect(await preflightFailure(dir, patch("*** Update File: f", "@@", "+z"))).toBe(
      "patch_unanchored_insertion",
    );
  });

  it("symbolic links: an ancestor, an Update source, a Delete source", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real/file"), "x\n");
    symlinkSync("real", join(dir, "alias"));
    symlinkSync("real/file", join(dir, "file-link"));
    expect(await preflightFailure(dir, patch("*** Add File: alias/new", "+x"))).toBe("patch_symlink_path");
    expect(await preflightFailure(dir, patch("*** Add File: alias/deeper/new", "+x"))).toBe(
      "patch_symlink_path",
    );
    expect(await preflightFailure(dir, patch("*** Update File: file-link", "@@", "-x", "+y"))).toBe(
      "patch_symlink_path",
    );
    expect(await preflightFailure(dir, patch("*** Delete File: file-link"))).toBe("patch_symlink_path");
    expect(
      await preflightFailure(
        dir,
        patch("*** Update File: real/file", "*** Move to: alias/moved", "@@", "-x", "+y"),
      ),
    ).toBe("patch_symlink_path");
  });

  it("patch_parent_not_directory, patch_not_regular_file and a missing source's OS code", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "plain"), "x\n");
    mkdirSync(join(dir, "folder"));
    expect(await preflightFailure(dir, patch("*** Add File: plain/child", "+x"))).toBe(
      "patch_parent_not_directory",
    );
    expect(await preflightFailure(dir, patch("*** Update File: folder", "@@", "-x", "+y"))).toBe(
      "patch_not_regular_file",
    );
    expect(await preflightFailure(dir, patch("*** Delete File: absent"))).toBe("ENOENT");
  });

  it("patch_destination_exists: an Add target, a dangling link, a Move destination", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "taken"), "x\n");
    symlinkSync("nowhere", join(dir, "dangling"));
    expect(await preflightFailure(dir, patch("*** Add File: taken", "+y"))).toBe("patch_destination_exists");
    expect(await preflightFailure(dir, patch("*** Add File: dangling", "+y"))).toBe(
      "patch_destination_exists",
    );
    writeFileSync(join(dir, "src"), "a\n");
    expect(
      await preflightFailure(dir, patch("*** Update File: src", "*** Move to: taken", "@@", "-a", "+b")),
    ).toBe("patch_destination_exists");
  });

  it("source checks in order: size, NUL, lines, UTF-8", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "big"), "");
    truncateSync(join(dir, "big"), MAX_SOURCE_BYTES + 1);
    expect(await preflightFailure(dir, patch("*** Delete File: big"))).toBe("patch_source_too_large");
    unlinkSync(join(dir, "big"));
    writeFileSync(join(dir, "nul"), "a\u0000b\n");
    expect(await preflightFailure(dir, patch("*** Delete File: nul"))).toBe("patch_binary_source");
    writeFileSync(join(dir, "lines"), "\n".repeat(200_001));
    expect(await preflightFailure(dir, patch("*** Delete File: lines"))).toBe("patch_too_many_lines");
    writeFileSync(join(dir, "lines"), "\n".repeat(200_000));
    const ok = await handler({ patch: patch("*** Delete File: lines") }, contextFor(dir));
    expect(ok.isError).toBe(false);
    writeFileSync(join(dir, "latin1"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await preflightFailure(dir, patch("*** Update File: latin1", "@@", "-x", "+y"))).toBe(
      "patch_invalid_utf8",
    );
  });

  it("a staged content of more than 200,000 lines is patch_too_many_lines", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f"), `${"a\n".repeat(199_999)}end\n`);
    expect(await preflightFailure(dir, patch("*** Update File: f", "@@", " end", "+one", "+two"))).toBe(
      "patch_too_many_lines",
    );
  });

  it("patch_staging_too_large past 64 MiB of sources and contents", async () => {
    const dir = tempDir();
    const chunk = "a".repeat(MAX_SOURCE_BYTES);
    for (const name of ["s1", "s2", "s3", "s4"]) writeFileSync(join(dir, name), chunk);
    const text = patch(
      "*** Delete File: s1",
      "*** Delete File: s2",
      "*** Delete File: s3",
      "*** Delete File: s4",
      "*** Add File: one-more",
      "+x",
    );
    const result = await handler({ patch: text }, contextFor(dir));
    expect(result).toMatchObject({ isError: true, code: "patch_preflight_failed" });
    expect(textOf(result)).toBe("patch_staging_too_large");
    expect(readdirSync(dir).sort()).toEqual(["s1", "s2", "s3", "s4"]);
  });

  it("patch_matching_limit: 8,000,000 line visits shared by the whole patch", async () => {
    const dir = tempDir();
    const body = `${"a\n".repeat(199_999)}b\n`;
    const sections: string[] = [];
    for (let i = 0; i < 41; i++) {
      writeFileSync(join(dir, `f${i}`), body);
      sections.push(`*** Update File: f${i}`, "@@", "-b", "+c");
    }
    const result = await handler({ patch: patch(...sections) }, contextFor(dir));
    expect(result).toMatchObject({ isError: true, code: "patch_preflight_failed" });
    expect(textOf(result)).toBe("patch_matching_limit");
    expect(read(join(dir, "f0"))).toBe(body);
  });

  it("OS codes pass through when they are 1-80 letters, digits or underscores, else patch_io_error", () => {
    expect(patchCode(Object.assign(new Error("x"), { code: "EACCES" }))).toBe("EACCES");
    expect(patchCode(Object.assign(new Error("x"), { code: "E".repeat(80) }))).toBe("E".repeat(80));
    expect(patchCode(Object.assign(new Error("x"), { code: "E".repeat(81) }))).toBe("patch_io_error");
    expect(patchCode(Object.assign(new Error("x"), { code: "ERR-X" }))).toBe("patch_io_error");
    expect(patchCode(new Error("none"))).toBe("patch_io_error");
  });
});

describe("patch: application", () => {
  it("the global recheck refuses a source changed after preflight; nothing is changed", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a"), "1\n");
    writeFileSync(join(dir, "b"), "2\n");
    const text = patch("*** Update File: a", "@@", "-1", "+one", "*** Update File: b", "@@", "-2", "+two");
    // Reads: 1 before preflight; per change in preflight one before it and one per chunk read (2-3, 4-5);
    // 6 = application step 1.
    const signal = scriptedSignal((n) => {
      if (n === 6) writeFileSync(join(dir, "b"), "2\n\n");
      return false;
    });
    const result = await handler({ patch: text }, contextFor(dir, { signal }));
    expect(result).toEqual({
      isError: true,
      code: "patch_preflight_failed",
      content: [{ type: "text", text: "patch_source_changed" }],
    });
    expect(tree(dir)).toEqual(["a=1\n", "b=2\n\n"]);
  });

  it("the global recheck refuses an Add target created after preflight", async () => {
    const dir = tempDir();
    const signal = scriptedSignal((n) => {
      if (n === 3) writeFileSync(join(dir, "new"), "intruder");
      return false;
    });
    const result = await handler({ patch: patch("*** Add File: new", "+mine") }, contextFor(dir, { signal }));
    expect(textOf(result)).toBe("patch_destination_exists");
    expect(read(join(dir, "new"))).toBe("intruder");
  });

  it("a runtime failure stops later changes with prior_patch_failure; earlier ones stay", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "b"), "2\n");
    const text = patch(
      "*** Add File: a",
      "+1",
      "*** Update File: b",
      "@@",
      "-2",
      "+two",
      "*** Add File: c",
      "+3",
    );
    // Reads: 1; preflight 2 (a), 3-4 (b and its one chunk), 5 (c); 6 step 1; 7 the global recheck's chunk of
    // b; 8 before change 0; 9 its one written chunk, 10 after its temporary file; 11 before change 1.
    const signal = scriptedSignal((n) => {
      if (n === 11) unlinkSync(join(dir, "b"));
      return false;
    });
    const result = await handler({ patch: text }, contextFor(dir, { signal }));
    expect(result.isError).toBe(true);
    expect(result.code).toBe("ENOENT");
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "a", mode: "patch", status: "ok", bytes_written: 2 },
      { index: 1, path: "b", mode: "patch", status: "error", error: "ENOENT" },
      { index: 2, path: "c", mode: "patch", status: "skipped", error: "prior_patch_failure" },
    ]);
    expect(tree(dir)).toEqual(["a=1\n"]);
  });

  it("a source changed just before its own step is a patch_source_changed row", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a"), "1\n");
    // Reads: 1; 2-3 preflight (one chunk); 4 step 1; 5 the global recheck's chunk; 6 before the change.
    const signal = scriptedSignal((n) => {
      if (n === 6) writeFileSync(join(dir, "a"), "changed\n");
      return false;
    });
    const result = await handler(
      { patch: patch("*** Update File: a", "@@", "-1", "+one") },
      contextFor(dir, { signal }),
    );
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "a", mode: "patch", status: "error", error: "patch_source_changed" },
    ]);
    expect(tree(dir)).toEqual(["a=changed\n"]);
  });

  it("destination_created: a Move whose source cannot be removed after the link", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "from"), "x\n");
    // Reads: 1; 2-3 preflight (one chunk); 4 step 1; 5 the global recheck's chunk; 6 before the change; 7 its
    // recheck's chunk; 8 the temporary file's one chunk; 9 the recheck's chunk; 10 after the temporary file.
    const signal = scriptedSignal((n) => {
      if (n === 10) unlinkSync(join(dir, "from"));
      return false;
    });
    const result = await handler(
      { patch: patch("*** Update File: from", "*** Move to: to", "@@", "-x", "+y") },
      contextFor(dir, { signal }),
    );
    expect(rowsOf(result)).toEqual([
      {
        index: 0,
        path: "from",
        mode: "patch",
        status: "error",
        destination: "to",
        error: "ENOENT",
        destination_created: true,
      },
    ]);
    expect(tree(dir)).toEqual(["to=y\n"]);
  });

  it("an abort during a change's own step skips it and the rest; the temporary file is removed", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a"), "1\n");
    const text = patch("*** Update File: a", "@@", "-1", "+one", "*** Add File: b", "+2");
    // Reads: 1; 2-3 preflight of a (one chunk), 4 of b; 5 step 1; 6 the global recheck's chunk of a; 7 before
    // change 0; 8 its recheck's chunk; 9 the temporary file's one chunk; 10 the recheck's chunk; 11 after it.
    const signal = scriptedSignal((n) => n >= 11);
    const result = await handler({ patch: text }, contextFor(dir, { signal }));
    expect(result.code).toBe("aborted");
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "a", mode: "patch", status: "skipped", error: "aborted" },
      { index: 1, path: "b", mode: "patch", status: "skipped", error: "aborted" },
    ]);
    expect(tree(dir)).toEqual(["a=1\n"]);
  });

  it("Delete rows report 0 bytes; an Add gets the default mode; no temporary file is left", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "gone"), "bye\n");
    const result = await handler(
      { patch: patch("*** Delete File: gone", "*** Add File: deep/er/file", "+content") },
      contextFor(dir),
    );
    expect(rowsOf(result)).toEqual([
      { index: 0, path: "gone", mode: "patch", status: "ok", bytes_written: 0 },
      { index: 1, path: "deep/er/file", mode: "patch", status: "ok", bytes_written: 8 },
    ]);
    expect(tree(dir)).toEqual(["deep/", "deep/er/", "deep/er/file=content\n"]);
    expect(mode(join(dir, "deep/er/file")) & 0o600).toBe(0o600);
  });
});

describe("patch: the files_changed panel", () => {
  it("publishes added, modified and deleted entries, a move as both sides", async () => {
    const { parsePanelDeclarations } = await import("@raw/panel");
    const { createPanelHost } = await import("@raw/panel/host");
    const { WRITE_FILE_MANIFEST } = await import("../src/write-file/manifest.js");
    const parsed = parsePanelDeclarations(WRITE_FILE_MANIFEST.panels);
    if (!parsed.ok) throw new Error("bad declarations");
    const call = createPanelHost().beginCall({
      owner: "builtin/write_file",
      declarations: parsed.declarations,
    });
    const dir = tempDir();
    writeFileSync(join(dir, "edit"), "a\n");
    writeFileSync(join(dir, "from"), "m\n");
    writeFileSync(join(dir, "gone"), "g\n");
    const text = patch(
      "*** Add File: new",
      "+n",
      "*** Update File: edit",
      "@@",
      "-a",
      "+b",
      "*** Update File: from",
      "*** Move to: sub/to",
      "@@",
      " m",
      "*** Delete File: gone",
    );
    const result = await handler({ patch: text }, contextFor(dir, { panels: call.context as never }));
    expect(result.isError).toBe(false);
    expect(call.context.get("files_changed")?.document).toEqual({
      summary: "5 files changed",
      blocks: [
        {
          id: "files",
          kind: "files",
          entries: [
            { path: "new", status: "added" },
            { path: "edit", status: "modified" },
            { path: "from", status: "deleted", label: "moved to sub/to" },
            { path: "sub/to", status: "added", label: "moved from from" },
            { path: "gone", status: "deleted" },
          ],
        },
      ],
    });
  });
});
