import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

it("raw demo exits 0 and lists every package", () => {
  const run = spawnSync(process.execPath, [bin, "demo"], { encoding: "utf8" });
  expect(run.status).toBe(0);
  for (const name of ["schema", "predicate", "effects", "panel", "hook-protocol", "tool-api"]) {
    expect(run.stdout).toContain(`@raw/${name} `);
  }
});

it("an unknown command exits 2 with a message and no stack trace", () => {
  const run = spawnSync(process.execPath, [bin, "nope"], { encoding: "utf8" });
  expect(run.status).toBe(2);
  expect(run.stderr).toBe('raw: unknown command "nope"\n');
});
