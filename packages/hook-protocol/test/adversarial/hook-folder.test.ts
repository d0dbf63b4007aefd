/**
 * Issue 8 — hostile hook folders through `loadHookFolder` (hooks.md §4, §6): links anywhere, escapes of the
 * command and its arguments, oversize manifests and snapshots, invalid UTF-8, special files and prototype-named
 * keys. Every failure is a `ContractError` with a code of the spec; no process is ever spawned while loading; an
 * oversize manifest is refused from its size, without reading it.
 */
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, ftruncateSync, openSync, symlinkSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { loadHookFolder, MAX_HOOK_MANIFEST_BYTES, MAX_HOOK_SNAPSHOT_FILES } from "../../src/index.js";
import { tempFolder } from "../helpers.js";

const MANIFEST = {
  protocol_version: 2,
  name: "guard",
  events: [{ name: "PreToolUse", match: "builtin/*" }],
  command: "./hook.sh",
  args: ["./lib/data.txt", "literal"],
  timeout_ms: 2000,
};
const manifest = (over: Record<string, unknown> = {}) => JSON.stringify({ ...MANIFEST, ...over });

interface Folder {
  root: string;
  folder: string;
  outside: string;
  cache: string;
  marker: string;
}

/** `<tmp>/hooks/guard/` with a hook script that would write a marker if it ever ran, and an outside folder. */
async function hookFolder(files: Record<string, string | Buffer> = {}): Promise<Folder> {
  const root = await tempFolder({}, "raw-hook-adversarial-");
  const folder = join(root, "hooks", "guard");
  const outside = join(root, "outside");
  const marker = join(root, "marker");
  await mkdir(join(folder, "lib"), { recursive: true });
  await mkdir(outside, { recursive: true });
  const all: Record<string, string | Buffer> = {
    "hook.json": manifest(),
    "hook.sh": `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n`,
    "lib/data.txt": "data",
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    await mkdir(dirname(join(folder, rel)), { recursive: true });
    await writeFile(join(folder, rel), text);
  }
  await chmod(join(folder, "hook.sh"), 0o755).catch(() => {});
  return { root, folder, outside, cache: join(root, "cache"), marker };
}

async function refused(f: Folder, code: string, message?: string): Promise<void> {
  let thrown: unknown;
  try {
    await loadHookFolder(f.folder, { snapshotDir: f.cache, id: "agent/guard" });
  } catch (error) {
    thrown = error;
  }
  expect(isContractError(thrown), String(thrown)).toBe(true);
  expect((thrown as { code: string }).code).toBe(code);
  if (message !== undefined) expect((thrown as Error).message).toBe(message);
  expect(existsSync(f.marker)).toBe(false);
  expect(Object.prototype).not.toHaveProperty("polluted");
}

describe("adversarial hook folders: links", () => {
  it.each([
    ["a file link to an inside file", "lib/alias.txt", "data.txt"],
    ["a file link out of the folder", "lib/secret", "../../../outside/secret"],
    ["a directory link to an inside directory", "alias", "lib"],
    ["a directory link out of the folder", "out", "../../outside"],
    ["a link to /", "root", "/"],
    ["a link to /dev/zero", "zero", "/dev/zero"],
    ["a dangling link", "dangling", "missing"],
    ["a self link", "self", "self"],
  ])("%s is refused (no link anywhere)", async (_name, at, target) => {
    const f = await hookFolder();
    await writeFile(join(f.outside, "secret"), "secret");
    symlinkSync(target, join(f.folder, at));
    await refused(f, "hook_snapshot_link");
  });

  it.each([1, 2, 4, 8])("a link %i directories deep is refused", async (depth) => {
    const f = await hookFolder();
    const at = join(f.folder, ...Array.from({ length: depth }, (_, i) => `d${i}`));
    await mkdir(at, { recursive: true });
    symlinkSync("../".repeat(depth + 3), join(at, "up"));
    await refused(
      f,
      "hook_snapshot_link",
      `selected hook contains a link: ${[...Array.from({ length: depth }, (_, i) => `d${i}`), "up"].join("/")}`,
    );
  });

  it("link loops are refused without following them", async () => {
    const f = await hookFolder();
    symlinkSync("b", join(f.folder, "a"));
    symlinkSync("a", join(f.folder, "b"));
    await refused(f, "hook_snapshot_link");
  });

  it("hook.json as a link out, the folder as a link out of its root", async () => {
    const f = await hookFolder();
    await writeFile(join(f.outside, "hook.json"), manifest());
    execFileSync("rm", [join(f.folder, "hook.json")]);
    symlinkSync(join(f.outside, "hook.json"), join(f.folder, "hook.json"));
    await refused(f, "hook_manifest_escape");

    const g = await hookFolder();
    const linked = join(dirname(g.folder), "linked");
    symlinkSync(g.outside, linked);
    let thrown: unknown;
    try {
      await loadHookFolder(linked, { snapshotDir: g.cache });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as { code?: string }).code).toBe("hook_folder_escape");
  });
});

describe("adversarial hook folders: escaping commands and arguments", () => {
  it.each([
    ["a command climbing out", { command: "./../../outside/x.sh" }, "hook_asset_escape"],
    [
      "a command climbing out through a directory",
      { command: "./lib/../../../outside/x.sh" },
      "hook_asset_escape",
    ],
    ["an argument climbing out", { args: ["./../../outside/x.sh"] }, "hook_asset_escape"],
    ["an argument far above /", { args: [`./${"../".repeat(64)}etc/passwd`] }, "hook_asset_escape"],
    ["a command with a backslash", { command: "./lib\\..\\..\\x.sh" }, "hook_asset_invalid"],
    ["an argument with a backslash", { args: [".\\hook.sh", "./lib\\data.txt"] }, "hook_asset_invalid"],
    ["an owned path naming a directory", { args: ["./lib"] }, "hook_asset_escape"],
    ["a missing owned file", { args: ["./nope"] }, "hook_asset_escape"],
  ])("%s", async (_name, over, code) => {
    const f = await hookFolder({ "hook.json": manifest(over) });
    await writeFile(join(f.outside, "x.sh"), "#!/bin/sh\n");
    await refused(f, code);
  });

  it.each([
    ["an absolute command", { command: "/bin/sh" }, "hook_invalid_command"],
    ["a relative command without ./", { command: "lib/x.sh" }, "hook_invalid_command"],
    ["a Windows path", { command: "C:\\Windows\\cmd.exe" }, "hook_invalid_command"],
    ["a .. command", { command: ".." }, "hook_invalid_command"],
    ["a hidden-file command", { command: ".x" }, "hook_invalid_command"],
    ["a command of 1025 bytes", { command: "x".repeat(1025) }, "hook_invalid_command"],
    ["65 args", { args: Array.from({ length: 65 }, () => "a") }, "hook_invalid_args"],
    ["an arg of 4097 bytes", { args: ["é".repeat(2049)] }, "hook_invalid_args"],
    ["a timeout of 600,001 ms", { timeout_ms: 600_001 }, "hook_invalid_timeout"],
    ["protocol_version 1", { protocol_version: 1 }, "hook_protocol_version_unsupported"],
    ['protocol_version "2"', { protocol_version: "2" }, "hook_protocol_version_unsupported"],
  ])("%s is a manifest issue", async (_name, over, code) => {
    const f = await hookFolder({ "hook.json": manifest(over) });
    await refused(f, code);
  });

  it("__proto__, constructor and prototype keys are unknown fields and pollute nothing", async () => {
    const text = manifest().replace(
      "{",
      '{"__proto__":{"polluted":1,"command":"/bin/sh"},"constructor":{"prototype":{"polluted":1}},',
    );
    const f = await hookFolder({ "hook.json": text });
    await refused(f, "hook_manifest_unknown_field");
  });

  it("duplicate keys: the last one wins, so a second command cannot hide behind a first", async () => {
    const text = manifest().replace(
      '"command":"./hook.sh"',
      '"command":"./hook.sh","command":"./../../outside/x.sh"',
    );
    const f = await hookFolder({ "hook.json": text });
    await writeFile(join(f.outside, "x.sh"), "#!/bin/sh\n");
    await refused(f, "hook_asset_escape");
  });
});

describe("adversarial hook folders: oversize and invalid bytes", () => {
  it("a 100 MB hook.json is refused from its size without being read", async () => {
    const f = await hookFolder();
    const fd = openSync(join(f.folder, "hook.json"), "w");
    ftruncateSync(fd, 100 * 1024 * 1024);
    closeSync(fd);
    const before = process.memoryUsage().arrayBuffers;
    await refused(f, "hook_manifest_too_large", "hook manifest is too large: agent/guard");
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
  });

  it("hook.json of exactly the limit plus one byte is refused; at the limit it is read", async () => {
    const body = manifest();
    const padded = (size: number) => body + " ".repeat(size - Buffer.byteLength(body));
    const over = await hookFolder({ "hook.json": padded(MAX_HOOK_MANIFEST_BYTES + 1) });
    await refused(over, "hook_manifest_too_large");
    const at = await hookFolder({ "hook.json": padded(MAX_HOOK_MANIFEST_BYTES) });
    const hook = await loadHookFolder(at.folder, { snapshotDir: at.cache, id: "agent/guard" });
    expect(hook.manifest.name).toBe("guard");
    expect(existsSync(at.marker)).toBe(false);
  });

  it.each([
    ["a lone 0xFF", Buffer.from([0x7b, 0xff, 0x7d])],
    ["an overlong encoding", Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d])],
    ["an encoded surrogate (CESU-8)", Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d])],
    ["a truncated sequence", Buffer.from([0x7b, 0x22, 0xe2, 0x82, 0x22, 0x3a, 0x31, 0x7d])],
    ["UTF-16", Buffer.from(manifest(), "utf16le")],
    ["a byte-order mark", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(manifest())])],
    ["NUL bytes", Buffer.alloc(32)],
    ["an empty file", Buffer.alloc(0)],
    ["deeply nested JSON", Buffer.from(`${"[".repeat(30_000)}${"]".repeat(30_000)}`)],
  ])("%s in hook.json is hook_manifest_json_invalid or a manifest issue", async (_name, bytes) => {
    const f = await hookFolder({ "hook.json": bytes });
    let thrown: unknown;
    try {
      await loadHookFolder(f.folder, { snapshotDir: f.cache, id: "agent/guard" });
    } catch (error) {
      thrown = error;
    }
    expect(isContractError(thrown)).toBe(true);
    expect((thrown as { code: string }).code).toMatch(/^hook_/);
  });

  it("invalid UTF-8 in a file name or file body is snapshotted as bytes, never decoded", async () => {
    const f = await hookFolder({ "lib/bytes.bin": Buffer.from([0xff, 0xfe, 0x00, 0xed, 0xa0, 0x80]) });
    const hook = await loadHookFolder(f.folder, { snapshotDir: f.cache, id: "agent/guard" });
    expect(hook.manifest.command.startsWith(hook.folder)).toBe(true);
    expect(existsSync(f.marker)).toBe(false);
  });

  it("a file over 16 MiB, 257 files, or 16 MiB in total exceed the snapshot limit", async () => {
    const big = await hookFolder();
    const fd = openSync(join(big.folder, "lib", "big.bin"), "w");
    ftruncateSync(fd, 16 * 1024 * 1024 + 1);
    closeSync(fd);
    await refused(big, "hook_snapshot_limit", "selected hook exceeds snapshot limit");

    const many = await hookFolder();
    for (let i = 0; i < MAX_HOOK_SNAPSHOT_FILES; i++) await writeFile(join(many.folder, "lib", `f${i}`), "x");
    await refused(many, "hook_snapshot_limit");

    const total = await hookFolder();
    for (let i = 0; i < 3; i++) {
      const part = openSync(join(total.folder, "lib", `part${i}`), "w");
      ftruncateSync(part, 6 * 1024 * 1024);
      closeSync(part);
    }
    await refused(total, "hook_snapshot_limit");
  });

  it("a FIFO, anywhere, is refused without being opened", async () => {
    const f = await hookFolder();
    await mkdir(join(f.folder, "a", "b"), { recursive: true });
    execFileSync("mkfifo", [join(f.folder, "a", "b", "pipe")]);
    await refused(f, "hook_snapshot_unsupported_file", "unsupported selected hook file: a/b/pipe");

    const g = await hookFolder();
    execFileSync("rm", [join(g.folder, "hook.json")]);
    execFileSync("mkfifo", [join(g.folder, "hook.json")]);
    await refused(g, "hook_manifest_escape");
  });
});
