import { isContractError } from "@raw/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bindPredicate,
  compilePredicate,
  MAX_BIND_DEPTH,
  type PathSegment,
  type Predicate,
  safeBindPredicate,
} from "../src/index.js";

/** The `files` effects schema of effects.md §6.4. */
const FILES_EFFECTS_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["files"],
  properties: {
    files: {
      type: "array",
      maxItems: 128,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "operation"],
        properties: {
          path: { type: "string" },
          operation: { type: "string", enum: ["write", "delete", "rename_source", "rename_destination"] },
        },
      },
    },
  },
};

const BASH_SCHEMA = {
  type: "object",
  properties: {
    commands: {
      type: "array",
      items: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  },
};

const predicate = (any: string, source = "arguments") => compilePredicate({ source, any, regex: "x" });

/** The binding message of `predicate` against `schema` as the tool's arguments schema, or "ok". */
function bindArguments(any: string, schema: unknown): string {
  const result = safeBindPredicate(predicate(any), { toolName: "t", schemas: { arguments: schema } });
  return result.ok ? "ok" : (result.issues[0]?.message ?? "");
}

const UNRESOLVED = "when.any path does not resolve to a string in t schema";

describe("binding checks, in order", () => {
  it("1: the source must be one of the tool's condition sources (default arguments)", () => {
    const effects = predicate("files[*].path", "effects");
    const schemas = { arguments: BASH_SCHEMA, effects: FILES_EFFECTS_SCHEMA };
    expect(safeBindPredicate(effects, { toolName: "write_file", schemas })).toEqual({
      ok: false,
      issues: [{ code: "predicate_unbound", message: "when.source effects is unavailable in write_file" }],
    });
    expect(
      safeBindPredicate(predicate("commands[*].command"), {
        toolName: "bash",
        conditionSources: ["effects"],
        schemas,
      }),
    ).toEqual({
      ok: false,
      issues: [{ code: "predicate_unbound", message: "when.source arguments is unavailable in bash" }],
    });
    expect(
      safeBindPredicate(effects, {
        toolName: "write_file",
        conditionSources: ["arguments", "effects"],
        schemas,
      }),
    ).toEqual({ ok: true });
    expect(safeBindPredicate(predicate("commands[*].command"), { toolName: "bash", schemas })).toEqual({
      ok: true,
    });
  });

  it("1 comes before 2: an unavailable source is reported even without a schema", () => {
    const result = safeBindPredicate(predicate("a", "effects"), { toolName: "t", schemas: {} });
    expect(result).toEqual({
      ok: false,
      issues: [{ code: "predicate_unbound", message: "when.source effects is unavailable in t" }],
    });
  });

  it.each([
    ["absent", undefined],
    ["true", true],
    ["null", null],
    ["an array", [{ type: "object" }]],
    ["a string", "object"],
  ])("2: a schema that is %s is no schema", (_name, schema) => {
    const result = safeBindPredicate(predicate("path", "effects"), {
      toolName: "write_file",
      conditionSources: ["arguments", "effects"],
      schemas: { arguments: BASH_SCHEMA, effects: schema },
    });
    expect(result).toEqual({
      ok: false,
      issues: [{ code: "predicate_unbound", message: "when.source effects has no schema in write_file" }],
    });
  });

  it("3: the path must reach a string field", () => {
    expect(bindArguments("commands[*].missing", BASH_SCHEMA)).toBe(UNRESOLVED);
    const result = safeBindPredicate(predicate("commands"), {
      toolName: "bash",
      schemas: { arguments: BASH_SCHEMA },
    });
    expect(result).toEqual({
      ok: false,
      issues: [
        { code: "predicate_unbound", message: "when.any path does not resolve to a string in bash schema" },
      ],
    });
  });

  it("bindPredicate throws a ContractError with code predicate_unbound", () => {
    let thrown: unknown;
    try {
      bindPredicate(predicate("files.path", "effects"), {
        toolName: "write_file",
        conditionSources: ["effects"],
        schemas: { effects: FILES_EFFECTS_SCHEMA },
      });
    } catch (error) {
      thrown = error;
    }
    expect(isContractError(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: "predicate_unbound",
      message: "when.any path does not resolve to a string in write_file schema",
      issues: [
        {
          code: "predicate_unbound",
          message: "when.any path does not resolve to a string in write_file schema",
        },
      ],
    });
    expect(
      bindPredicate(predicate("files[*].path", "effects"), {
        toolName: "write_file",
        conditionSources: ["effects"],
        schemas: { effects: FILES_EFFECTS_SCHEMA },
      }),
    ).toBeUndefined();
  });
});

describe("the write_file files effects schema (effects.md §6.4)", () => {
  it.each([
    ["files[*].path", "ok"],
    ["files[*].operation", "ok"],
    ["files.path", UNRESOLVED],
    ["files[*]", UNRESOLVED],
    ["files", UNRESOLVED],
    ["files[*].path[*]", UNRESOLVED],
    ["files[*].other", UNRESOLVED],
  ])("%s → %s", (any, expected) => {
    const result = safeBindPredicate(predicate(any, "effects"), {
      toolName: "t",
      conditionSources: ["effects"],
      schemas: { effects: FILES_EFFECTS_SCHEMA },
    });
    expect(result.ok ? "ok" : result.issues[0]?.message).toBe(expected);
  });
});

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

type BindCase = [name: string, any: string, schema: unknown, expected: "ok" | "fail"];
const walkCases: BindCase[] = [
  // end of path: isStringField
  ["a string field", "a", obj({ a: { type: "string" } }), "ok"],
  ["a type array containing string", "a", obj({ a: { type: ["null", "string"] } }), "ok"],
  ["an integer field", "a", obj({ a: { type: "integer" } }), "fail"],
  ["a number field", "a", obj({ a: { type: "number" } }), "fail"],
  ["a boolean field", "a", obj({ a: { type: "boolean" } }), "fail"],
  ["an object field", "a", obj({ a: { type: "object" } }), "fail"],
  ["an untyped field", "a", obj({ a: {} }), "fail"],
  ["an enum-only string field", "a", obj({ a: { enum: ["x", "y"] } }), "ok"],
  ["a const-only string field", "a", obj({ a: { const: "x" } }), "ok"],
  ["enum and const, all strings", "a", obj({ a: { enum: ["x"], const: "x" } }), "ok"],
  ["an enum with a number", "a", obj({ a: { enum: ["x", 1] } }), "fail"],
  ["an enum with null", "a", obj({ a: { enum: ["x", null] } }), "fail"],
  ["a string enum with a numeric const", "a", obj({ a: { enum: ["x"], const: 1 } }), "fail"],
  ["a const null", "a", obj({ a: { const: null } }), "fail"],
  ["an empty enum", "a", obj({ a: { enum: [] } }), "fail"],
  ["a string enum under a non-string type", "a", obj({ a: { type: "integer", enum: ["1"] } }), "fail"],
  ["a boolean schema true", "a", obj({ a: true }), "fail"],
  ["a boolean schema false", "a", obj({ a: false }), "fail"],
  ["a null schema", "a", obj({ a: null }), "fail"],
  // object step
  ["a nested path", "a.b", obj({ a: obj({ b: { type: "string" } }) }), "ok"],
  ["an untyped object with properties", "a.b", obj({ a: { properties: { b: { type: "string" } } } }), "ok"],
  [
    "type [object, null]",
    "a.b",
    obj({ a: { type: ["object", "null"], properties: { b: { type: "string" } } } }),
    "ok",
  ],
  [
    "a typed non-object with properties",
    "a.b",
    obj({ a: { type: "string", properties: { b: { type: "string" } } } }),
    "fail",
  ],
  ["a missing property", "b", obj({ a: { type: "string" } }), "fail"],
  ["additionalProperties: true", "b", obj({ a: { type: "string" } }, { additionalProperties: true }), "fail"],
  ["additionalProperties: false", "b", obj({}, { additionalProperties: false }), "fail"],
  ["additionalProperties: a string schema", "b", obj({}, { additionalProperties: { type: "string" } }), "ok"],
  [
    "additionalProperties is not used when the property exists",
    "a",
    obj({ a: { type: "integer" } }, { additionalProperties: { type: "string" } }),
    "fail",
  ],
  [
    "a property whose schema is true does not fall back to additionalProperties",
    "a",
    obj({ a: true }, { additionalProperties: { type: "string" } }),
    "fail",
  ],
  [
    "patternProperties are ignored",
    "a",
    { type: "object", patternProperties: { "^a$": { type: "string" } } },
    "fail",
  ],
  ["inherited property names are not properties", "constructor", obj({}), "fail"],
  [
    "a segment without [*] cannot cross an array",
    "a.b",
    obj({ a: { type: "array", items: obj({ b: { type: "string" } }) } }),
    "fail",
  ],
  // array step
  ["[*] through items", "a[*]", obj({ a: { type: "array", items: { type: "string" } } }), "ok"],
  ["[*] through untyped items", "a[*]", obj({ a: { items: { type: "string" } } }), "ok"],
  [
    "[*] through prefixItems",
    "a[*]",
    obj({ a: { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }] } }),
    "ok",
  ],
  ["[*] through untyped prefixItems", "a[*]", obj({ a: { prefixItems: [{ type: "string" }] } }), "ok"],
  [
    "[*] does not follow draft-07 tuple items",
    "a[*]",
    obj({ a: { type: "array", items: [{ type: "string" }] } }),
    "fail",
  ],
  [
    "[*] ignores additionalItems",
    "a[*]",
    obj({ a: { type: "array", items: [{ type: "integer" }], additionalItems: { type: "string" } } }),
    "fail",
  ],
  ["[*] ignores contains", "a[*]", obj({ a: { type: "array", contains: { type: "string" } } }), "fail"],
  [
    "[*] ignores unevaluatedItems",
    "a[*]",
    obj({ a: { type: "array", unevaluatedItems: { type: "string" } } }),
    "fail",
  ],
  ["[*] on a string field", "a[*]", obj({ a: { type: "string" } }), "fail"],
  [
    "[*] on a typed non-array with items",
    "a[*]",
    obj({ a: { type: "object", items: { type: "string" } } }),
    "fail",
  ],
  ["a path ending on an array", "a", obj({ a: { type: "array", items: { type: "string" } } }), "fail"],
  [
    "a path ending on an array of objects",
    "a[*]",
    obj({ a: { type: "array", items: obj({ b: { type: "string" } }) } }),
    "fail",
  ],
  [
    "nested arrays",
    "a[*].b[*].c",
    obj({
      a: { type: "array", items: obj({ b: { type: "array", items: obj({ c: { type: "string" } }) } }) },
    }),
    "ok",
  ],
  ["items: true", "a[*]", obj({ a: { type: "array", items: true } }), "fail"],
  // combinators
  [
    "allOf: any single branch is enough",
    "a",
    { allOf: [obj({ a: { type: "integer" } }), { properties: { a: { type: "string" } } }] },
    "ok",
  ],
  ["anyOf", "a", obj({ a: { anyOf: [{ type: "integer" }, { type: "string" }] } }), "ok"],
  ["oneOf", "a", obj({ a: { oneOf: [{ type: "null" }, { enum: ["x"] }] } }), "ok"],
  [
    "combinator branches that all fail",
    "a",
    obj({ a: { anyOf: [{ type: "integer" }, true, null] } }),
    "fail",
  ],
  [
    "a combinator at an array step",
    "a[*]",
    obj({ a: { anyOf: [{ type: "null" }, { type: "array", items: { type: "string" } }] } }),
    "ok",
  ],
  [
    "a combinator inside items",
    "a[*]",
    obj({ a: { type: "array", items: { oneOf: [{ type: "string" }] } } }),
    "ok",
  ],
  // $ref
  [
    "a $defs reference",
    "a",
    { type: "object", properties: { a: { $ref: "#/$defs/s" } }, $defs: { s: { type: "string" } } },
    "ok",
  ],
  [
    "a definitions reference",
    "a",
    {
      type: "object",
      properties: { a: { $ref: "#/definitions/s" } },
      definitions: { s: { type: "string" } },
    },
    "ok",
  ],
  [
    "a ~1 reference (/)",
    "a",
    { type: "object", properties: { a: { $ref: "#/$defs/x~1y" } }, $defs: { "x/y": { type: "string" } } },
    "ok",
  ],
  [
    "a ~0 reference (~)",
    "a",
    { type: "object", properties: { a: { $ref: "#/$defs/x~0y" } }, $defs: { "x~y": { type: "string" } } },
    "ok",
  ],
  [
    "~01 decodes to ~1, not /",
    "a",
    { type: "object", properties: { a: { $ref: "#/$defs/x~01y" } }, $defs: { "x~1y": { type: "string" } } },
    "ok",
  ],
  [
    "~01 never reaches /",
    "a",
    { type: "object", properties: { a: { $ref: "#/$defs/x~01y" } }, $defs: { "x/y": { type: "string" } } },
    "fail",
  ],
  [
    "no percent-decoding",
    "a",
    { type: "object", properties: { a: { $ref: "#/$defs/x%25y" } }, $defs: { "x%y": { type: "string" } } },
    "fail",
  ],
  [
    "a reference into an array",
    "a",
    {
      type: "object",
      properties: { a: { $ref: "#/$defs/list/1" } },
      $defs: { list: [{ type: "integer" }, { type: "string" }] },
    },
    "ok",
  ],
  ["a dangling reference", "a", { type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, "fail"],
  [
    "an inherited name is not a reference target",
    "a",
    { type: "object", properties: { a: { $ref: "#/$defs/constructor" } }, $defs: {} },
    "fail",
  ],
  [
    "a remote reference is not followed",
    "a",
    { type: "object", properties: { a: { $ref: "https://x/s.json" } } },
    "fail",
  ],
  [
    "a root reference # never resolves",
    "a.b",
    { type: "object", properties: { b: { type: "string" }, a: { $ref: "#" } } },
    "fail",
  ],
  [
    "a reference beside a failing type still counts",
    "a",
    {
      type: "object",
      properties: { a: { type: "integer", $ref: "#/$defs/s" } },
      $defs: { s: { type: "string" } },
    },
    "ok",
  ],
  [
    "a reference at the root",
    "a",
    { $ref: "#/$defs/root", $defs: { root: obj({ a: { type: "string" } }) } },
    "ok",
  ],
];

describe("the reachability walk (predicate.md §6.1)", () => {
  it.each(walkCases)("%s: %s", (_name, any, schema, expected) => {
    expect(bindArguments(any, schema)).toBe(expected === "ok" ? "ok" : UNRESOLVED);
  });

  const tree = {
    type: "object",
    properties: { root: { $ref: "#/$defs/node" } },
    $defs: {
      node: {
        type: "object",
        properties: {
          name: { type: "string" },
          children: { type: "array", items: { $ref: "#/$defs/node" } },
          parent: { $ref: "#/$defs/node" },
        },
      },
    },
  };

  it("recursive schemas terminate, and bind through the recursion", () => {
    expect(bindArguments("root.children[*].children[*].name", tree)).toBe("ok");
    expect(bindArguments("root.parent.parent.parent.name", tree)).toBe("ok");
    expect(bindArguments("root.children[*].missing", tree)).toBe(UNRESOLVED);
    expect(bindArguments("root.children[*]", tree)).toBe(UNRESOLVED);
  });

  it("reference cycles terminate", () => {
    const cycle = {
      type: "object",
      properties: { a: { $ref: "#/$defs/x" } },
      $defs: { x: { $ref: "#/$defs/y" }, y: { $ref: "#/$defs/x" } },
    };
    expect(bindArguments("a", cycle)).toBe(UNRESOLVED);
    const self = {
      type: "object",
      properties: { a: { $ref: "#/$defs/n" } },
      $defs: { n: { allOf: [{ $ref: "#/$defs/n" }], anyOf: [{ $ref: "#/$defs/n" }] } },
    };
    expect(bindArguments("a", self)).toBe(UNRESOLVED);
    const loop: Record<string, unknown> = { type: "object" };
    loop.properties = { a: loop, b: { type: "string" } };
    loop.additionalProperties = loop;
    expect(bindArguments("a.a.x.a.a.b", loop)).toBe("ok");
    expect(bindArguments("a.a.x.a.a.c.d.e.f", loop)).toBe(UNRESOLVED);
  });

  it("schemas whose references fan out and join again are walked quickly", () => {
    const $defs: Record<string, unknown> = { l60: { type: "integer" } };
    for (let i = 0; i < 60; i++) {
      $defs[`l${i}`] = {
        anyOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }],
        allOf: [{ $ref: `#/$defs/l${i + 1}` }],
      };
    }
    expect(bindArguments("a", { type: "object", properties: { a: { $ref: "#/$defs/l0" } }, $defs })).toBe(
      UNRESOLVED,
    );
  });

  it(`gives up on a branch deeper than ${MAX_BIND_DEPTH} nested steps`, () => {
    // root (depth 0) → properties.a (depth 1) → d1 (2) → … → dN (N + 1)
    const chain = (n: number) => {
      const $defs: Record<string, unknown> = { [`d${n}`]: { type: "string" } };
      for (let i = 1; i < n; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
      return { type: "object", properties: { a: { $ref: "#/$defs/d1" } }, $defs };
    };
    expect(bindArguments("a", chain(MAX_BIND_DEPTH - 1))).toBe("ok");
    expect(bindArguments("a", chain(MAX_BIND_DEPTH))).toBe(UNRESOLVED);
    // the same limit through nested allOf
    const nest = (n: number): unknown => (n === 0 ? { type: "string" } : { allOf: [nest(n - 1)] });
    expect(bindArguments("a", obj({ a: nest(MAX_BIND_DEPTH - 1) }))).toBe("ok");
    expect(bindArguments("a", obj({ a: nest(MAX_BIND_DEPTH) }))).toBe(UNRESOLVED);
  });

  it("a shorter branch still binds when a longer one runs out of depth", () => {
    const nest = (n: number): unknown => (n === 0 ? { type: "string" } : { allOf: [nest(n - 1)] });
    const schema = obj({ a: { anyOf: [nest(500), { type: "string" }] } });
    expect(bindArguments("a", schema)).toBe("ok");
  });

  it("reads own keywords only", () => {
    const inherited = Object.create({ type: "string" });
    expect(bindArguments("a", obj({ a: inherited }))).toBe(UNRESOLVED);
  });
});

/**
 * A literal transcription of predicate.md §6.1 (recursive, per-branch cycle guard, depth limit), used as the oracle
 * for the breadth-first implementation.
 */
function referenceReach(root: unknown, path: readonly PathSegment[]): boolean {
  const plain = (n: unknown): n is Record<string, unknown> =>
    typeof n === "object" &&
    n !== null &&
    !Array.isArray(n) &&
    [Object.prototype, null].includes(Object.getPrototypeOf(n));
  const allows = (n: Record<string, unknown>, t: string) =>
    n.type === t || (Array.isArray(n.type) && n.type.includes(t));
  const isStringField = (n: Record<string, unknown>) => {
    if (allows(n, "string")) return true;
    if ("type" in n) return false;
    const values = [...(Array.isArray(n.enum) ? n.enum : []), ...("const" in n ? [n.const] : [])];
    if ("enum" in n && !Array.isArray(n.enum)) return false;
    return values.length > 0 && values.every((v) => typeof v === "string");
  };
  const resolve = (ref: string): unknown => {
    let node: unknown = root;
    for (const raw of ref.slice(2).split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  };
  const branch: Array<[unknown, number, boolean]> = [];
  const reach = (node: unknown, i: number, expectArray: boolean, depth: number): boolean => {
    if (!plain(node) || depth > MAX_BIND_DEPTH) return false;
    if (branch.some(([n, j, e]) => n === node && j === i && e === expectArray)) return false;
    branch.push([node, i, expectArray]);
    try {
      if (
        typeof node.$ref === "string" &&
        node.$ref.startsWith("#/") &&
        reach(resolve(node.$ref), i, expectArray, depth + 1)
      )
        return true;
      for (const k of ["allOf", "anyOf", "oneOf"]) {
        const list = node[k];
        if (Array.isArray(list) && list.some((b) => reach(b, i, expectArray, depth + 1))) return true;
      }
      if (expectArray) {
        if (!(allows(node, "array") || (!("type" in node) && ("items" in node || "prefixItems" in node))))
          return false;
        const candidates = [
          ...(plain(node.items) ? [node.items] : []),
          ...(Array.isArray(node.prefixItems) ? node.prefixItems : []),
        ];
        return candidates.some((c) => reach(c, i, false, depth + 1));
      }
      if (i === path.length) return isStringField(node);
      if (!(allows(node, "object") || (!("type" in node) && "properties" in node))) return false;
      const segment = path[i] as PathSegment;
      const props = node.properties;
      const child =
        plain(props) && Object.hasOwn(props, segment.key)
          ? props[segment.key]
          : plain(node.additionalProperties)
            ? node.additionalProperties
            : undefined;
      return reach(child, i + 1, segment.star, depth + 1);
    } finally {
      branch.pop();
    }
  };
  return reach(root, 0, false, 0);
}

describe("the walk agrees with a literal transcription of §6.1", () => {
  const ref = fc.integer({ min: 0, max: 4 }).map((k) => ({ $ref: `#/$defs/n${k}` }));
  const leaf = fc.oneof(
    ref,
    fc.constantFrom<unknown>(
      { type: "string" },
      { type: "integer" },
      { enum: ["x"] },
      { const: 1 },
      { const: "x" },
      true,
      false,
      {},
      { $ref: "#" },
    ),
  );
  const node = fc.record(
    {
      type: fc.constantFrom<unknown>("object", "array", "string", ["object", "null"], ["array", "string"]),
      properties: fc.dictionary(fc.constantFrom("a", "b"), leaf, { maxKeys: 2 }),
      additionalProperties: fc.oneof(leaf, fc.constant(true)),
      items: fc.oneof(leaf, fc.array(leaf, { maxLength: 2 })),
      prefixItems: fc.array(leaf, { maxLength: 2 }),
      anyOf: fc.array(leaf, { maxLength: 2 }),
      allOf: fc.array(leaf, { maxLength: 2 }),
      enum: fc.constantFrom<unknown>(["x"], ["x", 2], []),
    },
    { requiredKeys: [] },
  );
  const schema = fc.tuple(node, fc.array(node, { minLength: 5, maxLength: 5 })).map(([root, defs]) => ({
    ...root,
    $defs: Object.fromEntries(defs.map((d, k) => [`n${k}`, d])),
  }));
  const path = fc
    .array(fc.constantFrom("a", "a[*]", "b", "b[*]"), { minLength: 1, maxLength: 4 })
    .map((s) => s.join("."));

  it("on random schemas with references, cycles and combinators", () => {
    let bound = 0;
    fc.assert(
      fc.property(schema, path, (s, any) => {
        const p: Predicate = predicate(any);
        const expected = referenceReach(s, p.segments);
        if (expected) bound++;
        expect(safeBindPredicate(p, { toolName: "t", schemas: { arguments: s } }).ok).toBe(expected);
      }),
      { seed: 20240611, numRuns: 2000 },
    );
    expect(bound).toBeGreaterThan(50);
  });
});
