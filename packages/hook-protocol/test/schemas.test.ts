import { readFileSync, writeFileSync } from "node:fs";
import { compileContractSchema, serializeJsonSchema, validateWith } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { HOOK_EVENTS, HookManifestSchema, HookPayloadSchema, HookResponseSchema } from "../src/index.js";

const BASE = "https://raw.tlelabs.com/schemas/raw.hook/2";
const kebab = (event: string) => event.replace(/[a-z](?=[A-Z])/g, "$&-").toLowerCase();

const files: Array<[string, object]> = [
  ["hook.schema.json", HookManifestSchema],
  ["payload.schema.json", HookPayloadSchema],
  ...HOOK_EVENTS.map((event): [string, object] => [
    `payload-${kebab(event)}.schema.json`,
    HookPayloadSchema[event],
  ]),
  ["response.schema.json", HookResponseSchema],
];

describe("committed JSON Schemas", () => {
  it.each(files)("schemas/%s matches its TypeBox source", (file, schema) => {
    const url = new URL(`../schemas/${file}`, import.meta.url);
    const text = serializeJsonSchema(schema, `${BASE}/${file}`);
    if (process.env.RAW_WRITE_SCHEMAS) writeFileSync(url, text);
    expect(readFileSync(url, "utf8")).toBe(text);
  });

  it.each(files)("schemas/%s compiles with Ajv strict", (file) => {
    const json = JSON.parse(readFileSync(new URL(`../schemas/${file}`, import.meta.url), "utf8"));
    expect(() => compileContractSchema({ ...json, $id: undefined, $schema: undefined })).not.toThrow();
  });
});

describe("schemas agree with the parsers on examples", () => {
  it("accepts the manifest example and rejects match on a notification", () => {
    const manifest = {
      protocol_version: 2,
      name: "guard",
      events: [
        {
          name: "PreToolUse",
          match: "builtin/bash",
          when: { source: "arguments", any: "commands[*].command", regex: "rm" },
        },
        { name: "PostToolUseFailure", match: "builtin/bash" },
      ],
      command: "node",
      args: ["./index.mjs"],
      timeout_ms: 5000,
    };
    expect(validateWith(HookManifestSchema, manifest)).toEqual([]);
    expect(
      validateWith(HookManifestSchema, { ...manifest, events: [{ name: "Stop", match: "x" }] }).length,
    ).toBeGreaterThan(0);
    expect(validateWith(HookManifestSchema, { ...manifest, protocol_version: "2" }).length).toBeGreaterThan(
      0,
    );
  });

  it("accepts responses and rejects unknown keys", () => {
    expect(validateWith(HookResponseSchema, {})).toEqual([]);
    expect(validateWith(HookResponseSchema, { decision: "deny", reason: "r", message: "m" })).toEqual([]);
    expect(validateWith(HookResponseSchema, { decision: "allow" }).length).toBeGreaterThan(0);
    expect(validateWith(HookResponseSchema, { extra: 1 }).length).toBeGreaterThan(0);
  });
});
