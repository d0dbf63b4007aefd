// Dispatch overhead: steps 1-6 (no hooks) of a write_file call with 16 operations and 50 rules, against the sum of
// its parts measured alone (issue 7 §4, issue 3).
import {
  describeWriteFileEffects,
  FILES_EFFECTS_SCHEMA,
  prepareEffects,
  validateWriteFileArgs,
  WRITE_FILE_INPUT_SCHEMA,
} from "@raw/effects";
import { compileObjectSchema, snapshotJson } from "@raw/schema";
import { createPolicy, createToolRegistry, parseRules } from "@raw/tool-api";
import { fiftyRules, writeFileArgs } from "../lib/fixtures.mjs";
import { compare, compareAsync, cpuNow, info, median, row } from "../lib/harness.mjs";

const SUITE = "dispatch";
const CWD = "/repo/project";
const BATCH = 500;

/** A `content` argument of about `bytes` bytes (lines of code), distinct per `tag`. */
function contentArgs(bytes, tag) {
  const line = `export const value_${tag} = "${"x".repeat(40)}";\n`;
  return {
    operations: [
      { path: `src/${tag}/big.ts`, mode: "overwrite", content: line.repeat(Math.ceil(bytes / line.length)) },
    ],
  };
}

/** A `patch` argument of about `bytes` bytes (Update sections of small hunks), distinct per `tag`. */
function patchArgs(bytes, tag) {
  const parts = ["*** Begin Patch"];
  let size = 32;
  for (let f = 0; size < bytes; f++) {
    parts.push(`*** Update File: src/${tag}/f${f}.ts`);
    size += 40;
    for (let h = 0; h < 2000 && size < bytes; h++) {
      const hunk = ["@@", ` function h${h}() {`, `-  return ${h};`, `+  return ${h} + 1;`, " }"];
      parts.push(...hunk);
      size += hunk.join("\n").length + 1;
    }
  }
  parts.push("*** End Patch");
  let text = `${parts.join("\n")}\n`;
  if (bytes <= 1_048_576 && text.length > 1_048_576)
    text = `${text.slice(0, text.lastIndexOf("\n@@", 1_048_576 - 20))}\n*** End Patch\n`;
  return { patch: text };
}

/**
 * Dispatch cost against argument size: median CPU microseconds per dispatch over a rotating pool of distinct
 * arguments (so the patch scan cache, which holds 4 texts, never serves a previous call).
 */
async function sizeRows(registry, rows) {
  const sizes = [
    ["1 KB", 1_024],
    ["100 KB", 102_400],
    ["1 MiB", 1_048_576],
    ["10 MB", 10_000_000],
  ];
  const results = {};
  for (const [form, make] of [
    ["content", contentArgs],
    ["patch", patchArgs],
  ]) {
    for (const [label, bytes] of sizes) {
      if (form === "content" && label === "1 MiB") continue;
      const poolSize = bytes >= 1_000_000 ? 6 : 32;
      const pool = Array.from({ length: poolSize }, (_, i) => ({
        name: "write_file",
        arguments: make(bytes, `${form}${label.replace(" ", "")}${i}`),
      }));
      const actual = Buffer.byteLength(
        form === "content" ? pool[0].arguments.operations[0].content : pool[0].arguments.patch,
      );
      const first = await registry.dispatch(pool[0], { cwd: CWD });
      const outcome = first.isError
        ? `rejected (${JSON.stringify(first.content?.[0]?.text ?? "").slice(0, 60)})`
        : "allowed";
      const calls = bytes >= 1_000_000 ? 6 : bytes >= 100_000 ? 60 : 600;
      const samples = [];
      let k = 0;
      for (let r = 0; r < 5; r++) {
        const start = cpuNow();
        for (let c = 0; c < calls; c++) await registry.dispatch(pool[k++ % poolSize], { cwd: CWD });
        samples.push(((cpuNow() - start) * 1000) / calls);
      }
      const usPerCall = median(samples);
      results[`${form} ${label}`] = { usPerCall, bytes: actual };
      rows.push(
        info(
          SUITE,
          `dispatch, ${form} argument ${label}`,
          `${usPerCall.toFixed(1)} us/call CPU, ${((usPerCall * 1000) / actual).toFixed(2)} ns/byte (${actual.toLocaleString("en")} bytes, ${outcome})`,
        ),
      );
    }
  }
  const perByte = (key) => results[key].usPerCall / results[key].bytes;
  rows.push(
    row(
      SUITE,
      "content argument: cost per byte at 10 MB / at 100 KB (linear)",
      perByte("content 10 MB") / perByte("content 100 KB"),
      { max: 1.5 },
      `${(perByte("content 10 MB") * 1e3).toFixed(2)} vs ${(perByte("content 100 KB") * 1e3).toFixed(2)} ns/byte`,
    ),
  );
  rows.push(
    row(
      SUITE,
      "patch argument: cost per byte at 1 MiB (the limit) / at 100 KB (linear)",
      perByte("patch 1 MiB") / perByte("patch 100 KB"),
      { max: 1.5 },
      `${(perByte("patch 1 MiB") * 1e3).toFixed(2)} vs ${(perByte("patch 100 KB") * 1e3).toFixed(2)} ns/byte; a 10 MB patch is rejected in ${results["patch 10 MB"].usPerCall.toFixed(1)} us`,
    ),
  );
}

export async function run() {
  const rules = parseRules(fiftyRules()).rules;
  const okResult = Object.freeze({ isError: false, content: Object.freeze([]) });
  const registry = createToolRegistry({ rules });
  registry.register({
    name: "write_file",
    identity: "builtin/write_file",
    description: "Writes files.",
    inputSchema: WRITE_FILE_INPUT_SCHEMA,
    conditionSources: ["effects"],
    effectsSchema: FILES_EFFECTS_SCHEMA,
    describeEffects: describeWriteFileEffects,
    validateArgs: validateWriteFileArgs,
    handler: () => okResult,
  });
  const args = writeFileArgs(16);
  const first = await registry.dispatch({ name: "write_file", arguments: args }, { cwd: CWD });
  if (first.isError) throw new Error(`bench call failed: ${JSON.stringify(first)}`);

  // The parts, each measured alone: input validation (Ajv), validateArgs, the frozen argument snapshot (step 5),
  // effects preparation (step 6: the descriptor, the JSON snapshot with its size check, effects validation and the
  // freeze) and policy evaluation (step 7). What dispatch adds on top is its own glue.
  const input = compileObjectSchema(WRITE_FILE_INPUT_SCHEMA, { name: "arguments of write_file" });
  const effectsValidator = compileObjectSchema(FILES_EFFECTS_SCHEMA, { name: "effects of write_file" });
  const policy = createPolicy(rules);
  const effects = JSON.parse(JSON.stringify(describeWriteFileEffects(args, { cwd: CWD })));
  const parts = compare(
    {
      validate: () => input.validate(args),
      validateArgs: () => validateWriteFileArgs(args),
      snapshot: () => snapshotJson(args, { maxBytes: Number.MAX_SAFE_INTEGER, freeze: true }),
      effects: () =>
        prepareEffects({
          toolName: "write_file",
          describeEffects: describeWriteFileEffects,
          arguments: args,
          cwd: CWD,
          validate: effectsValidator,
        }),
      policy: () => policy.evaluate("builtin/write_file", args, effects),
    },
    { rounds: 7, ms: 40 },
  );
  const sum = Object.values(parts).reduce((a, b) => a + b, 0);

  const call = { name: "write_file", arguments: args };
  const context = { cwd: CWD };
  const emptyBatch = async () => {
    for (let i = 0; i < BATCH; i++) await okResult;
  };
  const t = await compareAsync(
    {
      dispatch: async () => {
        for (let i = 0; i < BATCH; i++) await registry.dispatch(call, context);
      },
      empty: emptyBatch,
    },
    { rounds: 7, calls: 3, clock: "cpu" },
  );
  const perCall = ((t.dispatch - t.empty) * 1e6) / BATCH; // ns, minus the bare await loop
  const detail = Object.entries(parts)
    .map(([k, v]) => `${k} ${Math.round(v)}`)
    .join(" + ");
  const rows = [];
  await sizeRows(registry, rows);
  return [
    ...rows,
    row(
      SUITE,
      "dispatch (allow, no hooks) / sum of parts",
      perCall / sum,
      { max: 1.3 },
      `dispatch ${(perCall / 1000).toFixed(1)} us/call; parts ${detail} = ${(sum / 1000).toFixed(1)} us`,
    ),
    info(
      SUITE,
      "median microseconds per dispatch",
      `${(perCall / 1000).toFixed(1)} us (16 operations, 50 rules)`,
    ),
  ];
}
