import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { appRoot, bin, fixtures, tempDir } from "./helpers.js";

// The MCP Inspector CLI (@modelcontextprotocol/inspector --cli, installed from npm): a real MCP client no one here
// wrote, driving `raw mcp serve` and `raw mcp proxy` over stdio. Its CLI declares no elicitation capability, so the
// ask path is the one for such clients: `approval_required`, never an implicit yes.
const require = createRequire(import.meta.url);
const inspectorPkg = dirname(require.resolve("@modelcontextprotocol/inspector/package.json"));
const inspector = join(
  inspectorPkg,
  (require(join(inspectorPkg, "package.json")) as { bin: Record<string, string> }).bin[
    "mcp-inspector"
  ] as string,
);
const filesystem = join(
  dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json")),
  "dist",
  "index.js",
);
const noteTool = join(fixtures, "mcp", "tools", "note");
const serveRules = join(fixtures, "mcp", "serve-rules.json");

function inspect(args: string[], server: string[]): { status: number | null; json: Record<string, unknown> } {
  const run = spawnSync(process.execPath, [inspector, "--cli", ...args, "--", ...server], {
    cwd: appRoot,
    encoding: "utf8",
    timeout: 60_000,
  });
  const start = run.stdout.indexOf("{");
  const end = run.stdout.lastIndexOf("}\n{");
  const text = run.stdout.slice(start, end === -1 ? undefined : end + 1);
  return { status: run.status, json: JSON.parse(text) as Record<string, unknown> };
}

const serve = (cwd: string) => [
  process.execPath,
  bin,
  "mcp",
  "serve",
  "--tool",
  noteTool,
  "--rules",
  serveRules,
  "--cwd",
  cwd,
];
const texts = (json: Record<string, unknown>) => (json.content as Array<{ text: string }>).map((b) => b.text);

describe("MCP Inspector CLI against raw mcp serve", () => {
  it("lists what policy exposes: the denied bash tool is absent", () => {
    const { json } = inspect(["--method", "tools/list"], serve(tempDir()));
    const names = (json.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toContain("note");
    expect(names).toContain("write_file");
    expect(names).not.toContain("bash");
  });

  it("calls a tool through the pipeline: the note is written in the session folder", () => {
    const cwd = tempDir();
    const { json } = inspect(
      [
        "--method",
        "tools/call",
        "--tool-name",
        "note",
        "--tool-arg",
        "name=plain",
        "--tool-arg",
        "text=hello",
      ],
      serve(cwd),
    );
    expect(json.isError).toBe(false);
    expect(texts(json)).toEqual(["noted plain"]);
    expect(readFileSync(join(cwd, "plain.note"), "utf8")).toBe("hello");
  });

  it("an ask for a client without elicitation is approval_required, and nothing is written", () => {
    const cwd = tempDir();
    const { json } = inspect(
      [
        "--method",
        "tools/call",
        "--tool-name",
        "note",
        "--tool-arg",
        "name=secret-1",
        "--tool-arg",
        "text=x",
      ],
      serve(cwd),
    );
    expect(json.isError).toBe(true);
    expect(json._meta).toEqual({ "raw/code": "approval_required" });
    expect(existsSync(join(cwd, "secret-1.note"))).toBe(false);
  });
});

describe("MCP Inspector CLI against raw mcp proxy", () => {
  it("lists the real filesystem server's tools without the denied one", () => {
    const root = tempDir();
    const { json } = inspect(
      ["--method", "tools/list"],
      [
        process.execPath,
        bin,
        "mcp",
        "proxy",
        "--rules",
        join(fixtures, "mcp", "rules.json"),
        "--name",
        "fs",
        "--",
        process.execPath,
        filesystem,
        root,
      ],
    );
    const names = (json.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toContain("write_file");
    expect(names).not.toContain("move_file");
  });
});
