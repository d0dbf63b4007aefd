import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { PUBLISHED_DIRS, repoRoot } from "./workspaces.js";

// Snippets live under the repository's node_modules, so `@raw/*` resolves through the workspace links to the
// built packages exactly as it does for a user who installed them.
const dir = join(repoRoot, "node_modules", ".cache", `raw-readme-snippets-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Snippet {
  readme: string;
  lang: string;
  body: string;
  line: number;
}

/** The fenced `ts`, `js` and `json` blocks of a README, with their first line number. */
function snippets(readme: string): Snippet[] {
  const text = readFileSync(join(repoRoot, readme), "utf8");
  // A block right after `<!-- snippet: runs in <test file> -->` needs a real service (a database, an MCP client)
  // and is run by that package test instead; the test file must exist.
  const matches = [...text.matchAll(/^```(ts|js|json)\n([\s\S]*?)^```$/gm)].filter((match) => {
    const before = text.slice(0, match.index).trimEnd();
    const marker = /<!-- snippet: runs in (\S+) -->$/.exec(before);
    if (!marker) return true;
    if (!existsSync(join(repoRoot, dirname(readme), marker[1] ?? "")))
      throw new Error(`${readme}: ${marker[1]} does not exist`);
    return false;
  });
  return matches.map((match) => ({
    readme,
    lang: match[1] ?? "",
    body: match[2] ?? "",
    line: text.slice(0, match.index).split("\n").length,
  }));
}

// The root README's host snippet is type-checked and run by apps/raw/test/cli/readme.test.ts.
const all = PUBLISHED_DIRS.flatMap((workspace) => snippets(`${workspace}/README.md`));

/** Type-checks one TypeScript module as a user's strict project would (ESM, nodenext). */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: ["node"],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** Runs one ES module with this Node; returns its exit status and standard error. */
function execute(file: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, stderr: run.stderr };
}

describe("README snippets of every published package", () => {
  it("finds the snippets", () => {
    expect(all.filter((snippet) => snippet.lang !== "json").length).toBeGreaterThanOrEqual(8);
  });

  it.each(all.map((snippet) => [`${snippet.readme}:${snippet.line} (${snippet.lang})`, snippet] as const))(
    "%s compiles under strict TypeScript and runs",
    (_name, snippet) => {
      const base = join(dir, `${snippet.readme.replace(/[/.]/g, "_")}_${snippet.line}`);
      if (snippet.lang === "json") {
        expect(() => JSON.parse(snippet.body)).not.toThrow();
        return;
      }
      const js = `${base}.mjs`;
      if (snippet.lang === "ts") {
        const source = `${base}.mts`;
        writeFileSync(source, snippet.body);
        expect(typeErrors(source)).toEqual([]);
        const out = ts.transpileModule(snippet.body, {
          compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
        }).outputText;
        writeFileSync(js, out);
      } else {
        writeFileSync(js, snippet.body);
      }
      const run = execute(js);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
    },
  );
});
