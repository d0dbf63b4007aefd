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
import { compare, compareAsync, info, row } from "../lib/harness.mjs";

const SUITE = "dispatch";
const CWD = "/repo/project";
const BATCH = 500;

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
    { rounds: 7, calls: 3 },
  );
  const perCall = ((t.dispatch - t.empty) * 1e6) / BATCH; // ns, minus the bare await loop
  const detail = Object.entries(parts)
    .map(([k, v]) => `${k} ${Math.round(v)}`)
    .join(" + ");
  return [
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
