import { describe, expect, it } from "vitest";
import {
  describeWriteFileEffects,
  MAX_PATCH_BYTES,
  parsePatch,
  safeParsePatch,
  validateWriteFileArgs,
} from "../src/index.js";
import { scanPatch } from "../src/parse-patch.js";
import { MAX_PATCH_SCAN_CACHE_ENTRIES, scannedPatch } from "../src/patch-scan-cache.js";

/** A patch of about `bytes` bytes: one Update section per file, many small hunks each; `tag` makes it distinct. */
function bigPatch(bytes: number, tag: string): string {
  const parts = ["*** Begin Patch"];
  let size = 32;
  for (let f = 0; size < bytes; f++) {
    parts.push(`*** Update File: src/${tag}/file${f}.ts`);
    for (let h = 0; h < 400 && size < bytes; h++) {
      const hunk = ["@@", ` function helper${h}() {`, `-  return ${h};`, `+  return ${h} * 2;`, " }"];
      parts.push(...hunk);
      size += hunk.join("\n").length + 1;
    }
    size += 40;
  }
  parts.push("*** End Patch");
  return `${parts.join("\n")}\n`;
}

/** A scanner that must not run: the scan has to come from the cache. */
const mustNotScan = (): never => {
  throw new Error("scanned again");
};

describe("patch scan cache", () => {
  it("scans a patch once per dispatch: validateArgs, describeEffects and the handler's parse share one scan", () => {
    const text = bigPatch(MAX_PATCH_BYTES - 2_000, "once");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PATCH_BYTES);
    expect(validateWriteFileArgs({ patch: text })).toBeUndefined();
    const scan = scannedPatch(text, mustNotScan);
    const effects = describeWriteFileEffects({ patch: text }, { cwd: "/repo" });
    const handler = safeParsePatch(text, { cwd: "/repo" });
    if (!handler.ok) throw new Error(handler.code);
    expect(scannedPatch(text, mustNotScan)).toBe(scan);
    expect(effects.files.length).toBe(handler.patch.length);
    expect(handler.patch[0]?.path).toBe("/repo/src/once/file0.ts");
    expect(parsePatch(text)[0]?.path).toBe("/src/once/file0.ts");
    expect(handler.patch[0]?.hunks[0]?.lines).toEqual([
      { kind: " ", text: "function helper0() {" },
      { kind: "-", text: "  return 0;" },
      { kind: "+", text: "  return 0 * 2;" },
      { kind: " ", text: "}" },
    ]);
  });

  it("shares no mutable data: what a caller changes never reaches the next parse of the same text", () => {
    const text = "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Add File: b\n+z\n*** End Patch\n";
    const first = parsePatch(text, { cwd: "/w" });
    const [update, add] = first;
    if (update === undefined || add === undefined) throw new Error("no change");
    update.path = "/elsewhere";
    (update.hunks[0]?.lines[0] as { text: string }).text = "changed";
    update.hunks.push({ lines: [], eof: true });
    add.added.push("w");
    const second = parsePatch(text, { cwd: "/w" });
    expect(second[0]?.path).toBe("/w/a");
    expect(second[0]?.hunks).toEqual([
      {
        lines: [
          { kind: "-", text: "x" },
          { kind: "+", text: "y" },
        ],
        eof: false,
      },
    ]);
    expect(second[1]?.added).toEqual(["z"]);
  });

  it("reports target failures per base directory from a shared scan, in text order before a later grammar failure", () => {
    const text =
      "*** Begin Patch\n*** Add File: a\n+1\n*** Add File: ./a\n+2\n*** Update File: c\n*** End Patch\n";
    expect(safeParsePatch(text)).toEqual({ ok: false, code: "patch_missing_hunk" });
    expect(safeParsePatch(text, { cwd: "/w" })).toEqual({ ok: false, code: "patch_repeated_target" });
    expect(safeParsePatch(text)).toEqual({ ok: false, code: "patch_missing_hunk" });
  });

  it(`keeps at most ${MAX_PATCH_SCAN_CACHE_ENTRIES} scans; the least recently used one is dropped`, () => {
    const first = bigPatch(200_000, "p0");
    parsePatch(first);
    const kept = scannedPatch(first, mustNotScan);
    for (let i = 1; i < MAX_PATCH_SCAN_CACHE_ENTRIES; i++) parsePatch(bigPatch(200_000, `p${i}`));
    expect(scannedPatch(first, mustNotScan)).toBe(kept); // used again: now the most recent
    for (let i = 1; i <= MAX_PATCH_SCAN_CACHE_ENTRIES; i++) parsePatch(bigPatch(200_000, `q${i}`));
    let scans = 0;
    const again = scannedPatch(first, (text) => {
      scans++;
      return scanPatch(text);
    });
    expect(scans).toBe(1);
    expect(again).toEqual(kept);
  });
});
