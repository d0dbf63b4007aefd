import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixtures, lines } from "./helpers.js";

const cwd = join(fixtures, "validate");
/** A rules file with a syntax error, a --tool folder whose entry has no handler, and a missing --hook folder. */
const BROKEN = [
  "--rules",
  "other/broken-rules.json",
  "--tool",
  "tools/no-handler",
  "--hook",
  "./no-such-hook",
];

/** The report lines of a load failure, without the summary line. */
function reportOf(stderr: string): string[] {
  return lines(stderr).filter((line) => !/^\d+ passed, \d+ failed$/.test(line));
}

describe("raw call, serve and mcp load rules, tools and hooks through one helper (load-workspace.ts)", () => {
  it("raw call reports every input that does not load in one run, and runs nothing", async () => {
    const run = await cli(["call", "no_handler", "--args", "{}", ...BROKEN], { cwd });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const report = reportOf(run.stderr);
    expect(report[0]).toBe("other/broken-rules.json  failed (1 error)");
    expect(report.some((line) => /^other\/broken-rules\.json:3:3 {2}json_invalid {2}/.test(line))).toBe(true);
    expect(
      report.some((line) =>
        / {2}hook_folder_missing {2}missing selected hook local\/no-such-hook/.test(line),
      ),
    ).toBe(true);
    expect(report).toContain(
      "tools/no-handler/tool.json:8:3  handler_invalid  invalid selected tool handler or validator: local/no-handler",
    );
    expect(lines(run.stderr).at(-1)).toBe("0 passed, 3 failed");
  });

  it("raw serve and raw mcp serve report the same inputs the same way (exit 1, nothing served)", async () => {
    const call = await cli(["call", "no_handler", "--args", "{}", ...BROKEN], { cwd });
    for (const argv of [
      ["serve", ...BROKEN],
      ["mcp", "serve", ...BROKEN],
    ]) {
      const run = await cli(argv, { cwd });
      expect(run.status, argv.join(" ")).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr, argv.join(" ")).toBe(call.stderr);
    }
  });

  it("raw mcp proxy loads no tools, and reports its broken rules and hooks together", async () => {
    const run = await cli(
      [
        "mcp",
        "proxy",
        "--rules",
        "other/broken-rules.json",
        "--hook",
        "./no-such-hook",
        "--",
        "node",
        "-e",
        "0",
      ],
      { cwd },
    );
    expect(run.status).toBe(1);
    const report = reportOf(run.stderr);
    expect(report[0]).toBe("other/broken-rules.json  failed (1 error)");
    expect(report.some((line) => line.includes("hook_folder_missing"))).toBe(true);
    expect(report.some((line) => line.includes("handler_invalid"))).toBe(false);
    expect(lines(run.stderr).at(-1)).toBe("0 passed, 2 failed");
  });
});
