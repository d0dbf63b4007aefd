// Argument validation: our compiled object-schema validator against @modelcontextprotocol/sdk's Ajv validator (issue 7 §3).
import { WRITE_FILE_INPUT_SCHEMA } from "@raw/effects";
import { compileObjectSchema } from "@raw/schema";
import { BASH_SCHEMA, bashArgs, writeFileArgs } from "../lib/fixtures.mjs";
import { compare, row, skipped } from "../lib/harness.mjs";
import { ensurePeer } from "../lib/peers.mjs";

const SUITE = "validation";

export async function run() {
  const peer = ensurePeer("mcp", ["@modelcontextprotocol/sdk@1"]);
  if (!peer.ok) return [skipped(SUITE, "vs @modelcontextprotocol/sdk", peer.reason)];
  const { AjvJsonSchemaValidator } = await peer.import("@modelcontextprotocol/sdk/validation/ajv");
  const mcp = new AjvJsonSchemaValidator();
  const cases = [
    ["write_file, 16 operations, valid", WRITE_FILE_INPUT_SCHEMA, writeFileArgs(16)],
    ["bash, 4 commands, valid", BASH_SCHEMA, bashArgs(4)],
    ["bash, invalid (2 errors)", BASH_SCHEMA, { commands: [{ command: "" }, { command: 1 }] }],
  ];
  const rows = [];
  for (const [name, schema, input] of cases) {
    const ours = compileObjectSchema(schema, { name: "arguments of bench" });
    const theirs = mcp.getValidator(schema);
    const t = compare({ ours: () => ours.validate(input), mcp: () => theirs(input) }, { rounds: 15, ms: 80 });
    rows.push(
      row(
        SUITE,
        `${name}: ours / MCP SDK`,
        t.ours / t.mcp,
        { max: 1.05 },
        `ours ${Math.round(t.ours)} ns, MCP ${Math.round(t.mcp)} ns`,
      ),
    );
  }
  return rows;
}
