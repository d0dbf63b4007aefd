// Argument validation: our compiled object-schema validator against @modelcontextprotocol/sdk's Ajv validator
// (issue 7 §3, issue 17). Both sides produce the same output: valid or not, and for invalid input an error text
// (the SDK builds `ajv.errorsText`, ours formats its issues as the dispatcher does). Inputs vary call to call.
import { WRITE_FILE_INPUT_SCHEMA } from "@raw/effects";
import { compileObjectSchema, formatValidationIssues } from "@raw/schema";
import { BASH_SCHEMA, bashArgs, writeFileArgs } from "../lib/fixtures.mjs";
import { compare, row, skipped } from "../lib/harness.mjs";
import { ensurePeer } from "../lib/peers.mjs";

const SUITE = "validation";
const POOL = 256;

/** `POOL` distinct inputs of one kind (distinct strings and lengths), so no call repeats the previous one. */
function pool(make) {
  return Array.from({ length: POOL }, (_, i) => make(i));
}

export async function run() {
  const peer = ensurePeer("mcp", ["@modelcontextprotocol/sdk@1"]);
  if (!peer.ok) return [skipped(SUITE, "vs @modelcontextprotocol/sdk", peer.reason)];
  const { AjvJsonSchemaValidator } = await peer.import("@modelcontextprotocol/sdk/validation/ajv");
  const mcp = new AjvJsonSchemaValidator();
  const cases = [
    [
      "write_file, 16 operations, valid",
      WRITE_FILE_INPUT_SCHEMA,
      pool((i) => {
        const a = writeFileArgs(9 + (i % 8));
        a.operations[0].path = `src/v${i}/file.ts`;
        return a;
      }),
    ],
    ["bash, 4 commands, valid", BASH_SCHEMA, pool((i) => bashArgs(1 + (i % 4), ` # ${i}`))],
    [
      "bash, invalid (2 errors), equal output",
      BASH_SCHEMA,
      pool((i) => ({ commands: [{ command: "" }, { command: i }, ...bashArgs(i % 3).commands] })),
    ],
  ];
  const rows = [];
  for (const [name, schema, inputs] of cases) {
    const ours = compileObjectSchema(schema, { name: "arguments of bench" });
    const theirs = mcp.getValidator(schema);
    // Same outcome on every input: valid, or invalid with an error text.
    for (const input of inputs) {
      const issues = ours.validate(input);
      const r = theirs(input);
      if ((issues.length === 0) !== r.valid)
        throw new Error(`validators disagree on ${JSON.stringify(input)}`);
      if (!r.valid && (typeof r.errorMessage !== "string" || formatValidationIssues(issues).length === 0))
        throw new Error("no error text");
    }
    let i = 0;
    let j = 0;
    let sink = 0;
    const t = compare(
      {
        ours: () => {
          const issues = ours.validate(inputs[i++ % POOL]);
          sink += issues.length === 0 ? 1 : formatValidationIssues(issues).length;
        },
        mcp: () => {
          const r = theirs(inputs[j++ % POOL]);
          sink += r.valid ? 1 : r.errorMessage.length;
        },
      },
      { rounds: 15, ms: 80 },
    );
    rows.push(
      row(
        SUITE,
        `${name}: ours / MCP SDK`,
        t.ours / t.mcp,
        { max: 1.05 },
        `ours ${Math.round(t.ours)} ns, MCP ${Math.round(t.mcp)} ns (CPU per call, ${POOL} distinct inputs; kept ${sink})`,
      ),
    );
  }
  return rows;
}
