import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serverEntry, tempDir } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1],
  code: m[2] as string,
}));
const scratch = join(here, ".readme");

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe("README", () => {
  it("the mountMcpServer example runs as printed (the npx command swapped for the installed server)", async () => {
    const code = blocks.find((b) => b.lang === "js" && b.code.includes("mountMcpServer"))?.code as string;
    const launch = 'command: "npx",\n  args: ["-y", "@modelcontextprotocol/server-filesystem", folder],';
    expect(code).toContain(launch);
    const folder = tempDir();
    const runnable = code
      .replace(
        launch,
        `command: process.execPath,\n  args: [${JSON.stringify(serverEntry("@modelcontextprotocol/server-filesystem"))}, folder],`,
      )
      .replace("const folder = process.cwd();", `const folder = ${JSON.stringify(folder)};`);
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, "mount-example.ts");
    writeFileSync(file, runnable);
    const logged: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((...args) => {
      logged.push(args[0]);
    });
    await import(file);
    expect(logged).toEqual([[], false, "approval_required"]);
  });

  it("the example rules parse and decide as the README says", async () => {
    const { createPolicy, parseRules } = await import("@raw/tool-api");
    const shown = blocks.find((b) => b.lang === "json" && b.code.includes('"mcp/filesystem/read_*"'))
      ?.code as string;
    const file = readFileSync(join(here, "..", "examples", "filesystem", "rules.json"), "utf8");
    expect(JSON.parse(shown)).toEqual(JSON.parse(file));
    const parsed = parseRules(JSON.parse(file));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const policy = createPolicy(parsed.rules);
    expect(policy.evaluate("mcp/filesystem/read_text_file")).toBe("allow");
    expect(policy.evaluate("mcp/filesystem/list_directory")).toBe("allow");
    expect(policy.evaluate("mcp/filesystem/write_file")).toBe("ask");
    expect(policy.evaluate("mcp/filesystem/move_file")).toBe("ask");
  });

  it("every code of the table is one the package exports", async () => {
    const { MCP_CODES } = await import("../src/index.js");
    for (const code of Object.values(MCP_CODES)) expect(readme).toContain(`\`${code}\``);
  });
});
