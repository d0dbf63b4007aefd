import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ContractError, isContractError } from "@raw/schema";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { readFolderFileSet, readRegularFile, sameFileSet } from "../src/file-set.js";
import {
  cleanSnapshotCache,
  createToolRegistry,
  loadToolFolder,
  loadToolFolders,
  type ToolIssue,
  validateToolFolder,
} from "../src/index.js";

const base = mkdtempSync(join(tmpdir(), "raw-tool-api-loader-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let root: string;
let cacheDir: string;
let counter = 0;
beforeEach(() => {
  counter++;
  root = join(base, `root-${counter}`);
  cacheDir = join(base, `cache-${counter}`);
  mkdirSync(root, { recursive: true });
});

const HANDLER = `export function handler(args, context) {
  return { isError: false, content: [{ type: "text", text: "touched " + args.paths.join(",") + " in " + context.cwd }] };
}
`;

function manifest(id: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    api_version: 2,
    id,
    version: "1.0.0",
    name: id,
    description: "Creates empty files.",
    input_schema: {
      type: "object",
      required: ["paths"],
      properties: { paths: { type: "array", items: { type: "string" } } },
    },
    entry: "./index.mjs",
    ...patch,
  };
}

/** Writes a tool folder under `root` and returns its path. */
function tool(
  id: string,
  options: { manifest?: unknown; raw?: string | Buffer; entry?: string; files?: Record<string, string> } = {},
) {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  const body = options.raw ?? `${JSON.stringify(options.manifest ?? manifest(id), null, 2)}\n`;
  writeFileSync(join(dir, "tool.json"), body);
  if (options.entry !== undefined || options.files === undefined)
    writeFileSync(join(dir, "index.mjs"), options.entry ?? HANDLER);
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

async function validate(dir: string, identity?: string) {
  return validateToolFolder(dir, { cacheDir, ...(identity ? { identity } : {}) });
}

async function loadError(run: () => Promise<unknown>): Promise<ToolIssue[]> {
  try {
    await run();
  } catch (error) {
    if (isContractError(error)) return error.issues as ToolIssue[];
    throw error;
  }
  throw new Error("expected a ContractError");
}

describe("loadToolFolder (tool-api.md §5)", () => {
  it("loads a valid folder into the registration of §5.5 and dispatches it", async () => {
    const dir = tool("touch", {
      manifest: manifest("touch", {
        panels: [{ id: "todo", title: "Todo" }],
      }),
      entry: `${HANDLER}export function validateArgs(args) { return args.paths.length ? undefined : "no paths"; }\n`,
    });
    const loaded = await loadToolFolder(dir, { identity: "local/touch", cacheDir });
    expect(loaded.identity).toBe("local/touch");
    expect(loaded.digest).toMatch(/^[0-9a-f]{64}$/);
    // The copy sits in the digest's home, at the place of the resolution mirror standing for the folder (A8).
    expect(loaded.importDir).toBe(join(cacheDir, loaded.digest, "root", realpathSync(dir)));
    const { handler, validateArgs, ...fields } = loaded.registration;
    expect(typeof handler).toBe("function");
    expect(typeof validateArgs).toBe("function");
    expect(fields).toEqual({
      name: "touch",
      identity: "local/touch",
      description: "Creates empty files.",
      inputSchema: manifest("touch").input_schema,
      conditionSources: ["arguments"],
      panels: [
        {
          id: "todo",
          title: "Todo",
          icon: "panel",
          open: "never",
          context: "none",
          placement: "sidebar",
          acp_plan: false,
          actions: [],
        },
      ],
    });
    const registry = createToolRegistry();
    registry.register(loaded.registration);
    expect(await registry.dispatch({ name: "touch", arguments: { paths: ["a"] } }, { cwd: "/w" })).toEqual({
      isError: false,
      content: [{ type: "text", text: "touched a in /w" }],
    });
    expect(
      (await registry.dispatch({ name: "touch", arguments: { paths: [] } }, { cwd: "/w" })).content,
    ).toEqual([{ type: "text", text: "no paths" }]);
  });

  it("registers effects only with effects_schema, and warns about a stray describeEffects", async () => {
    const effectsSchema = { type: "object", properties: { files: { type: "array" } } };
    const withEffects = tool("fx", {
      manifest: manifest("fx", { effects_schema: effectsSchema, condition_sources: ["effects"] }),
      entry: `${HANDLER}export function describeEffects() { return { files: [] }; }\n`,
    });
    const loaded = await loadToolFolder(withEffects, { cacheDir });
    expect(loaded.registration.effectsSchema).toEqual(effectsSchema);
    expect(typeof loaded.registration.describeEffects).toBe("function");
    expect(loaded.registration.conditionSources).toEqual(["effects"]);

    const stray = tool("stray", { entry: `${HANDLER}export function describeEffects() { return {}; }\n` });
    const strayLoaded = await loadToolFolder(stray, { cacheDir });
    expect(strayLoaded.registration.describeEffects).toBeUndefined();
    expect(strayLoaded.warnings).toEqual([
      {
        code: "effects_descriptor_ignored",
        message: "describeEffects of stray is ignored: the manifest has no effects_schema",
        path: "/entry",
        hint: "add an effects_schema to the manifest, or remove the describeEffects export",
        tool: "stray",
      },
    ]);
  });

  it("imports from a content-addressed copy: later edits do not change a loaded tool", async () => {
    const dir = tool("copy");
    const first = await loadToolFolder(dir, { cacheDir });
    writeFileSync(join(dir, "index.mjs"), HANDLER.replace("touched", "edited"));
    const registry = createToolRegistry();
    registry.register(first.registration);
    const result = await registry.dispatch({ name: "copy", arguments: { paths: ["a"] } }, { cwd: "/" });
    expect(result.content).toEqual([{ type: "text", text: "touched a in /" }]);
    const second = await loadToolFolder(dir, { cacheDir });
    expect(second.digest).not.toBe(first.digest);
    expect(readFileSync(join(second.importDir, "index.mjs"), "utf8")).toContain("edited");
  });

  it("verifies an existing copy before reuse and rebuilds a tampered one", async () => {
    const dir = tool("verify");
    const first = await loadToolFolder(dir, { cacheDir });
    writeFileSync(join(first.importDir, "index.mjs"), "export const handler = 1;\n");
    writeFileSync(join(first.importDir, "extra.txt"), "x");
    const again = await validate(dir);
    expect(again).toEqual({ ok: true, issues: [], warnings: [] });
    expect(readFileSync(join(first.importDir, "index.mjs"), "utf8")).toBe(HANDLER);
    expect(existsSync(join(first.importDir, "extra.txt"))).toBe(false);
  });

  it("cleanSnapshotCache bounds a cache that loads did not sweep (sweepCache: false): least recently used first", async () => {
    const loads = ["lru_a", "lru_b", "lru_c"].map((id) => tool(id));
    const loaded = [];
    for (const dir of loads) loaded.push(await loadToolFolder(dir, { cacheDir, sweepCache: false }));
    // Used an hour apart, oldest first.
    loaded.forEach((tool, i) => {
      const at = (Date.now() - (3 - i) * 3_600_000) / 1000;
      utimesSync(join(cacheDir, tool.digest), at, at);
    });
    const homes = () =>
      readdirSync(cacheDir)
        .filter((name) => /^[0-9a-f]{64}$/.test(name))
        .sort();
    const digests = loaded.map((tool) => tool.digest);
    cleanSnapshotCache(cacheDir);
    expect(homes()).toEqual([...digests].sort());
    cleanSnapshotCache(cacheDir, { maxEntries: 2 });
    expect(homes()).toEqual([digests[1], digests[2]].sort());
    cleanSnapshotCache(cacheDir, { maxAgeMs: 90 * 60_000 });
    expect(homes()).toEqual([digests[2]]);
    // A folder that is not a cache is nothing to clean.
    expect(() => cleanSnapshotCache(join(base, "absent"))).not.toThrow();
  });

  it("records the bytes of every copy in a home: the same tool at a second place adds its size", async () => {
    const first = tool("twice");
    const second = join(base, `elsewhere-${counter}`, "twice");
    cpSync(first, second, { recursive: true });
    const a = await loadToolFolder(first, { identity: "local/twice", cacheDir });
    const bytes = () => Number(readFileSync(join(cacheDir, a.digest, ".bytes"), "utf8"));
    const size = readFolderFileSet(first).files.reduce((sum, file) => sum + file.size, 0);
    expect(bytes()).toBe(size);
    // Loading the same place again reuses the copy and counts nothing more.
    await loadToolFolder(first, { identity: "local/twice", cacheDir });
    expect(bytes()).toBe(size);
    const b = await loadToolFolder(second, { identity: "local/twice", cacheDir });
    expect(b.digest).toBe(a.digest);
    expect(b.importDir).not.toBe(a.importDir);
    expect(bytes()).toBe(2 * size);
  });

  it("keeps the digest when only version changes, and changes it for any other byte", async () => {
    const dir = tool("digest", { files: { "lib/a.txt": "a" }, entry: HANDLER });
    const d0 = (await loadToolFolder(dir, { cacheDir })).digest;
    writeFileSync(join(dir, "tool.json"), JSON.stringify(manifest("digest", { version: "2.3.4" })));
    expect((await loadToolFolder(dir, { cacheDir })).digest).toBe(d0);
    writeFileSync(join(dir, "tool.json"), JSON.stringify(manifest("digest", { description: "Other." })));
    const d1 = (await loadToolFolder(dir, { cacheDir })).digest;
    expect(d1).not.toBe(d0);
    writeFileSync(join(dir, "lib/a.txt"), "b");
    expect((await loadToolFolder(dir, { cacheDir })).digest).not.toBe(d1);
    const other = (await loadToolFolder(dir, { cacheDir, identity: "agent/digest" })).digest;
    expect(other).not.toBe(d1);
  });

  it("loads a CommonJS entry from its copy", async () => {
    const dir = tool("common", {
      manifest: manifest("common", { entry: "./lib/main.cjs" }),
      files: {
        "lib/main.cjs":
          'exports.handler = () => ({ isError: false, content: [{ type: "text", text: require("./data.json").v }] });\n',
        "lib/data.json": '{ "v": "from cjs" }',
      },
    });
    const loaded = await loadToolFolder(dir, { cacheDir });
    const registry = createToolRegistry();
    registry.register(loaded.registration);
    expect(
      (await registry.dispatch({ name: "common", arguments: { paths: [] } }, { cwd: "/" })).content,
    ).toEqual([{ type: "text", text: "from cjs" }]);
  });

  it("reads duplicate JSON keys as JSON.parse does: the last one wins", async () => {
    const raw = JSON.stringify(manifest("dup")).replace('"name":"dup"', '"name":"first","name":"dup"');
    const loaded = await loadToolFolder(tool("dup", { raw }), { cacheDir });
    expect(loaded.registration.name).toBe("dup");
  });
});

describe("phase 1 (tool-api.md §5.2): every rule with real folders", () => {
  it("folder_missing", async () => {
    const result = await validate(join(root, "absent"));
    expect(result.ok).toBe(false);
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ code: "folder_missing", tool: "absent" });
    expect(result.issues[0]?.message).toMatch(/^missing or escaping selected tool absent: ENOENT/);
  });

  it("folder_escape through a symbolic link", async () => {
    const outside = join(base, `outside-${counter}`, "esc");
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(root, "esc"));
    expect((await validate(join(root, "esc"), "local/esc")).issues).toEqual([
      {
        code: "folder_escape",
        message: "missing or escaping selected tool local/esc: folder escape",
        path: "",
        tool: "local/esc",
      },
    ]);
  });

  it("manifest_missing and manifest_escape", async () => {
    mkdirSync(join(root, "empty"));
    expect((await validate(join(root, "empty"))).issues).toEqual([
      {
        code: "manifest_missing",
        message: "selected tool files are missing: empty",
        path: "",
        hint: "a tool folder holds a tool.json manifest (raw init tool <dir> writes one)",
        tool: "empty",
      },
    ]);
    const outsideFile = join(base, `outside-manifest-${counter}.json`);
    writeFileSync(outsideFile, JSON.stringify(manifest("linked")));
    mkdirSync(join(root, "linked"));
    symlinkSync(outsideFile, join(root, "linked", "tool.json"));
    expect((await validate(join(root, "linked"))).issues).toEqual([
      {
        code: "manifest_escape",
        message: "selected tool manifest escapes folder: linked",
        path: "",
        tool: "linked",
      },
    ]);
    mkdirSync(join(root, "dirjson", "tool.json"), { recursive: true });
    expect((await validate(join(root, "dirjson"))).issues[0]?.code).toBe("manifest_escape");
  });

  it("manifest_json_invalid for bad JSON, invalid UTF-8 and a BOM", async () => {
    for (const [id, raw] of [
      ["badjson", "{ nope"],
      ["badutf", Buffer.from([0x7b, 0xff, 0x7d])],
      ["bom", `\ufeff${JSON.stringify(manifest("bom"))}`],
    ] as const) {
      const { issues } = await validate(tool(id, { raw }));
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ code: "manifest_json_invalid", path: "", tool: id });
      expect(issues[0]?.message.startsWith(`invalid selected tool manifest ${id}: `)).toBe(true);
      // One line, no excerpt of the text (which would carry the invisible mark or the manifest's content).
      expect(issues[0]?.message).not.toMatch(/[\n\ufeff]|is not valid JSON/);
    }
    const bom = await validate(tool("bom2", { raw: `\ufeff${JSON.stringify(manifest("bom2"))}` }));
    expect(bom.issues[0]?.message).toBe(
      "invalid selected tool manifest bom2: JSON text must not start with a UTF-8 byte-order mark (U+FEFF)",
    );
  });

  it("reports manifest issues with the folder name as expected id", async () => {
    const dir = tool("named", { manifest: manifest("other", { $schema: 1 }) });
    expect((await validate(dir, "local/named")).issues).toEqual([
      {
        code: "manifest_unknown_field",
        message: 'unknown field "$schema"',
        path: "/$schema",
        tool: "local/named",
      },
      {
        code: "manifest_id_mismatch",
        message: 'id "other" must equal the folder name "named"',
        path: "/id",
        tool: "local/named",
      },
    ]);
  });

  it("entry_missing", async () => {
    const dir = tool("noentry", { manifest: manifest("noentry", { entry: "./missing.mjs" }) });
    expect((await validate(dir)).issues).toEqual([
      {
        code: "entry_missing",
        message: "selected tool files are missing: noentry",
        path: "/entry",
        hint: 'the entry file ./missing.mjs does not exist in the tool folder: create it, or point "entry" at the file that exports the handler',
        tool: "noentry",
      },
    ]);
  });

  it("entry_escape for ./../x.mjs and for a symbolic link to a file outside", async () => {
    writeFileSync(join(root, "x.mjs"), HANDLER);
    const up = tool("up", { manifest: manifest("up", { entry: "./../x.mjs" }) });
    expect((await validate(up)).issues).toEqual([
      {
        code: "entry_escape",
        message: "selected tool entry escapes folder: up",
        path: "/entry",
        hint: "./../x.mjs must be a regular file inside the tool folder (not a link out of it, not a folder)",
        tool: "up",
      },
    ]);
    const linked = tool("linkentry", { manifest: manifest("linkentry", { entry: "./link.mjs" }) });
    symlinkSync(join(root, "x.mjs"), join(linked, "link.mjs"));
    const issues = (await validate(linked)).issues;
    expect(issues[0]).toEqual({
      code: "entry_escape",
      message: "selected tool entry escapes folder: linkentry",
      path: "/entry",
      hint: "./link.mjs must be a regular file inside the tool folder (not a link out of it, not a folder)",
      tool: "linkentry",
    });
    expect(issues[1]).toEqual({
      code: "file_escape",
      message: "selected tool file escapes its folder: link.mjs",
      path: "",
      tool: "linkentry",
    });
  });

  it("allows symbolic links that stay inside the folder", async () => {
    const dir = tool("inside", { manifest: manifest("inside", { entry: "./alias.mjs" }), entry: HANDLER });
    symlinkSync("index.mjs", join(dir, "alias.mjs"));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "data.txt"), "d");
    symlinkSync("sub", join(dir, "sub-link"));
    expect(await validate(dir)).toEqual({ ok: true, issues: [], warnings: [] });
    const set = readFolderFileSet(dir);
    expect(set.files.map((f) => f.relpath)).toEqual([
      "alias.mjs",
      "index.mjs",
      "sub-link/data.txt",
      "sub/data.txt",
      "tool.json",
    ]);
  });

  it("file_escape for any link leaving the folder", async () => {
    const dir = tool("fileesc");
    writeFileSync(join(root, "secret.txt"), "s");
    symlinkSync(join(root, "secret.txt"), join(dir, "z-secret.txt"));
    expect((await validate(dir)).issues).toEqual([
      {
        code: "file_escape",
        message: "selected tool file escapes its folder: z-secret.txt",
        path: "",
        tool: "fileesc",
      },
    ]);
  });

  it("file_unsupported for a directory link cycle, a link loop and a FIFO", async () => {
    const dir = tool("weird");
    mkdirSync(join(dir, "d"));
    symlinkSync("..", join(dir, "d", "up"));
    symlinkSync("self", join(dir, "self"));
    execFileSync("mkfifo", [join(dir, "pipe")]);
    expect((await validate(dir)).issues).toEqual([
      { code: "file_unsupported", message: "unsupported selected tool file: d/up", path: "", tool: "weird" },
      { code: "file_unsupported", message: "unsupported selected tool file: pipe", path: "", tool: "weird" },
      { code: "file_unsupported", message: "unsupported selected tool file: self", path: "", tool: "weird" },
    ]);
  });

  it("a file swapped for a FIFO after it was listed is refused when opened, never waited on", () => {
    // The reads are synchronous: a FIFO opened for a blocking read would hold the whole process until a writer came.
    const dir = tool("swapped");
    execFileSync("mkfifo", [join(dir, "late-pipe")]);
    expect(readRegularFile(join(dir, "late-pipe"))).toBeUndefined();
    expect(readRegularFile(join(dir, "index.mjs"))).toEqual({
      bytes: readFileSync(join(dir, "index.mjs")),
      mode: statSync(join(dir, "index.mjs")).mode & 0o7777,
    });
  });

  it("detects a changed file set (same paths, modes, sizes and bytes)", () => {
    const dir = tool("change");
    const a = readFolderFileSet(dir);
    expect(sameFileSet(a, readFolderFileSet(dir))).toBe(true);
    writeFileSync(join(dir, "index.mjs"), HANDLER.replace("touched", "touchee"));
    expect(sameFileSet(a, readFolderFileSet(dir))).toBe(false);
    expect(a.files.map((f) => f.relpath)).toEqual(["index.mjs", "tool.json"]);
  });

  it("enumerates files sorted by relative path in code-unit order", () => {
    const dir = tool("sorted", {
      files: { "a/b.txt": "1", "a-c.txt": "2", "B.txt": "3", "é.txt": "4" },
      entry: HANDLER,
    });
    const set = readFolderFileSet(dir);
    expect(set.files.map((f) => f.relpath)).toEqual([
      "B.txt",
      "a-c.txt",
      "a/b.txt",
      "index.mjs",
      "tool.json",
      "é.txt",
    ]);
  });
});

describe("loadToolFolders: all-or-nothing (tool-api.md §5.2–5.3)", () => {
  const markerEntry = (marker: string) =>
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "imported");\n${HANDLER}`;

  it("imports no entry at all when another selected tool is bad", async () => {
    const marker = join(base, `marker-${counter}`);
    const good = tool("good", { entry: markerEntry(marker) });
    const bad = tool("bad", { manifest: manifest("bad", { api_version: 1 }) });
    const issues = await loadError(() =>
      loadToolFolders([good, { dir: bad, identity: "local/bad" }], { cacheDir }),
    );
    expect(issues).toEqual([
      {
        code: "manifest_api_version_unsupported",
        message: "api_version must be the number 2 (raw.tool-api/2)",
        path: "/api_version",
        tool: "local/bad",
      },
    ]);
    expect(existsSync(marker)).toBe(false);
    await loadToolFolders([good], { cacheDir });
    expect(existsSync(marker)).toBe(true);
  });

  it("tool_name_duplicate after every folder passed phase 1", async () => {
    const a = tool("aa", { manifest: manifest("aa", { name: "same" }) });
    const b = tool("bb", { manifest: manifest("bb", { name: "same" }) });
    expect(await loadError(() => loadToolFolders([a, b], { cacheDir }))).toEqual([
      { code: "tool_name_duplicate", message: "duplicate tool name: same", path: "/name", tool: "bb" },
    ]);
  });

  it("entry_load_failed, handler_invalid and effects_descriptor_missing; nothing is loaded", async () => {
    const throwing = tool("throws", { entry: 'throw new Error("bad import");\n' });
    const noHandler = tool("nohandler", { entry: "export const handler = 42;\n" });
    const badValidator = tool("badval", { entry: `${HANDLER}export const validateArgs = "nope";\n` });
    const noDescriptor = tool("nodesc", {
      manifest: manifest("nodesc", { effects_schema: { type: "object" } }),
    });
    const fine = tool("fine");
    const issues = await loadError(() =>
      loadToolFolders([fine, throwing, noHandler, badValidator, noDescriptor], { cacheDir }),
    );
    expect(issues).toEqual([
      {
        code: "entry_load_failed",
        message: "selected tool entry failed to load: throws: bad import",
        path: "/entry",
        tool: "throws",
      },
      {
        code: "handler_invalid",
        message: "invalid selected tool handler or validator: nohandler",
        path: "/entry",
        hint: "export `handler` is a number: it must be a function",
        tool: "nohandler",
      },
      {
        code: "handler_invalid",
        message: "invalid selected tool handler or validator: badval",
        path: "/entry",
        hint: "export `validateArgs` is a string: it must be a function, or not be exported",
        tool: "badval",
      },
      {
        code: "effects_descriptor_missing",
        message: "missing effects descriptor: nodesc",
        path: "/effects_schema",
        hint: "the manifest declares effects_schema: ./index.mjs must export a function named `describeEffects`",
        tool: "nodesc",
      },
    ]);
  });

  it("validateToolFolder never throws and does not import when phase 1 fails", async () => {
    const marker = join(base, `marker-v-${counter}`);
    const dir = tool("vbad", { manifest: { ...manifest("vbad"), extra: 1 }, entry: markerEntry(marker) });
    const result = await validate(dir);
    expect(result.ok).toBe(false);
    expect(result.issues.map((i) => i.code)).toEqual(["manifest_unknown_field"]);
    expect(existsSync(marker)).toBe(false);
    expect((await validateToolFolder(undefined as unknown as string)).ok).toBe(false);
  });

  it("returns panel icon warnings with the tool's selection id", async () => {
    const dir = tool("icons", {
      manifest: manifest("icons", { panels: [{ id: "p", title: "P", icon: "rocket" }] }),
    });
    const { warnings } = await validate(dir, "agent/icons");
    expect(warnings).toStrictEqual([
      {
        code: "panel_icon_unknown",
        message: '/panels/0: unknown icon "rocket" falls back to "panel"',
        tool: "agent/icons",
      },
    ]);
    expect(warnings[0]?.path).toBe("/panels/0/icon");
  });

  it("imports through importEntry when given: its stand-in is checked, a ContractError becomes an issue", async () => {
    const marker = join(base, `marker-i-${counter}`);
    const dir = tool("viaimporter", { entry: markerEntry(marker) });
    const seen: Array<{ url: string; identity: string }> = [];
    const ok = await validateToolFolder(dir, {
      cacheDir,
      importEntry: async (url, info) => {
        seen.push({ url, identity: info.identity });
        return { handler: () => undefined };
      },
    });
    expect(ok).toEqual({ ok: true, issues: [], warnings: [] });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toMatch(/^file:\/\/.*\/index\.mjs\?digest=[0-9a-f]{64}$/);
    expect(existsSync(marker)).toBe(false);
    const missing = await validateToolFolder(dir, { cacheDir, importEntry: async () => ({}) });
    expect(missing.issues.map((i) => [i.code, i.hint])).toEqual([
      ["handler_invalid", "./index.mjs has no export `handler`"],
    ]);
    const defaulted = await validateToolFolder(dir, {
      cacheDir,
      importEntry: async () => ({ default: { handler: () => undefined } }),
    });
    expect(defaulted.issues.map((i) => i.hint)).toEqual([
      "./index.mjs has no export `handler` (it has a default export: export the function by name, `export async function handler`)",
    ]);
    const located = await validateToolFolder(dir, {
      cacheDir,
      importEntry: async () => {
        throw new ContractError(
          "entry_load_failed",
          "selected tool entry failed to load: viaimporter: Unexpected token",
          [
            {
              code: "entry_load_failed",
              message: "selected tool entry failed to load: viaimporter: Unexpected token",
              location: { file: "./index.mjs", line: 3, column: 7 },
            } as never,
          ],
        );
      },
    });
    expect(located.issues).toEqual([
      {
        code: "entry_load_failed",
        message: "selected tool entry failed to load: viaimporter: Unexpected token",
        path: "/entry",
        tool: "viaimporter",
        location: { file: "./index.mjs", line: 3, column: 7 },
      },
    ]);
    const exited = await validateToolFolder(dir, {
      cacheDir,
      importEntry: async () => {
        throw new ContractError("entry_exited", "selected tool entry ended the process: viaimporter");
      },
    });
    expect(exited.issues).toEqual([
      {
        code: "entry_exited",
        message: "selected tool entry ended the process: viaimporter",
        path: "/entry",
        tool: "viaimporter",
      },
    ]);
  });
});

describe("validateToolFolder with allIssues: every mistake of a folder in one run", () => {
  const markerEntry = (marker: string) =>
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "imported");\n${HANDLER}`;

  it("checks the entry's exports through importEntry even when other manifest fields failed", async () => {
    const dir = tool("many", {
      manifest: manifest("many", {
        descripton: "typo",
        version: "1.0",
        effects_schema: { type: "object" },
        panels: [{ id: "P", title: "" }],
      }),
      entry: "export const handler = 'not a function';\n",
    });
    const seen: string[] = [];
    const importEntry = async (url: string) => {
      seen.push(url);
      return { handler: "text" };
    };
    const result = await validateToolFolder(dir, { cacheDir, importEntry, allIssues: true });
    expect(result.issues.map((issue) => [issue.code, issue.path, issue.hint ?? null])).toEqual([
      ["manifest_unknown_field", "/descripton", "did you mean `description`?"],
      ["manifest_invalid_version", "/version", null],
      ["panel_invalid", "/panels/0/id", null],
      ["panel_invalid", "/panels/0/title", null],
      ["handler_invalid", "/entry", "export `handler` is a string: it must be a function"],
      [
        "effects_descriptor_missing",
        "/effects_schema",
        "the manifest declares effects_schema: ./index.mjs must export a function named `describeEffects`",
      ],
    ]);
    // Imported from the folder itself (no snapshot of a tool that did not validate), through the importer only.
    expect(seen).toEqual([`${pathToFileURL(join(realpathSync(dir), "index.mjs")).href}`]);
    // The contract's default: no import after a failed phase 1.
    const plain = await validateToolFolder(dir, { cacheDir, importEntry });
    expect(plain.issues.map((issue) => issue.code)).toEqual([
      "manifest_unknown_field",
      "manifest_invalid_version",
      "panel_invalid",
    ]);
    expect(seen).toHaveLength(1);
    // Without an importer nothing is imported in this process, even in the allIssues mode.
    const marker = join(base, `marker-all-${counter}`);
    const unsafe = tool("unsafe", { manifest: manifest("unsafe", { extra: 1 }), entry: markerEntry(marker) });
    await validateToolFolder(unsafe, { cacheDir, allIssues: true });
    expect(existsSync(marker)).toBe(false);
  });

  it("reports a missing entry beside the other manifest issues, and imports nothing then", async () => {
    const dir = tool("gone", { manifest: manifest("gone", { extra: 1, entry: "./dist/index.mjs" }) });
    let imports = 0;
    const result = await validateToolFolder(dir, {
      cacheDir,
      allIssues: true,
      importEntry: async () => {
        imports++;
        return {};
      },
    });
    expect(result.issues.map((issue) => issue.code)).toEqual(["manifest_unknown_field", "entry_missing"]);
    expect(result.issues[1]?.hint).toContain("./dist/index.mjs");
    expect(imports).toBe(0);
  });

  it("imports nothing when a file of the folder escapes or is unsupported, whatever the manifest", async () => {
    const dir = tool("leaky", { manifest: manifest("leaky", { extra: 1 }) });
    writeFileSync(join(base, `leak-${counter}.txt`), "secret");
    symlinkSync(join(base, `leak-${counter}.txt`), join(dir, "leak.txt"));
    let imports = 0;
    const result = await validateToolFolder(dir, {
      cacheDir,
      allIssues: true,
      importEntry: async () => {
        imports++;
        return {};
      },
    });
    expect(result.issues.map((issue) => issue.code)).toEqual(["manifest_unknown_field", "file_escape"]);
    expect(imports).toBe(0);
  });
});
