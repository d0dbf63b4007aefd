/**
 * Starter folders for authors: a `raw.tool-api/2` tool folder and a `raw.hook/2` hook folder, each valid as
 * written (`validatePaths` reports them clean) and carrying a `node:test` test of its own. `raw init tool|hook`
 * writes them; any other host or editor extension can too.
 */

import type { HookManifestJson } from "@raw/hook-protocol";
import type { ToolManifestJson } from "@raw/tool-api";

/** The tool ids `raw init tool` accepts (tool-api.md §2.1 `id`, also a valid model-facing name). */
export const SCAFFOLD_TOOL_ID = /^[a-z][a-z0-9_-]{0,63}$/;

/** The hook names `raw init hook` accepts (hooks.md §3.1 `name`, at most 64 bytes). */
export const SCAFFOLD_HOOK_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/** The published `tool.json` schema (its `$id`), written as the editor hint `$schema` (amendment A9). */
export const TOOL_MANIFEST_SCHEMA_URL = "https://raw.tlelabs.com/schemas/raw.tool-api/2/tool.schema.json";

/** The published `hook.json` schema (its `$id`), written as the editor hint `$schema` (amendment A9). */
export const HOOK_MANIFEST_SCHEMA_URL = "https://raw.tlelabs.com/schemas/raw.hook/2/hook.schema.json";

/** The files of a scaffolded folder: relative name → content, in the order they are best written and listed. */
export type Scaffold = ReadonlyArray<readonly [string, string]>;

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A `raw.tool-api/2` tool folder: arguments, `validateArgs`, intended effects, a handler, and a `node:test` test. */
export function toolScaffold(id: string): Scaffold {
  const manifest: ToolManifestJson = {
    $schema: TOOL_MANIFEST_SCHEMA_URL,
    api_version: 2,
    id,
    version: "0.1.0",
    name: id,
    description:
      "Appends one line of text to a file under the working directory, creating the file and its folders when missing. The result is one line saying how many bytes were appended.",
    input_schema: {
      type: "object",
      additionalProperties: false,
      required: ["path", "line"],
      properties: {
        path: { type: "string", minLength: 1, description: "The file, relative to the working directory." },
        line: { type: "string", description: "The text to append, without a line break." },
      },
    },
    entry: "./index.mjs",
    condition_sources: ["arguments", "effects"],
    effects_schema: {
      type: "object",
      additionalProperties: false,
      required: ["files"],
      properties: {
        files: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["path", "operation"],
            properties: { path: { type: "string" }, operation: { type: "string", enum: ["write"] } },
          },
        },
      },
    },
  };
  const index = `// A raw.tool-api/2 tool: tool.json describes it, this module implements it.
import { constants } from "node:fs";
import { mkdir, open, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Line breaks a line must not hold: LF, VT, FF, CR, NEL, LINE and PARAGRAPH SEPARATOR. */
const LINE_BREAK = /[\\n\\v\\f\\r\\u0085\\u2028\\u2029]/;

/** True when \`path\` lies strictly inside the folder \`root\`. */
function inside(root, path) {
  const rel = relative(root, path);
  return rel !== "" && rel !== ".." && !rel.startsWith(\`..\${sep}\`) && !isAbsolute(rel);
}

/** Checks what the JSON Schema cannot express: return a message to reject the arguments, undefined to accept. */
export function validateArgs(args) {
  if (isAbsolute(args.path) || args.path.split(/[\\\\/]/).includes("..")) {
    return "path must be relative to the working directory and stay under it (no .. segments)";
  }
  return LINE_BREAK.test(args.line) ? "line must not contain a line break" : undefined;
}

/** The intended effects, computed before policy: synchronous and lexical (it never touches the disk). */
export function describeEffects(args, { cwd }) {
  return { files: [{ path: resolve(cwd, args.path), operation: "write" }] };
}

function failure(code, text) {
  return { isError: true, code, content: [{ type: "text", text }] };
}

/**
 * Runs an approved call. \`args\` is frozen; \`context.effects\` is the snapshot hooks and approval saw. Every folder
 * on the way and the file itself must stay under the working directory once links are followed, and the file must
 * be a regular file: a link out of the folder, a FIFO or a device is refused, never written.
 */
export async function handler(args, context) {
  const refused = validateArgs(args);
  if (refused !== undefined) return failure("path_outside", \`cannot write \${args.path}: \${refused}\`);
  let handle;
  try {
    const root = await realpath(context.cwd);
    const target = resolve(root, args.path);
    if (!inside(root, target)) return failure("path_outside", \`cannot write \${args.path}: outside the working directory\`);
    let folder = root;
    for (const part of relative(root, dirname(target)).split(sep).filter(Boolean)) {
      await mkdir(join(folder, part)).catch((error) => {
        if (error?.code !== "EEXIST") throw error;
      });
      folder = await realpath(join(folder, part));
      if (!inside(root, folder)) return failure("path_outside", \`cannot write \${args.path}: outside the working directory\`);
    }
    const flags =
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
    handle = await open(join(folder, basename(target)), flags, 0o666);
    if (!(await handle.stat()).isFile()) return failure("not_regular_file", \`cannot write \${args.path}: not a regular file\`);
    const text = \`\${args.line}\\n\`;
    await handle.appendFile(text);
    const bytes = Buffer.byteLength(text);
    return { isError: false, content: [{ type: "text", text: \`appended \${bytes} bytes to \${args.path}\` }] };
  } catch (error) {
    const reason = error?.code === "ELOOP" ? "it is a symbolic link" : (error?.code ?? String(error?.message ?? error));
    return failure("write_failed", \`cannot write \${args.path}: \${reason}\`);
  } finally {
    await handle?.close();
  }
}
`;
  const test = `// Run: node --test ${"<this folder>"}/test.mjs   Then check the folder as a host loads it: npm run raw -- validate <this folder>
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { describeEffects, handler, validateArgs } from "./index.mjs";

test("validateArgs accepts one line under the working directory and rejects a line break or a way out", () => {
  assert.equal(validateArgs({ path: "notes.txt", line: "hello" }), undefined);
  assert.equal(validateArgs({ path: "notes.txt", line: "a\\nb" }), "line must not contain a line break");
  assert.equal(validateArgs({ path: "notes.txt", line: "a\\u2028b" }), "line must not contain a line break");
  assert.match(validateArgs({ path: "../outside.txt", line: "x" }), /stay under it/);
  assert.match(validateArgs({ path: "/etc/outside.txt", line: "x" }), /stay under it/);
});

test("describeEffects names the absolute, normalized path", () => {
  const cwd = resolve("/project");
  assert.deepEqual(describeEffects({ path: "a/../notes.txt", line: "x" }, { cwd }), {
    files: [{ path: join(cwd, "notes.txt"), operation: "write" }],
  });
});

test("handler appends the line", async () => {
  const cwd = await mkdtemp(join(tmpdir(), "${id}-"));
  try {
    const args = Object.freeze({ path: "notes/today.txt", line: "hello" });
    const effects = describeEffects(args, { cwd });
    const result = await handler(args, { cwd, maxOutputBytes: 65536, effects });
    assert.deepEqual(result, {
      isError: false,
      content: [{ type: "text", text: "appended 6 bytes to notes/today.txt" }],
    });
    assert.equal(await readFile(join(cwd, "notes", "today.txt"), "utf8"), "hello\\n");
    await symlink(tmpdir(), join(cwd, "out"));
    const escaped = await handler(Object.freeze({ path: "out/escaped.txt", line: "x" }), { cwd, maxOutputBytes: 65536 });
    assert.equal(escaped.code, "path_outside");
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
});
`;
  return [
    ["tool.json", json(manifest)],
    ["index.mjs", index],
    ["test.mjs", test],
  ];
}

/** A `raw.hook/2` hook folder: a `PreToolUse` gate on `builtin/bash` removals, and a `node:test` test. */
export function hookScaffold(name: string): Scaffold {
  const manifest: HookManifestJson = {
    $schema: HOOK_MANIFEST_SCHEMA_URL,
    protocol_version: 2,
    name,
    events: [
      {
        name: "PreToolUse",
        match: "builtin/bash",
        when: { source: "arguments", any: "commands[*].command", regex: "(^|[;&|()\\n])\\s*rm(\\s|$)" },
      },
    ],
    command: "node",
    args: ["./index.mjs"],
    timeout_ms: 5000,
  };
  const index = `// A raw.hook/2 hook: one JSON request line on stdin, one JSON object (or nothing) on stdout.
// {} or no output continues; {"decision":"deny","reason":"..."} denies; so does exit status 2.
const REMOVAL = /(^|[;&|()\\n])\\s*rm(\\s|$)/;

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const request = JSON.parse(input);
  const commands = request.tool?.arguments?.commands ?? [];
  const removal = commands.find((entry) => REMOVAL.test(entry.command));
  const answer = removal ? { decision: "deny", reason: \`review this removal first: \${removal.command}\` } : {};
  process.stdout.write(\`\${JSON.stringify(answer)}\\n\`);
});
`;
  const test = `// Run: node --test ${"<this folder>"}/test.mjs   Then check the folder as a host loads it: npm run raw -- validate <this folder>
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const hook = fileURLToPath(new URL("./index.mjs", import.meta.url));

/** Runs the hook as a host does: the request as one line on stdin, the answer from stdout. */
function run(request) {
  const child = spawnSync(process.execPath, [hook], { input: \`\${JSON.stringify(request)}\\n\`, encoding: "utf8" });
  return { status: child.status, answer: child.stdout.trim() === "" ? {} : JSON.parse(child.stdout) };
}

function preToolUse(command) {
  return {
    protocol_version: 2,
    event: "PreToolUse",
    cwd: process.cwd(),
    tool: { identity: "builtin/bash", name: "bash", source: "model", arguments: { commands: [{ command }] } },
  };
}

test("denies a command that removes files", () => {
  const { status, answer } = run(preToolUse("ls && rm -rf build"));
  assert.equal(status, 0);
  assert.deepEqual(answer, { decision: "deny", reason: "review this removal first: ls && rm -rf build" });
});

test("continues otherwise", () => {
  assert.deepEqual(run(preToolUse("ls -la")), { status: 0, answer: {} });
});
`;
  return [
    ["hook.json", json(manifest)],
    ["index.mjs", index],
    ["test.mjs", test],
  ];
}
