// Hostile inputs stay linear (issue 24 item 7): the unit tests check what these inputs give (no clock); how the cost
// grows with the input is measured here. Each row is a growth ratio in one run: the cost on the large input divided
// by `factor` times the cost on an input `factor` times smaller, measured interleaved (linear growth = 1x; quadratic
// growth would read about `factor`x).
import { parsePatch } from "@raw/effects";
import { renderMarkdown } from "@raw/panel-web";
import { re2jsEngine } from "@raw/predicate";
import { safeCompileObjectSchema } from "@raw/schema";
import { compare, row } from "../lib/harness.mjs";

const SUITE = "bounds";

/** Growth within the target: at most 1.5x linear (noise), far below the `factor`x of quadratic growth. */
const LINEAR = { max: 1.5 };

const ms = (ns) => `${(ns / 1e6).toFixed(2)} ms`;

/** The cost of `work(large)` over `factor` times the cost of `work(small)`, CPU time, interleaved rounds. */
function growth(work, small, large, factor) {
  const t = compare({ small: () => work(small), large: () => work(large) }, { rounds: 5, ms: 60 });
  return { ratio: t.large / (factor * t.small), detail: `small ${ms(t.small)}, large ${ms(t.large)}` };
}

export async function run() {
  const rows = [];

  // The literal gate of a regex (packages/predicate/test/regex-engine.test.ts): 64 literals sharing the prefix
  // `/dev/sd` against a text that is that prefix repeated, with no literal in it.
  const literals = Array.from({ length: 64 }, (_, i) => `/dev/sd${String.fromCharCode(0x100 + i)}`);
  const regex = re2jsEngine.compile(`(?:${literals.join("|")})`);
  {
    const g = growth((text) => regex.test(text), "/dev/sd".repeat(15_000), "/dev/sd".repeat(150_000), 10);
    rows.push(
      row(SUITE, "literal gate, 64 literals sharing a prefix: 1 MB / 10 x 100 KB", g.ratio, LINEAR, g.detail),
    );
  }

  // A patch whose failure (a git header) is its last line (packages/effects/test/patch-hints.test.ts): the parse
  // fails there and the hint names the line.
  const patch = (lines) =>
    [
      "*** Begin Patch",
      "*** Add File: big",
      ...Array.from({ length: lines }, (_, i) => `+line ${i}`),
      "diff --git a/x b/x",
      "*** End Patch",
    ].join("\n");
  {
    const hintOf = (text) => {
      try {
        parsePatch(text);
      } catch (error) {
        return error.hint;
      }
      throw new Error("the patch parsed");
    };
    // Distinct texts per call would defeat nothing here: a failed scan is cached like any other, so each side
    // rotates through 8 texts (the scan cache holds 4) that differ in their first added line.
    const pool = (lines) =>
      Array.from({ length: 8 }, (_, k) => patch(lines).replace("+line 0", `+line 0 ${k}`));
    let i = 0;
    const g = growth((texts) => hintOf(texts[i++ % texts.length]), pool(6_000), pool(60_000), 10);
    rows.push(row(SUITE, "patch hint at the end: 60,000 lines / 10 x 6,000", g.ratio, LINEAR, g.detail));
  }

  // Markdown nested deeper than any renderer keeps (packages/panel-web/test/markdown.test.ts).
  {
    const g = growth(renderMarkdown, `${"> ".repeat(800)}deep`, `${"> ".repeat(8_000)}deep`, 10);
    rows.push(row(SUITE, "markdown, deep nesting: 8,000 levels / 10 x 800", g.ratio, LINEAR, g.detail));
  }

  // Schema diagnostics that stop at 100 issues (packages/schema/test/schema-diagnostics.test.ts).
  {
    const unknown = (n) => {
      const schema = { type: "object" };
      for (let k = 0; k < n; k++) schema[`k${k}`] = k;
      return schema;
    };
    const compile = (schema) => safeCompileObjectSchema(schema, { name: "bench", pointer: "/input_schema" });
    const g = growth(compile, unknown(500), unknown(5_000), 10);
    rows.push(
      row(SUITE, "schema diagnostics, unknown keywords: 5,000 / 10 x 500", g.ratio, LINEAR, g.detail),
    );
    const invalid = (n) => {
      const properties = {};
      for (let k = 0; k < n; k++) properties[`p${k}`] = { type: "strng", minimum: "0" };
      return { type: "object", properties };
    };
    const h = growth(compile, invalid(2_000), invalid(20_000), 10);
    rows.push(
      row(
        SUITE,
        "schema diagnostics, invalid keyword values: 20,000 / 10 x 2,000",
        h.ratio,
        LINEAR,
        h.detail,
      ),
    );
  }

  return rows;
}
