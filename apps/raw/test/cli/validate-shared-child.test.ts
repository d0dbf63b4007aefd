/**
 * Issue 17 with issue 11 §9 — `raw validate` imports the entries of a run in one shared child process, and an entry
 * imported earlier in that process cannot change what is reported on a later folder: it cannot answer for a later
 * request (answers are authenticated with keys it never sees, and name the request's URL), it cannot bend the
 * child's export checks by polluting prototypes and globals (the child captured its primitives at start-up), it
 * cannot swap a later entry's source through module hooks (the child reports a changed loader and is retired), and
 * what its timers do after its own import (exit, stdout bytes, a busy loop) is never blamed on the folder imported
 * next (that folder is imported again on a fresh child). Runs the built CLI on real folders and real processes.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { bin, tempDir, toolWorkspace } from "./helpers.js";

const HANDLER = "export function handler() { return { isError: false, content: [] }; }\n";
/** An entry without a handler export: its folder must always get `handler_invalid`. */
const NO_HANDLER = "export const version = 1;\n";
/** An entry that takes a while to import, so that an earlier entry's timer fires during its import. */
const SLOW = `await new Promise((resolve) => setTimeout(resolve, 900));\n${HANDLER}`;

interface Report {
  ok: boolean;
  files: Array<{
    file: string;
    ok: boolean;
    issues: Array<{ code: string; message: string; hint?: string }>;
  }>;
}

/** Writes tool folders (`name` → entry text) in the given order under a new workspace. */
function workspace(entries: ReadonlyArray<readonly [string, string]>): string {
  return toolWorkspace("raw-validate-shared-", entries, "A tool for the shared validation child.");
}

function validate(
  root: string,
  ids: readonly string[],
  timeout = "1500",
): { status: number | null; report: Report } {
  const run = spawnSync(
    process.execPath,
    [bin, "validate", ...ids, "--timeout", timeout, "--format", "json"],
    {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, RAW_CACHE_DIR: join(root, ".cache") },
    },
  );
  return { status: run.status, report: JSON.parse(run.stdout) as Report };
}

function issuesOf(report: Report, id: string): Array<{ code: string; message: string; hint?: string }> {
  const file = report.files.find((entry) => entry.file === `${id}/tool.json`);
  expect(file, id).toBeDefined();
  return file?.issues ?? [];
}

describe("raw validate: what one entry does in the shared child never lands on another folder", () => {
  it("an entry that answers the next request itself (forged answers, a rerouted request) does not pass a folder without a handler", () => {
    const root = tempDir("raw-validate-forger-target-");
    writeFileSync(join(root, "decoy.mjs"), HANDLER);
    const decoy = pathToFileURL(join(root, "decoy.mjs")).href;
    const forged = (request: string) =>
      `JSON.stringify({ url: ${request}.url, nonce: ${request}.nonce, kind: "imported", exports: { handler: "function", validateArgs: "absent", describeEffects: "absent", default: "absent" }, pristine: true })`;
    const forger =
      `const [ours] = process.listeners("message");\n` +
      `process.removeAllListeners("message");\n` +
      `process.on("message", (m) => {\n` +
      `  if (m && m.type === "import") {\n` +
      // Every shape of answer the parent might take: the old protocol's, an unsigned body, a body with a made-up MAC.
      `    process.send({ type: "imported", nonce: m.nonce, exports: { handler: "function" } });\n` +
      `    process.send({ type: "answer", body: ${forged("m")} });\n` +
      `    process.send({ type: "answer", body: ${forged("m")}, mac: "0".repeat(64) });\n` +
      // And the child's own script, asked to import a module with a handler under the request's nonce.
      `    ours({ ...m, url: ${JSON.stringify(decoy)} });\n` +
      `  } else ours(m);\n` +
      `});\n${HANDLER}`;
    const ws = workspace([
      ["a_forger", forger],
      ["b_no_handler", NO_HANDLER],
      ["c_no_handler", NO_HANDLER],
    ]);
    const { status, report } = validate(ws, ["a_forger", "b_no_handler", "c_no_handler"]);
    expect(status).toBe(1);
    expect(issuesOf(report, "a_forger")).toEqual([]);
    for (const id of ["b_no_handler", "c_no_handler"]) {
      const issues = issuesOf(report, id);
      expect(
        issues.map((issue) => issue.code),
        id,
      ).toEqual(["handler_invalid"]);
      expect(issues[0]?.hint, id).toBe("./index.mjs has no export `handler`");
    }
  });

  it("an entry that pollutes prototypes and globals does not change the export checks of later folders", () => {
    const polluter =
      `Object.prototype.handler = function handler() {};\n` +
      `Object.defineProperty(Object.prototype, "toJSON", { value() { return { kind: "imported", exports: { handler: "function" } }; }, configurable: true });\n` +
      `Array.isArray = () => true;\n` +
      `Object.hasOwn = () => true;\n` +
      `JSON.stringify = () => '{"kind":"imported","exports":{"handler":"function"}}';\n` +
      `const then = Promise.prototype.then;\n` +
      `Promise.prototype.then = function (ok, fail) {\n` +
      `  return then.call(this, (value) => (ok ? ok({ handler() {} }) : value), fail);\n` +
      `};\n${HANDLER}`;
    const ws = workspace([
      ["a_polluter", polluter],
      ["b_no_handler", NO_HANDLER],
      ["c_string_handler", 'export const handler = "not a function";\n'],
      ["d_good", HANDLER],
    ]);
    const { status, report } = validate(ws, ["a_polluter", "b_no_handler", "c_string_handler", "d_good"]);
    expect(status).toBe(1);
    expect(issuesOf(report, "a_polluter")).toEqual([]);
    expect(issuesOf(report, "b_no_handler").map((issue) => issue.hint)).toEqual([
      "./index.mjs has no export `handler`",
    ]);
    expect(issuesOf(report, "c_string_handler").map((issue) => issue.hint)).toEqual([
      "export `handler` is a string: it must be a function",
    ]);
    expect(issuesOf(report, "d_good")).toEqual([]);
  });

  it("an entry that registers module hooks cannot swap the source of a later entry", () => {
    const hooks =
      "export async function load(url, context, next) {" +
      " if (url.includes('b_no_handler')) return { format: 'module', source: 'export function handler() {}', shortCircuit: true };" +
      " return next(url, context); }";
    const hooker =
      `import { register } from "node:module";\n` +
      `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n${HANDLER}`;
    const ws = workspace([
      ["a_hooker", hooker],
      ["b_no_handler", NO_HANDLER],
    ]);
    const { status, report } = validate(ws, ["a_hooker", "b_no_handler"]);
    expect(status).toBe(1);
    expect(issuesOf(report, "a_hooker")).toEqual([]);
    expect(issuesOf(report, "b_no_handler").map((issue) => issue.code)).toEqual(["handler_invalid"]);
  });

  it.each([
    ["exits", "process.exit(7)"],
    ["writes stdout", 'process.stdout.write("{\\"ok\\":true}\\n")'],
    ["spins", "for (;;) {}"],
  ])("an entry whose timer %s after its import does not get the next folder blamed", (_what, action) => {
    const ws = workspace([
      ["a_later", `setTimeout(() => { ${action}; }, 300);\n${HANDLER}`],
      ["b_slow", SLOW],
      ["c_good", HANDLER],
    ]);
    const { status, report } = validate(ws, ["a_later", "b_slow", "c_good"]);
    expect(report.files.map((file) => [file.file, file.issues.map((issue) => issue.code)])).toEqual([
      ["a_later/tool.json", []],
      ["b_slow/tool.json", []],
      ["c_good/tool.json", []],
    ]);
    expect(status).toBe(0);
  });

  it("a misbehaving entry after clean ones is still reported, with its own code and message", () => {
    const ws = workspace([
      ["a_good", HANDLER],
      ["b_exits", `process.exit(3);\n${HANDLER}`],
      ["c_stdout", `console.log("hello");\n${HANDLER}`],
      ["d_throws", `throw new Error("boom");\n${HANDLER}`],
      ["e_good", HANDLER],
    ]);
    const { status, report } = validate(ws, ["a_good", "b_exits", "c_stdout", "d_throws", "e_good"]);
    expect(status).toBe(1);
    expect(issuesOf(report, "a_good")).toEqual([]);
    expect(issuesOf(report, "b_exits").map((issue) => issue.message)).toEqual([
      "selected tool entry ended the validation process while loading: b_exits: exit code 3",
    ]);
    expect(issuesOf(report, "c_stdout").map((issue) => issue.message)).toEqual([
      "selected tool entry wrote 6 bytes to stdout while loading: c_stdout",
    ]);
    expect(issuesOf(report, "d_throws").map((issue) => issue.message)).toEqual([
      "selected tool entry failed to load: d_throws: boom",
    ]);
    expect(issuesOf(report, "e_good")).toEqual([]);
  });

  it("while the next request waits in the child, the first entry's stdout and exit are still its own, and the next folder's are not", () => {
    const ws = workspace([
      ["a_stdout", `process.stdout.write("x".repeat(7));\n${HANDLER}`],
      ["b_good", HANDLER],
      ["c_exits", `process.exit(5);\n${HANDLER}`],
      ["d_good", HANDLER],
    ]);
    const { status, report } = validate(ws, ["a_stdout", "b_good", "c_exits", "d_good"]);
    expect(status).toBe(1);
    expect(report.files.map((file) => [file.file, file.issues.map((issue) => issue.message)])).toEqual([
      ["a_stdout/tool.json", ["selected tool entry wrote 7 bytes to stdout while loading: a_stdout"]],
      ["b_good/tool.json", []],
      [
        "c_exits/tool.json",
        ["selected tool entry ended the validation process while loading: c_exits: exit code 5"],
      ],
      ["d_good/tool.json", []],
    ]);
  });

  it("keeps its copies apart from the hosts' cache and reuses them only after verifying them", () => {
    const ws = workspace([["a_good", HANDLER]]);
    const cache = join(ws, ".cache");
    const homes = (): string[] =>
      readdirSync(join(cache, "validate-snapshots")).filter((n) => /^[0-9a-f]{64}$/.test(n));
    /** The copy of `a_good/index.mjs` in a home (the copy sits at the mirror of the folder's real path). */
    const copyOf = (home: string): string =>
      join(
        cache,
        "validate-snapshots",
        home,
        "root",
        ...realpathSync(join(ws, "a_good")).split("/"),
        "index.mjs",
      );

    expect(validate(ws, ["a_good"]).status).toBe(0);
    // The hosts' snapshot cache is never touched; the copy is in the folder of `raw validate`.
    expect(readdirSync(cache).sort()).toEqual(["validate-snapshots"]);
    const [home] = homes();
    expect(homes()).toHaveLength(1);
    const copy = copyOf(home as string);
    expect(readFileSync(copy, "utf8")).toBe(HANDLER);
    const inode = statSync(copy).ino;

    // An unchanged folder: the copy is verified and imported again, not written again.
    expect(validate(ws, ["a_good"]).status).toBe(0);
    expect(homes()).toEqual([home]);
    expect(statSync(copy).ino).toBe(inode);

    // A copy that no longer matches its folder is rebuilt: the report is on the folder's bytes, never the copy's.
    writeFileSync(copy, NO_HANDLER);
    expect(validate(ws, ["a_good"]).status).toBe(0);
    expect(readFileSync(copy, "utf8")).toBe(HANDLER);

    // An edited folder has a new digest, so a copy of its own; the folder itself is never written.
    writeFileSync(join(ws, "a_good", "index.mjs"), NO_HANDLER);
    const edited = validate(ws, ["a_good"]);
    expect(edited.status).toBe(1);
    expect(issuesOf(edited.report, "a_good").map((issue) => issue.code)).toEqual(["handler_invalid"]);
    expect(homes()).toHaveLength(2);
    expect(readFileSync(join(ws, "a_good", "index.mjs"), "utf8")).toBe(NO_HANDLER);
  });

  it("imports entries from copies of their folders, as a host does: a relative import that leaves the folder fails", () => {
    const ws = workspace([
      ["a_outside", `import { value } from "../shared.mjs";\nexport const label = value;\n${HANDLER}`],
      ["b_inside", `import { value } from "./own.mjs";\nexport const label = value;\n${HANDLER}`],
    ]);
    writeFileSync(join(ws, "shared.mjs"), "export const value = 1;\n");
    writeFileSync(join(ws, "b_inside", "own.mjs"), "export const value = 2;\n");
    const { status, report } = validate(ws, ["a_outside", "b_inside"]);
    expect(status).toBe(1);
    const outside = issuesOf(report, "a_outside");
    expect(outside.map((issue) => issue.code)).toEqual(["entry_load_failed"]);
    expect(outside[0]?.message).toMatch(/^selected tool entry failed to load: a_outside: .*shared\.mjs/);
    expect(issuesOf(report, "b_inside")).toEqual([]);
  });
});
