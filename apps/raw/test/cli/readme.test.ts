import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { appRoot, bin, fixtures, tempDir } from "./helpers.js";

const repoRoot = join(appRoot, "..", "..");
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

interface Block {
  lang: string;
  body: string;
  start: number;
  end: number;
}

/** The fenced code blocks of a Markdown text, in order. */
function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  for (const match of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    const start = match.index ?? 0;
    found.push({ lang: match[1] ?? "", body: match[2] ?? "", start, end: start + match[0].length });
  }
  return found;
}

// The one way the READMEs run the CLI: a package script, which never downloads a package called `raw`.
const RAW = /^npm run raw -- /;

interface Command {
  line: string;
  exit: number;
  /** The output block shown right after a block holding only this command. */
  output?: string;
}

/** Every `npm run raw --` line of the README's `sh` blocks, with its expected exit status and shown output. */
function commands(markdown: string): Command[] {
  const all = blocks(markdown);
  const out: Command[] = [];
  all.forEach((block, i) => {
    if (block.lang !== "sh") return;
    const lines = block.body.split("\n").filter((line) => RAW.test(line.trim()));
    const next = all[i + 1];
    const adjacent = next?.lang === "text" && markdown.slice(block.end, next.start).trim() === "";
    for (const line of lines) {
      const exit = Number(/#\s*exit (\d+)\s*$/.exec(line)?.[1] ?? 0);
      const command: Command = { line: line.trim(), exit };
      if (adjacent && lines.length === 1 && next) command.output = next.body;
      out.push(command);
    }
  });
  return out;
}

describe("the root README", () => {
  it("keeps the two fresh-clone commands", () => {
    expect(readme).toContain("```sh\nnpm install && npm start\n```");
    expect(readme).toContain("```sh\nnpm install && npm test\n```");
  });

  it("runs the CLI only through `npm run raw --`, never npx or npm exec (they download a package named raw)", () => {
    const readmes = [readme, readFileSync(join(appRoot, "README.md"), "utf8")];
    for (const text of readmes) {
      for (const block of blocks(text).filter((b) => b.lang === "sh" || b.lang === "yaml")) {
        expect(block.body).not.toMatch(/\b(npx|npm exec|npm x)\s+(--\S+\s+)*raw\b/);
        expect(block.body).not.toMatch(/^\s*(- run: )?raw /m);
      }
    }
    const scripts = (
      JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.raw).toBe("node apps/raw/dist/bin.js");
  });

  it("every raw command it (and apps/raw/README.md) shows runs against the fixtures, with the exit status and output it shows", () => {
    const project = tempDir("raw-readme-");
    cpSync(join(fixtures, "readme"), project, { recursive: true });
    const found = [...commands(readme), ...commands(readFileSync(join(appRoot, "README.md"), "utf8"))];
    expect(found.length).toBeGreaterThanOrEqual(16);
    for (const command of found) {
      const shell = command.line.replace(RAW, `"${process.execPath}" "${bin}" `);
      const run = spawnSync("sh", ["-c", shell], { cwd: project, encoding: "utf8", timeout: 60_000 });
      expect(run.status, `${command.line}\n${run.stdout}${run.stderr}`).toBe(command.exit);
      expect(run.stderr, command.line).not.toMatch(/internal_error|^\s+at /m);
      if (command.output !== undefined) expect(run.stdout, command.line).toBe(command.output);
    }
  }, 180_000);

  it("the host snippet type-checks against the packages and prints what its comments say", () => {
    const snippets = blocks(readme).filter((block) => block.lang === "ts");
    expect(snippets).toHaveLength(1);
    const source = snippets[0]?.body ?? "";
    // Under node_modules of this package, so `@raw/tool-api` resolves as it does for a user.
    const dir = join(appRoot, "node_modules", ".cache", `raw-readme-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const file = join(dir, "snippet.mts");
      writeFileSync(file, source);
      const program = ts.createProgram([file], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: true,
        types: ["node"],
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(diagnostics).toEqual([]);
      const js = ts.transpileModule(source, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
      writeFileSync(join(dir, "snippet.mjs"), js);
      const run = spawnSync(process.execPath, [join(dir, "snippet.mjs")], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      const expected = [...source.matchAll(/\/\/ → (.*)$/gm)].map((match) => match[1]);
      expect(run.stdout.split("\n").filter(Boolean)).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
