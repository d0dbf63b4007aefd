import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bundleHost } from "./bundle.js";
import { startCluster, type TestCluster } from "./pg-harness.js";

const here = dirname(fileURLToPath(import.meta.url));
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 60_000);
afterAll(() => cluster?.stop());

it("the README example runs against a real server and prints its documented output", async () => {
  const readme = readFileSync(join(here, "..", "README.md"), "utf8");
  const code = /## Example\n\n(?:<!-- [^\n]* -->\n)?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  const output = /Output:\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(code).toBeDefined();
  mkdirSync(join(here, "fixtures", ".readme"), { recursive: true });
  writeFileSync(
    join(here, "fixtures", ".readme", "example.ts"),
    (code as string).replace('from "@raw/store-postgres"', 'from "../../../src/index.js"'),
  );
  const script = await bundleHost("fixtures/.readme/example.ts");
  const printed = execFileSync(process.execPath, [script], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, DATABASE_URL: cluster.url },
  });
  expect(printed).toBe(output);
});
