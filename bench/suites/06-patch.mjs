// Patch parser throughput against a plain line split of the same text (issue 7 §6, issue 2).
import { parsePatch } from "@raw/effects";
import { compare, info, row } from "../lib/harness.mjs";

const SUITE = "patch";

/** A patch of about `bytes` bytes: many files, each with many small hunks. */
function bigPatch(bytes) {
  const parts = ["*** Begin Patch"];
  let size = 16;
  for (let f = 0; size < bytes; f++) {
    const header = `*** Update File: src/module${f}/file${f}.ts`;
    parts.push(header);
    size += header.length + 1;
    for (let h = 0; h < 400 && size < bytes; h++) {
      const hunk = [
        "@@",
        ` export function helper${h}(value: number): number {`,
        `-  return value + ${h};`,
        `+  return value * ${h} + 1;`,
        " }",
      ];
      parts.push(...hunk);
      size += hunk.reduce((n, l) => n + l.length + 1, 0);
    }
  }
  parts.push("*** End Patch");
  const text = `${parts.join("\n")}\n`;
  return text.length > 1_048_576
    ? text.slice(0, text.lastIndexOf("\n@@", 1_048_576 - 20)) + "\n*** End Patch\n"
    : text;
}

export async function run() {
  const text = bigPatch(1_048_000);
  const bytes = Buffer.byteLength(text);
  parsePatch(text); // must parse
  const t = compare({ parse: () => parsePatch(text), split: () => text.split("\n") }, { rounds: 7, ms: 200 });
  const full = compare(
    {
      parseAndRead: () => {
        let n = 0;
        for (const change of parsePatch(text)) for (const hunk of change.hunks) n += hunk.lines.length;
        return n;
      },
      split: () => text.split("\n"),
    },
    { rounds: 5, ms: 200 },
  );
  const mbps = (ns) => (bytes / 1_048_576 / (ns / 1e9)).toFixed(0);
  return [
    row(
      SUITE,
      "parsePatch / split (1 MiB, many small hunks)",
      t.parse / t.split,
      { max: 3 },
      `parse ${mbps(t.parse)} MB/s, split ${mbps(t.split)} MB/s, ${bytes.toLocaleString("en")} bytes`,
    ),
    info(
      SUITE,
      "parse + read every hunk line",
      `${mbps(full.parseAndRead)} MB/s (${(full.parseAndRead / full.split).toFixed(2)}x split)`,
    ),
  ];
}
