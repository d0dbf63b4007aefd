// Patch parser (issue 7 §6, issues 2 and 17): parsing a 1 MiB patch and reading every hunk line, against a plain line
// split that reads every line and against an eager hand-written parser that builds the same hunks. Every call gets
// a text no earlier call of that side used recently (8 distinct texts in rotation; the scan cache holds 4), so the
// rows measure unseen patches; the cached case is reported apart.
import { parsePatch } from "@raw/effects";
import { compare, info, row } from "../lib/harness.mjs";
import { handParsePatch } from "../lib/patch-floor.mjs";

const SUITE = "patch";
const TEXTS = 8;

/** A patch of about `bytes` bytes (at most the 1 MiB limit): many files, each with many small hunks. */
function bigPatch(bytes, tag) {
  const parts = ["*** Begin Patch"];
  let size = 16;
  for (let f = 0; size < bytes; f++) {
    const header = `*** Update File: src/${tag}/module${f}/file${f}.ts`;
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
  if (text.length <= 1_048_576) return text;
  // Cut at a hunk boundary under the limit; flatten so that no side pays for a rope the other does not.
  const cut = `${text.slice(0, text.lastIndexOf("\n@@", 1_048_576 - 20))}\n*** End Patch\n`;
  return Buffer.from(cut, "utf8").toString("utf8");
}

/** Reads every hunk line's text (what a patch applier does), so lazy work is counted. */
function readAll(changes) {
  let n = 0;
  for (const change of changes) {
    for (const hunk of change.hunks) for (const line of hunk.lines) n += line.text.length + line.kind.length;
    for (const added of change.added) n += added.length;
  }
  return n;
}

export async function run() {
  const texts = Array.from({ length: TEXTS }, (_, i) => bigPatch(1_048_000, `t${i}`));
  const bytes = Buffer.byteLength(texts[0]);
  // Same result from both parsers on every text.
  for (const text of texts) {
    const ours = readAll(parsePatch(text));
    const hand = readAll(handParsePatch(text));
    if (ours !== hand) throw new Error(`parsers disagree: ${ours} vs ${hand}`);
  }
  let sink = 0;
  let a = 0;
  let b = 0;
  let c = 0;
  const t = compare(
    {
      parseAndRead: () => {
        sink += readAll(parsePatch(texts[a++ % TEXTS]));
      },
      hand: () => {
        sink += readAll(handParsePatch(texts[b++ % TEXTS]));
      },
      split: () => {
        const lines = texts[c++ % TEXTS].split("\n");
        let n = 0;
        for (let i = 0; i < lines.length; i++) n += lines[i].length;
        sink += n;
      },
    },
    { rounds: 7, ms: 250 },
  );
  let d = 0;
  const cached = compare(
    {
      parseOnly: () => {
        sink += parsePatch(texts[d++ % TEXTS]).length;
      },
      cachedParse: () => {
        sink += parsePatch(texts[0]).length;
      },
    },
    { rounds: 5, ms: 150 },
  );
  const mbps = (ns) => (bytes / 1_048_576 / (ns / 1e9)).toFixed(0);
  return [
    row(
      SUITE,
      "parse + read every hunk / split + read every line (1 MiB, unseen)",
      t.parseAndRead / t.split,
      { max: 3 },
      `parse+read ${mbps(t.parseAndRead)} MB/s, split ${mbps(t.split)} MB/s, ${bytes.toLocaleString("en")} bytes, CPU time`,
    ),
    row(
      SUITE,
      "parse + read every hunk / eager hand-written parser (1 MiB, unseen)",
      t.parseAndRead / t.hand,
      { max: 1.3 },
      `parse+read ${mbps(t.parseAndRead)} MB/s, hand parser ${mbps(t.hand)} MB/s`,
    ),
    info(
      SUITE,
      "parse without reading hunks (what validateArgs and describeEffects do): unseen / cached text",
      `unseen ${mbps(cached.parseOnly)} MB/s (${(cached.parseOnly / 1e6).toFixed(2)} ms), cached ${(cached.cachedParse / 1e3).toFixed(1)} us per parse (the second and third parse of one dispatch); kept ${sink > 0}`,
    ),
  ];
}
