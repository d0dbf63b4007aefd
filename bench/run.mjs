// Runs every benchmark suite in bench/suites, prints one table of ratios with their targets,
// and writes bench/results/latest.json. Usage: node run.mjs [suite-name-filter]
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";

const filter = process.argv[2];
const dir = new URL("./suites/", import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && (!filter || f.includes(filter)))
  .sort();

const rows = [];
const started = Date.now();
for (const file of files) {
  const suite = await import(new URL(file, dir).href);
  const t0 = Date.now();
  process.stderr.write(`running ${file} ...\n`);
  try {
    rows.push(...(await suite.run()));
  } catch (error) {
    rows.push({
      suite: file,
      name: "suite failed",
      ratio: null,
      target: "-",
      status: "MISS",
      detail: String(error?.stack ?? error),
    });
  }
  process.stderr.write(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

const header = ["suite", "measure", "ratio", "target", "status", "detail"];
const table = rows.map((r) => [
  r.suite,
  r.name,
  r.ratio === null ? "-" : `${r.ratio}x`,
  r.target,
  r.status,
  r.detail ?? "",
]);
const widths = header.map((h, i) =>
  Math.max(h.length, ...table.map((t) => (String(t[i]).length > 60 && i === 5 ? 0 : String(t[i]).length))),
);
const line = (cells) => cells.map((c, i) => (i === 5 ? String(c) : String(c).padEnd(widths[i]))).join("  ");
console.log(line(header));
console.log(widths.map((w, i) => "-".repeat(i === 5 ? 6 : w)).join("  "));
for (const t of table) console.log(line(t));
const misses = rows.filter((r) => r.status === "MISS").length;
console.log(`\n${rows.length} measures, ${misses} MISS, ${((Date.now() - started) / 1000).toFixed(1)} s`);

mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL("./results/latest.json", import.meta.url),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      rows,
    },
    null,
    2,
  )}\n`,
);
