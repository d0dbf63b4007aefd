import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openHostSession } from "@raw/host";
import { parseRules } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import { gateTools, outsideFolderPattern } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## In front of any ACP agent"));
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1],
  code: m[2] as string,
}));
const project = "/home/me/project";

describe("README: the gate section", () => {
  it("the rules file is valid, binds to the gate's tools and decides as the README says", async () => {
    const rules = JSON.parse(blocks[0]?.code as string);
    expect(parseRules(rules).ok).toBe(true);
    expect(rules[3].when.regex).toBe(outsideFolderPattern(project));
    const session = openHostSession({ cwd: project, tools: gateTools("gemini-cli"), rules });
    const write = (path: string) =>
      session.explain(
        "acp/gemini-cli/fs/write_text_file",
        { path, content: "" },
        { files: [{ path, operation: "write" }] },
      ).decision;
    expect(write(`${project}/src/a.ts`)).toBe("allow");
    expect(write("/home/me/.bashrc")).toBe("ask");
    expect(write("/home/me/project2/a")).toBe("ask");
    expect(session.explain("acp/gemini-cli/fs/read_text_file", { path: "/etc/hosts" }).decision).toBe(
      "allow",
    );
    expect(session.explain("acp/gemini-cli/terminal/create", { command: "ls" }, {}).decision).toBe("ask");
    expect(session.explain("acp/gemini-cli/tool/read", {}, { files: [] }).decision).toBe("ask");
    await session.close();
  });

  it("the hook shown is the one the tests run; the Zed entry wraps an agent with raw acp proxy", () => {
    const fixture = join(here, "fixtures", "protect");
    expect(JSON.parse(blocks[1]?.code as string)).toEqual(
      JSON.parse(readFileSync(join(fixture, "hook.json"), "utf8")),
    );
    expect(blocks[2]?.code).toBe(readFileSync(join(fixture, "index.mjs"), "utf8"));
    const zed = JSON.parse(blocks[3]?.code as string);
    const args = zed.agent_servers["Gemini behind Raw"].args as string[];
    expect(args.slice(0, 4)).toEqual(["-y", "@raw/cli", "acp", "proxy"]);
    expect(args).toContain("--");
  });
});
