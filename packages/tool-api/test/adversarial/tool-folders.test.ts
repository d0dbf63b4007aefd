/**
 * Issue 8 — hostile tool folders through `validateToolFolder` and `loadToolFolders` (tool-api.md §5.2–5.3):
 * symbolic-link loops, links out of the folder at every level, `entry` with `..`, absolute and Windows-style
 * entries, special files, a 100 MB manifest, invalid UTF-8, duplicate JSON keys. Every failure is a coded issue,
 * the validator never throws, and no escaping code is ever imported: every entry here that must not run writes a
 * marker file when it is imported, and the marker must never appear.
 */
import { execFileSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isContractError } from "@raw/schema";
import { expectNoPollution, MiB } from "@raw/test-support";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { loadToolFolders, type ToolIssue, validateToolFolder } from "../../src/index.js";

const base = mkdtempSync(join(tmpdir(), "raw-tool-api-adversarial-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let root: string;
let outside: string;
let cacheDir: string;
let marker: string;
let counter = 0;
beforeEach(() => {
  counter++;
  root = join(base, `root-${counter}`);
  outside = join(base, `outside-${counter}`);
  cacheDir = join(base, `cache-${counter}`);
  marker = join(base, `marker-${counter}`);
  mkdirSync(root, { recursive: true });
  mkdirSync(outside, { recursive: true });
});

/** An entry module that proves it was imported by writing the marker file. */
const evilEntry = (path: string) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(path)}, "imported");\n` +
  `export function handler() { return { isError: false, content: [] }; }\n`;

function manifest(id: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    api_version: 2,
    id,
    version: "1.0.0",
    name: id,
    description: "A tool under attack.",
    input_schema: { type: "object" },
    entry: "./index.mjs",
    ...patch,
  };
}

/** A tool folder whose own entry writes the marker when imported. */
function tool(id: string, patch: Record<string, unknown> = {}): string {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tool.json"), JSON.stringify(manifest(id, patch)));
  writeFileSync(join(dir, "index.mjs"), evilEntry(marker));
  return dir;
}

/** An outside module that writes the marker when imported. */
function outsideModule(name = "evil.mjs"): string {
  const path = join(outside, name);
  writeFileSync(path, evilEntry(marker));
  return path;
}

const codes = (issues: readonly ToolIssue[]) => [...new Set(issues.map((issue) => issue.code))].sort();

async function expectRefused(dir: string, expected: string[]): Promise<ToolIssue[]> {
  const result = await validateToolFolder(dir, { cacheDir, identity: "local/t" });
  expect(result.ok).toBe(false);
  expect(codes(result.issues)).toEqual([...expected].sort());
  for (const issue of result.issues) {
    expect(typeof issue.code).toBe("string");
    expect(typeof issue.message).toBe("string");
    expect(issue.tool).toBe("local/t");
  }
  let thrown: unknown;
  try {
    await loadToolFolders([{ dir, identity: "local/t" }], { cacheDir });
  } catch (error) {
    thrown = error;
  }
  expect(isContractError(thrown)).toBe(true);
  expect(existsSync(marker)).toBe(false);
  expectNoPollution(dir);
  return result.issues;
}

describe("adversarial tool folders: entries that escape", () => {
  it("an entry that is a symbolic link to an outside module", async () => {
    const dir = tool("t");
    rmSync(join(dir, "index.mjs"));
    symlinkSync(outsideModule(), join(dir, "index.mjs"));
    await expectRefused(dir, ["entry_escape", "file_escape"]);
  });

  it.each([
    "./../outside/evil.mjs",
    "./a/../../outside/evil.mjs",
    "./a/b/c/../../../../outside/evil.mjs",
    "./../../../../../../../../../../../tmp/evil.mjs",
  ])("entry %s climbs out lexically", async (entry) => {
    const dir = tool("t", { entry });
    mkdirSync(join(dir, "a", "b", "c"), { recursive: true });
    // Make the lexical target exist, so only the containment check can stop it.
    mkdirSync(join(root, "outside"), { recursive: true });
    writeFileSync(join(root, "outside", "evil.mjs"), evilEntry(marker));
    await expectRefused(dir, ["entry_escape"]);
  });

  it("an entry below a directory link that leaves the folder", async () => {
    const dir = tool("t", { entry: "./lib/evil.mjs" });
    outsideModule();
    symlinkSync(outside, join(dir, "lib"));
    await expectRefused(dir, ["entry_escape", "file_escape"]);
  });

  it.each([
    ["an absolute path", "/tmp/evil.mjs"],
    ["a Windows separator", ".\\index.mjs"],
    ["a Windows separator inside", "./lib\\index.mjs"],
    ["a drive letter", "C:\\evil.mjs"],
    ["a UNC path", "\\\\server\\share\\evil.mjs"],
    ["an empty segment", ".//index.mjs"],
    ["a NUL", "./index.mjs\u0000.png"],
    ["no ./ prefix", "index.mjs"],
    ["a bare ..", ".."],
    ["a file URL", "file:///tmp/evil.mjs"],
    ["a data URL", "data:text/javascript,export const handler = () => 1;.mjs"],
    ["a non-module extension", "./index.json"],
    ["a trailing slash", "./index.mjs/"],
  ])("entry with %s is an invalid manifest", async (_name, entry) => {
    const dir = tool("t", { entry });
    await expectRefused(dir, ["manifest_invalid_entry"]);
  });

  it("an entry that is a directory, a FIFO or missing", async () => {
    const dir = tool("t", { entry: "./dir.mjs" });
    mkdirSync(join(dir, "dir.mjs"));
    await expectRefused(dir, ["entry_escape"]);
    rmSync(dir, { recursive: true });
    const fifo = tool("t", { entry: "./pipe.mjs" });
    execFileSync("mkfifo", [join(fifo, "pipe.mjs")]);
    await expectRefused(fifo, ["entry_escape", "file_unsupported"]);
    rmSync(fifo, { recursive: true });
    const missing = tool("t", { entry: "./nope.mjs" });
    await expectRefused(missing, ["entry_missing"]);
  });
});

describe("adversarial tool folders: links at every level", () => {
  it.each([0, 1, 2, 3, 6])(
    "a link out of the folder at depth %i keeps the valid entry from being imported",
    async (depth) => {
      const dir = tool("t");
      const parts = Array.from({ length: depth }, (_, i) => `d${i}`);
      const at = join(dir, ...parts);
      mkdirSync(at, { recursive: true });
      writeFileSync(join(outside, "secret.txt"), "secret");
      symlinkSync(join(outside, "secret.txt"), join(at, "file-link"));
      const issues = await expectRefused(dir, ["file_escape"]);
      expect(issues.map((issue) => issue.message)).toEqual([
        `selected tool file escapes its folder: ${[...parts, "file-link"].join("/")}`,
      ]);
    },
  );

  it.each([0, 2, 5])("a directory link out of the folder at depth %i", async (depth) => {
    const dir = tool("t");
    const at = join(dir, ...Array.from({ length: depth }, (_, i) => `d${i}`));
    mkdirSync(at, { recursive: true });
    symlinkSync(outside, join(at, "dir-link"));
    await expectRefused(dir, ["file_escape"]);
  });

  it("links to the root, to /, to /proc/self and dangling links", async () => {
    for (const target of ["/", "/proc/self/root", "/etc/passwd", "/dev/zero"]) {
      const dir = tool("t");
      symlinkSync(target, join(dir, "link"));
      await expectRefused(dir, ["file_escape"]);
      rmSync(dir, { recursive: true });
    }
    const dangling = tool("t");
    symlinkSync(join(dangling, "missing"), join(dangling, "link"));
    await expectRefused(dangling, ["file_unsupported"]);
  });

  it("symbolic-link loops: a file link cycle, a self link and directory links back up", async () => {
    const cycle = tool("t");
    symlinkSync(join(cycle, "b"), join(cycle, "a"));
    symlinkSync(join(cycle, "a"), join(cycle, "b"));
    await expectRefused(cycle, ["file_unsupported"]);
    rmSync(cycle, { recursive: true });

    const self = tool("t");
    symlinkSync("self", join(self, "self"));
    await expectRefused(self, ["file_unsupported"]);
    rmSync(self, { recursive: true });

    const up = tool("t");
    mkdirSync(join(up, "a", "b", "c"), { recursive: true });
    symlinkSync("..", join(up, "a", "b", "c", "up"));
    symlinkSync(up, join(up, "a", "root"));
    symlinkSync(".", join(up, "dot"));
    await expectRefused(up, ["file_unsupported"]);
  });

  it("the manifest as a link out, a directory, a FIFO or a device", async () => {
    const out = tool("t");
    writeFileSync(join(outside, "tool.json"), JSON.stringify(manifest("t")));
    rmSync(join(out, "tool.json"));
    symlinkSync(join(outside, "tool.json"), join(out, "tool.json"));
    await expectRefused(out, ["manifest_escape"]);
    rmSync(out, { recursive: true });

    const directory = tool("t");
    rmSync(join(directory, "tool.json"));
    mkdirSync(join(directory, "tool.json"));
    await expectRefused(directory, ["manifest_escape"]);
    rmSync(directory, { recursive: true });

    const fifo = tool("t");
    rmSync(join(fifo, "tool.json"));
    execFileSync("mkfifo", [join(fifo, "tool.json")]);
    await expectRefused(fifo, ["manifest_escape"]);
    rmSync(fifo, { recursive: true });

    const device = tool("t");
    rmSync(join(device, "tool.json"));
    symlinkSync("/dev/zero", join(device, "tool.json"));
    await expectRefused(device, ["manifest_escape"]);
  });

  it("a folder that is itself a link out of its root", async () => {
    const real = join(outside, "t");
    mkdirSync(real);
    writeFileSync(join(real, "tool.json"), JSON.stringify(manifest("t")));
    writeFileSync(join(real, "index.mjs"), evilEntry(marker));
    symlinkSync(real, join(root, "t"));
    await expectRefused(join(root, "t"), ["folder_escape"]);
  });

  it("FIFOs anywhere in the folder, and links to them, are refused and never opened", async () => {
    const dir = tool("t");
    execFileSync("mkfifo", [join(dir, "pipe")]);
    mkdirSync(join(dir, "deep", "er"), { recursive: true });
    execFileSync("mkfifo", [join(dir, "deep", "er", "pipe")]);
    symlinkSync(join(dir, "pipe"), join(dir, "pipe-link"));
    const issues = await expectRefused(dir, ["file_unsupported"]);
    expect(issues.map((issue) => issue.message).sort()).toEqual([
      "unsupported selected tool file: deep/er/pipe",
      "unsupported selected tool file: pipe",
      "unsupported selected tool file: pipe-link",
    ]);
  });
});

describe("adversarial tool folders: hostile manifests", () => {
  it.each([
    ["a lone 0xFF byte", Buffer.from([0x7b, 0xff, 0x7d])],
    ["an overlong encoding of /", Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d])],
    ["an encoded surrogate (CESU-8)", Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d])],
    ["a truncated sequence", Buffer.from([0x7b, 0x22, 0xe2, 0x82, 0x22, 0x3a, 0x31, 0x7d])],
    [
      "a code point above U+10FFFF",
      Buffer.from([0x7b, 0x22, 0xf4, 0x90, 0x80, 0x80, 0x22, 0x3a, 0x31, 0x7d]),
    ],
    [
      "a byte-order mark",
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(manifest("t")))]),
    ],
    ["UTF-16", Buffer.from(JSON.stringify(manifest("t")), "utf16le")],
    ["an empty file", Buffer.alloc(0)],
    ["NUL bytes", Buffer.alloc(64)],
    ["two JSON values", Buffer.from(`${JSON.stringify(manifest("t"))}\n{}`)],
    ["deeply nested JSON", Buffer.from(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)],
  ])("%s is manifest_json_invalid or a manifest issue, never an exception", async (_name, bytes) => {
    const dir = tool("t");
    writeFileSync(join(dir, "tool.json"), bytes);
    const result = await validateToolFolder(dir, { cacheDir, identity: "local/t" });
    expect(result.ok).toBe(false);
    expect(result.issues.length).toBeGreaterThan(0);
    for (const issue of result.issues) expect(issue.code).toMatch(/^manifest_/);
    expect(existsSync(marker)).toBe(false);
  });

  it("duplicate keys: the last one wins (JSON.parse), so a tool cannot hide a second value", async () => {
    const dir = tool("t");
    const text = JSON.stringify(manifest("t")).replace(
      '"entry":"./index.mjs"',
      '"entry":"./index.mjs","entry":"./../outside/evil.mjs"',
    );
    writeFileSync(join(dir, "tool.json"), text);
    await expectRefused(dir, ["entry_escape"]);

    const ok = tool("t");
    writeFileSync(
      join(ok, "tool.json"),
      JSON.stringify(manifest("t")).replace('"id":"t"', '"id":"other","id":"t"'),
    );
    const result = await validateToolFolder(ok, { cacheDir, identity: "local/t" });
    expect(result).toMatchObject({ ok: true, issues: [] });
  });

  it("__proto__, constructor and prototype keys are unknown fields and pollute nothing", async () => {
    const dir = tool("t");
    const text = JSON.stringify(manifest("t")).replace(
      "{",
      '{"__proto__":{"polluted":1,"entry":"./../outside/evil.mjs"},"constructor":{"prototype":{"polluted":1}},',
    );
    writeFileSync(join(dir, "tool.json"), text);
    const issues = await expectRefused(dir, ["manifest_unknown_field"]);
    expect(issues.map((issue) => issue.path)).toEqual(["/__proto__", "/constructor"]);
  });

  it("a 100 MB manifest (no limit in the spec) fails cleanly with a bounded message", async () => {
    const size = 100 * MiB;
    // Valid JSON whose description is 100 MB: the description rule refuses it.
    const big = tool("t");
    const { description: _omitted, ...rest } = manifest("t");
    const head = Buffer.from(`${JSON.stringify(rest).slice(0, -1)},"description":"`);
    const fd = openSync(join(big, "tool.json"), "w");
    writeSync(fd, head);
    writeSync(fd, Buffer.alloc(size, 0x61));
    writeSync(fd, Buffer.from('"}'));
    closeSync(fd);
    const peakBefore = process.resourceUsage().maxRSS * 1024;
    let result = await validateToolFolder(big, { cacheDir, identity: "local/t" });
    const peakGrowth = process.resourceUsage().maxRSS * 1024 - peakBefore;
    // No limit exists, so the manifest is read whole (and the file set twice more): memory is proportional to its
    // size (about 3× was measured), never unbounded.
    expect(peakGrowth).toBeLessThan(8 * size);
    expect(result.ok).toBe(false);
    expect(codes(result.issues)).toEqual(["manifest_invalid_description"]);
    expect(result.issues[0]?.message).toBe("description must be a non-empty string of at most 8192 bytes");
    rmSync(big, { recursive: true });

    // Zero bytes (a sparse file): not JSON.
    const zeros = tool("t");
    const zfd = openSync(join(zeros, "tool.json"), "w");
    ftruncateSync(zfd, 8 * MiB);
    closeSync(zfd);
    result = await validateToolFolder(zeros, { cacheDir, identity: "local/t" });
    expect(result.ok).toBe(false);
    expect(codes(result.issues)).toEqual(["manifest_json_invalid"]);
    expect(Buffer.byteLength(result.issues[0]?.message ?? "")).toBeLessThan(1024);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("adversarial tool folders: one bad folder means no import at all", () => {
  it("a valid tool selected with an escaping one is never imported", async () => {
    const good = tool("good");
    const badDir = join(root, "bad");
    mkdirSync(badDir);
    writeFileSync(join(badDir, "tool.json"), JSON.stringify(manifest("bad")));
    symlinkSync(outsideModule(), join(badDir, "index.mjs"));
    let thrown: unknown;
    try {
      await loadToolFolders(
        [
          { dir: good, identity: "local/good" },
          { dir: badDir, identity: "local/bad" },
        ],
        { cacheDir },
      );
    } catch (error) {
      thrown = error;
    }
    expect(isContractError(thrown)).toBe(true);
    expect(codes((thrown as { issues: ToolIssue[] }).issues)).toEqual(["entry_escape", "file_escape"]);
    expect(existsSync(marker)).toBe(false);
  });

  it("validateToolFolder never throws, whatever it is given", async () => {
    for (const dir of [
      "",
      "/",
      "/proc/self/fd/0",
      "\u0000",
      join(base, "missing"),
      42,
      null,
      undefined,
      {},
    ]) {
      const result = await validateToolFolder(dir as string, { cacheDir });
      expect(result.ok).toBe(false);
      expect(result.issues.length).toBeGreaterThan(0);
    }
    expect(existsSync(marker)).toBe(false);
  });
});
