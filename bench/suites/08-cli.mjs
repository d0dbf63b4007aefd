// CLI start-up: `raw validate` on one bundled tool against `node -e 0`, and on 100 generated tool folders (issue 7 §8).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, row } from "../lib/harness.mjs";

const SUITE = "cli";
const app = fileURLToPath(new URL("../../apps/raw/", import.meta.url));
const bin = join(app, "dist/bin.js");

function timeRun(args, cwd) {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`${args.join(" ")} exited ${run.status}: ${run.stdout}${run.stderr}`);
  return ms;
}

export async function run() {
  const one = join(app, "tools/bash");
  const samples = { node: [], validate: [] };
  timeRun([bin, "validate", one], app);
  for (let i = 0; i < 15; i++) {
    samples.node.push(timeRun(["-e", "0"], app));
    samples.validate.push(timeRun([bin, "validate", one], app));
  }
  const node = median(samples.node);
  const validate = median(samples.validate);

  // 100 tool folders generated from a small template (each with its own id and name).
  const dir = mkdtempSync(join(tmpdir(), "raw-bench-cli-"));
  try {
    const manifest = {
      api_version: 2,
      version: "1.0.0",
      description: "Echoes its input. The result is one text block.",
      input_schema: {
        type: "object",
        additionalProperties: false,
        required: ["text"],
        properties: {
          text: { type: "string", maxLength: 1000 },
          repeat: { type: "integer", minimum: 1, maximum: 5 },
        },
      },
      entry: "./index.mjs",
    };
    const folders = [];
    for (let i = 0; i < 100; i++) {
      const id = `echo_${i}`;
      const folder = join(dir, id);
      mkdirSync(folder);
      writeFileSync(join(folder, "tool.json"), `${JSON.stringify({ ...manifest, id, name: id }, null, 2)}\n`);
      writeFileSync(
        join(folder, "index.mjs"),
        'export function handler(args) { return { isError: false, content: [{ type: "text", text: args.text }] }; }\n',
      );
      folders.push(folder);
    }
    const hundred = [];
    for (let i = 0; i < 3; i++) hundred.push(timeRun([bin, "validate", ...folders], dir));
    const many = median(hundred);
    return [
      row(
        SUITE,
        "raw validate (one bundled tool) / node -e 0",
        validate / node,
        { max: 2.5 },
        `raw validate ${validate.toFixed(0)} ms, node -e 0 ${node.toFixed(0)} ms`,
      ),
      row(SUITE, "raw validate, 100 tool folders / 1 s", many / 1000, { max: 1 }, `${many.toFixed(0)} ms`),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
