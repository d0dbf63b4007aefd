import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const example = fileURLToPath(new URL("../../../examples/host/", import.meta.url));

describe("examples/host (a tool folder, rules, a hook, a panel, describeApproval)", () => {
  it("prints what examples/host/expected.txt holds, with the built packages", () => {
    const run = spawnSync(process.execPath, ["host.mjs"], {
      cwd: example,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(readFileSync(`${example}expected.txt`, "utf8"));
  });
});
