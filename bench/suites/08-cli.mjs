// CLI start-up (issue 7 §8, issue 17): `raw validate` on one bundled tool against `node -e 0` as interleaved pairs,
// on 1, 100 and 1,000 generated tool folders, and the peak RSS of `raw validate` on 100 folders against `node -e 0`.
// `raw validate` imports entries from copies it keeps in Raw's cache: the folder rows run it warm (after one run, as a
// tool author who validates after each fix), the cold rows give every run a cache folder never used before (a CI
// machine's first run). The floor row measures what any validator pays that imports entries in a child process
// (issue 11): a `node` that starts one `node` child and waits for it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { info, median, peakRssKb, processPairs, row, skipped, spread } from "../lib/harness.mjs";

const SUITE = "cli";
const app = fileURLToPath(new URL("../../apps/raw/", import.meta.url));
const bin = join(app, "dist/bin.js");

const MANIFEST = {
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

/** `count` tool folders generated from a small template (each with its own id and name) under `dir`. */
function toolFolders(dir, count) {
  const folders = [];
  for (let i = 0; i < count; i++) {
    const id = `echo_${i}`;
    const folder = join(dir, id);
    mkdirSync(folder);
    writeFileSync(join(folder, "tool.json"), `${JSON.stringify({ ...MANIFEST, id, name: id }, null, 2)}\n`);
    writeFileSync(
      join(folder, "index.mjs"),
      'export function handler(args) { return { isError: false, content: [{ type: "text", text: args.text }] }; }\n',
    );
    folders.push(folder);
  }
  return folders;
}

export async function run() {
  const rows = [];
  const node = { args: ["-e", "0"], cwd: app };
  const floor = processPairs(
    node,
    { args: ["-e", "require('node:child_process').spawnSync(process.execPath, ['-e', '0'])"], cwd: app },
    21,
  );
  rows.push(
    info(
      SUITE,
      "floor: node that starts one node child and waits for it / node -e 0, 21 interleaved pairs",
      `${(median(floor.b) / median(floor.a)).toFixed(2)}x; min/median/max ms: node with a child ${spread(floor.b, 0)}, node -e 0 ${spread(floor.a, 0)} (the least any validator pays that imports entries in a child process)`,
    ),
  );
  const one = processPairs(
    node,
    { args: [bin, "validate", join(app, "../../packages/tools/tools/bash")], cwd: app },
    21,
  );
  rows.push(
    row(
      SUITE,
      "raw validate (one bundled tool) / node -e 0, 21 interleaved pairs",
      median(one.b) / median(one.a),
      { max: 1.8 },
      `min/median/max ms: raw validate ${spread(one.b, 0)}, node -e 0 ${spread(one.a, 0)}; ratio of minimums ${(Math.min(...one.b) / Math.min(...one.a)).toFixed(2)}x; ${(median(one.b) / median(floor.b)).toFixed(2)}x the child-process floor`,
    ),
  );

  const dir = mkdtempSync(join(tmpdir(), "raw-bench-cli-"));
  try {
    const folders = toolFolders(dir, 1000);
    // Cold runs: a cache folder of their own each, under the bench's temporary folder (removed at the end, so
    // that no removal runs between the measured runs).
    let colds = 0;
    const coldEnv = () => {
      const cache = join(dir, `.cache-cold-${colds++}`);
      mkdirSync(cache);
      return { ...process.env, RAW_CACHE_DIR: cache };
    };
    for (const [count, pairs, limitMs, cold] of [
      [1, 11, undefined, false],
      [100, 7, 600, false],
      [1000, 3, 4000, false],
      [100, 5, 600, true],
      [1000, 3, 4000, true],
    ]) {
      const validate = { args: [bin, "validate", ...folders.slice(0, count)], cwd: dir };
      const t = processPairs(node, cold ? { ...validate, env: coldEnv } : validate, pairs);
      const ms = median(t.b);
      const detail = `min/median/max ms: raw validate ${spread(t.b, 0)}, node -e 0 ${spread(t.a, 0)} (${pairs} interleaved pairs; ${(ms / median(t.a)).toFixed(2)}x node -e 0)`;
      if (limitMs === undefined)
        rows.push(
          row(
            SUITE,
            "raw validate, 1 generated tool folder / node -e 0",
            ms / median(t.a),
            { max: 1.8 },
            `${detail}; ${(ms / median(floor.b)).toFixed(2)}x the child-process floor`,
          ),
        );
      else
        rows.push(
          row(
            SUITE,
            `raw validate, ${count.toLocaleString("en")} tool folders${cold ? ", cold cache" : ""} / ${limitMs / 1000} s`,
            ms / limitMs,
            { max: 1 },
            detail,
          ),
        );
    }

    const rss = [];
    for (let i = 0; i < 3; i++) {
      const base = peakRssKb(["-e", "0"], dir);
      const hundred = peakRssKb([bin, "validate", ...folders.slice(0, 100)], dir);
      if (base === undefined || hundred === undefined) break;
      rss.push([base, hundred]);
    }
    if (rss.length === 0)
      rows.push(skipped(SUITE, "peak RSS, raw validate on 100 tools", "/usr/bin/time is missing"));
    else {
      const base = median(rss.map((r) => r[0]));
      const hundred = median(rss.map((r) => r[1]));
      rows.push(
        row(
          SUITE,
          "peak RSS: raw validate on 100 tool folders / node -e 0",
          hundred / base,
          { max: 1.5 },
          `${(hundred / 1024).toFixed(1)} MiB vs ${(base / 1024).toFixed(1)} MiB (median of 3, /usr/bin/time %M)`,
        ),
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
