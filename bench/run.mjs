// Runs every benchmark suite in bench/suites, prints one table of ratios with their targets,
// and writes bench/results/latest.json. Usage: node run.mjs [suite-name-filter]
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";

const filter = process.argv[2];
const dir = new URL("./suites/", import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && (!filter || f.includes(filter)))
  .sort();

// The results stream (stdout) carries the table only. Whatever a suite or a peer prints goes to stderr, and
// console.debug is dropped, as the gemini CLI drops it unless --debug is given (gemini-cli-core's PolicyEngine
// writes two debug lines per call).
const print = (text) => process.stdout.write(`${text}\n`);
const toStderr = (...args) => process.stderr.write(`${args.map(String).join(" ")}\n`);
console.log = toStderr;
console.info = toStderr;
console.warn = toStderr;
console.debug = () => {};

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
      load: { load1: Number(os.loadavg()[0].toFixed(2)), cpus: os.cpus().length },
    });
  }
  process.stderr.write(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

const header = ["suite", "measure", "ratio", "target", "status", "load", "detail"];
const table = rows.map((r) => [
  r.suite,
  r.name,
  r.ratio === null ? "-" : `${r.ratio}x`,
  r.target,
  r.status,
  r.load ? `${r.load.load1}/${r.load.cpus}` : "-",
  r.detail ?? "",
]);
const widths = header.map((h, i) =>
  Math.max(h.length, ...table.map((t) => (String(t[i]).length > 60 && i === 6 ? 0 : String(t[i]).length))),
);
const line = (cells) => cells.map((c, i) => (i === 6 ? String(c) : String(c).padEnd(widths[i]))).join("  ");
print(line(header));
print(widths.map((w, i) => "-".repeat(i === 6 ? 6 : w)).join("  "));
for (const t of table) print(line(t));
const misses = rows.filter((r) => r.status === "MISS").length;
print(`\n${rows.length} measures, ${misses} MISS, ${((Date.now() - started) / 1000).toFixed(1)} s`);

mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL("./results/latest.json", import.meta.url),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      loadAtEnd: os.loadavg(),
      note: "every row carries the 1/5/15-minute load averages and the core count at the moment it was measured",
      rows: rows.map((r) => ({ ...r, node: process.version, cpu: os.cpus()[0]?.model })),
    },
    null,
    2,
  )}\n`,
);
