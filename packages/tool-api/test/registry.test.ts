import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { createToolRegistry, type ToolRegistration } from "../src/index.js";

const ok = () => ({ isError: false, content: [] });
const reg = (patch: Partial<ToolRegistration> = {}): ToolRegistration => ({
  name: "echo",
  description: "Echoes.",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  handler: ok,
  ...patch,
});
const effectsSchema = {
  type: "object",
  properties: {
    files: { type: "array", items: { type: "object", properties: { path: { type: "string" } } } },
  },
};

function registerError(registry: ReturnType<typeof createToolRegistry>, value: unknown) {
  try {
    registry.register(value as ToolRegistration);
  } catch (error) {
    if (isContractError(error)) return error.issues;
    throw error;
  }
  throw new Error("expected a ContractError");
}

describe("register (tool-api.md §6.2)", () => {
  const cases: Array<[string, Partial<ToolRegistration>, { code: string; message: string }]> = [
    [
      "condition sources: empty",
      { conditionSources: [] },
      { code: "registration_invalid_condition_sources", message: "invalid condition sources for echo" },
    ],
    [
      "condition sources: duplicate",
      { conditionSources: ["arguments", "arguments"] },
      { code: "registration_invalid_condition_sources", message: "invalid condition sources for echo" },
    ],
    [
      "condition sources: unknown value",
      { conditionSources: ["result" as never] },
      { code: "registration_invalid_condition_sources", message: "invalid condition sources for echo" },
    ],
    [
      "effects contract: schema without descriptor",
      { effectsSchema },
      { code: "registration_invalid_effects_contract", message: "invalid effects contract for echo" },
    ],
    [
      "effects contract: descriptor without schema",
      { describeEffects: () => ({}) },
      { code: "registration_invalid_effects_contract", message: "invalid effects contract for echo" },
    ],
    [
      "effects contract: schema type is not object",
      { effectsSchema: { type: "array" }, describeEffects: () => ({}) },
      { code: "registration_invalid_effects_contract", message: "invalid effects contract for echo" },
    ],
    [
      "effects source without effects schema",
      { conditionSources: ["effects"] },
      { code: "registration_missing_effects_schema", message: "missing effects schema for echo" },
    ],
    [
      "input schema compiles",
      { inputSchema: { type: "object", properties: { a: { type: "strin" } } } },
      {
        code: "schema_unsupported",
        message: expect.stringMatching(/^unsupported tool schema: arguments of echo: /) as unknown as string,
      },
    ],
    [
      "effects schema compiles",
      { effectsSchema: { type: "object", required: ["x"] }, describeEffects: () => ({}) },
      {
        code: "schema_unsupported",
        message: expect.stringMatching(/^unsupported tool schema: effects of echo: /) as unknown as string,
      },
    ],
  ];
  it.each(cases)("%s", (_name, patch, issue) => {
    const registry = createToolRegistry();
    expect(registerError(registry, reg(patch))).toEqual([expect.objectContaining(issue)]);
    registry.register(reg());
    expect(registry.definitions().map((d) => d.name)).toEqual(["echo"]);
  });

  it("refuses duplicate names, already registered or repeated in a batch", () => {
    const registry = createToolRegistry();
    registry.register(reg());
    expect(registerError(registry, reg())).toEqual([
      { code: "registration_duplicate_name", message: "duplicate tool: echo" },
    ]);
    expect(registerError(registry, [reg({ name: "a" }), reg({ name: "a" })])).toEqual([
      { code: "registration_duplicate_name", message: "duplicate tool: a" },
    ]);
  });

  it("is all-or-nothing for a batch and reports the first failure of each registration", () => {
    const registry = createToolRegistry();
    const issues = registerError(registry, [
      reg({ name: "good" }),
      reg({ name: "bad1", conditionSources: [], effectsSchema }),
      reg({ name: "bad2", inputSchema: { type: "string" } }),
    ]);
    expect(issues).toEqual([
      { code: "registration_invalid_condition_sources", message: "invalid condition sources for bad1" },
      {
        code: "schema_unsupported",
        message: 'unsupported tool schema: arguments of bad2: the root must declare "type": "object"',
        path: "/type",
      },
    ]);
    expect(registry.definitions()).toEqual([]);
  });

  it("binds every matching conditional rule to the registration", () => {
    const rules = [
      { match: "local/*", effect: "ask", when: { source: "effects", any: "files[*].path", regex: "x" } },
      { match: "builtin/*", effect: "ask", when: { source: "arguments", any: "missing", regex: "x" } },
    ] as const;
    const registry = createToolRegistry({ rules });
    expect(registerError(registry, reg({ identity: "local/echo" }))).toEqual([
      { code: "predicate_unbound", message: "when.source effects is unavailable in echo" },
    ]);
    registry.register(
      reg({
        name: "e2",
        identity: "local/e2",
        conditionSources: ["arguments", "effects"],
        effectsSchema,
        describeEffects: () => ({}),
      }),
    );
    expect(registry.definitions().map((d) => d.name)).toEqual(["e2"]);
  });

  it("binds: refuses an unreachable path, accepts a string path, ignores non-matching identities", () => {
    const rules = [
      { match: "builtin/*", effect: "ask", when: { source: "arguments", any: "missing", regex: "x" } },
    ] as const;
    const registry = createToolRegistry({ rules });
    expect(registerError(registry, reg({ identity: "builtin/echo" }))).toEqual([
      { code: "predicate_unbound", message: "when.any path does not resolve to a string in echo schema" },
    ]);
    registry.register(reg({ identity: "local/echo" }));
    const ok2 = createToolRegistry({
      rules: [{ match: "builtin/*", effect: "ask", when: { source: "arguments", any: "text", regex: "x" } }],
    });
    ok2.register(reg({ identity: "builtin/echo" }));
    expect(ok2.inspectionDefinition("echo")?.identity).toBe("builtin/echo");
  });

  it("refuses a registration without the basic shape", () => {
    const registry = createToolRegistry();
    expect(registerError(registry, { name: "x", description: "d", inputSchema: { type: "object" } })).toEqual(
      [{ code: "registration_invalid", message: "invalid registration: x" }],
    );
  });
});

describe("definitions and inspectionDefinition (tool-api.md §6.3)", () => {
  it("lists registration order, or whitelist order without duplicates and unknown names, never hidden tools", () => {
    const registry = createToolRegistry({ rules: [{ match: "hidden", effect: "deny" }] });
    registry.register([reg({ name: "a" }), reg({ name: "b" }), reg({ name: "c" }), reg({ name: "hidden" })]);
    expect(registry.definitions().map((d) => d.name)).toEqual(["a", "b", "c"]);
    expect(registry.definitions(["c", "a", "c", "nope", "hidden"]).map((d) => d.name)).toEqual(["c", "a"]);
    expect(registry.definitions(new Set(["b"])).map((d) => d.name)).toEqual(["b"]);
  });

  it("sends only name, description and a copy of inputSchema", () => {
    const registry = createToolRegistry();
    const schema = { type: "object", properties: { text: { type: "string" } } };
    registry.register(
      reg({
        inputSchema: schema,
        conditionSources: ["arguments", "effects"],
        effectsSchema,
        describeEffects: () => ({}),
        identity: "local/echo",
      }),
    );
    const [definition] = registry.definitions();
    expect(definition).toEqual({ name: "echo", description: "Echoes.", inputSchema: schema });
    expect(definition?.inputSchema).not.toBe(schema);
    (definition?.inputSchema as Record<string, unknown>).type = "changed";
    expect(registry.definitions()[0]?.inputSchema).toEqual(schema);
    expect(registry.inspectionDefinition("echo")).toEqual({
      name: "echo",
      identity: "local/echo",
      description: "Echoes.",
      inputSchema: schema,
      conditionSources: ["arguments", "effects"],
      effectsSchema,
      hasValidateArgs: false,
      hasDescribeEffects: true,
    });
    expect(registry.inspectionDefinition("nope")).toBeUndefined();
  });
});
