import { afterEach, describe, expect, it, vi } from "vitest";
import { sharedAjv } from "../src/ajv.js";
import { schemaCacheText } from "../src/compile-cache.js";
import { MAX_COMPILED_SCHEMAS, safeCompileObjectSchema } from "../src/index.js";

/** A fresh object each call: the same schema text, a different object (as two tool folders parse it). */
const echoSchema = (maxLength = 1000) => ({
  type: "object",
  additionalProperties: false,
  required: ["text"],
  properties: { text: { type: "string", maxLength } },
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("object schemas compile once per text", () => {
  it("two equal schemas given as different objects compile once, and both validators check values", () => {
    const ajv = sharedAjv("2020-12");
    const compile = vi.spyOn(ajv, "compile");
    const marker = 9000 + Math.floor(Math.random() * 1000);
    const first = safeCompileObjectSchema(echoSchema(marker), { name: "a" });
    const second = safeCompileObjectSchema(echoSchema(marker), { name: "b" });
    expect(compile).toHaveBeenCalledTimes(1);
    if (!first.ok || !second.ok) throw new Error("expected both schemas to compile");
    // Each validator keeps its own schema object, and validates as compiled.
    expect(second.validator.schema).not.toBe(first.validator.schema);
    expect(second.validator.validate({ text: "hi" })).toEqual([]);
    expect(second.validator.validate({ text: "x".repeat(marker + 1) }).map((issue) => issue.path)).toEqual([
      "/text",
    ]);
    expect(first.validator.test({ text: 1 })).toBe(false);
    // A schema that differs in one keyword value compiles again and checks its own bound.
    const other = safeCompileObjectSchema(echoSchema(marker + 1), { name: "c" });
    expect(compile).toHaveBeenCalledTimes(2);
    expect(other.ok && other.validator.test({ text: "x".repeat(marker + 1) })).toBe(true);
  });

  it("keeps at most MAX_COMPILED_SCHEMAS validators: the least recently used one compiles again", () => {
    const ajv = sharedAjv("2020-12");
    const base = 100_000 + Math.floor(Math.random() * 1_000_000) * 1000;
    for (let i = 0; i <= MAX_COMPILED_SCHEMAS; i++)
      safeCompileObjectSchema(echoSchema(base + i), { name: "n" });
    const compile = vi.spyOn(ajv, "compile");
    // The newest is still cached; the first one was evicted.
    safeCompileObjectSchema(echoSchema(base + MAX_COMPILED_SCHEMAS), { name: "n" });
    expect(compile).toHaveBeenCalledTimes(0);
    safeCompileObjectSchema(echoSchema(base), { name: "n" });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it("schemas that are not plain JSON data have no cache text and compile every time", () => {
    const getter = echoSchema();
    Object.defineProperty(getter.properties.text, "maxLength", { get: () => 5, enumerable: true });
    class Schema {
      type = "object";
    }
    const symbolKeyed = { ...echoSchema(), [Symbol("kind")]: "Object" };
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.self = cyclic;
    for (const schema of [
      getter,
      new Schema(),
      symbolKeyed,
      cyclic,
      { type: "object", minProperties: Number.NaN },
      { type: "object", description: undefined },
      { type: "object", description: "x".repeat(70_000) },
    ]) {
      expect(schemaCacheText(schema)).toBeUndefined();
    }
    // A getter never runs while the text is built.
    let reads = 0;
    const watched = { type: "object" };
    Object.defineProperty(watched, "title", { get: () => String(++reads), enumerable: true });
    expect(schemaCacheText(watched)).toBeUndefined();
    expect(reads).toBe(0);
    // Plain data, in any realm-free form, has a text; key order is part of it.
    expect(schemaCacheText({ type: "object", properties: { a: { enum: [1, "b", null, true] } } })).toBe(
      '{"type":"object","properties":{"a":{"enum":[1,"b",null,true]}}}',
    );
    expect(schemaCacheText({ b: 1, a: 2 })).not.toBe(schemaCacheText({ a: 2, b: 1 }));
    expect(schemaCacheText(Object.assign(Object.create(null), { type: "object" }))).toBe('{"type":"object"}');
  });

  it("a schema with a nested getter is compiled every time (no cache text) and validates as before", () => {
    const ajv = sharedAjv("2020-12");
    const schema = echoSchema(3);
    Object.defineProperty(schema.properties.text, "maxLength", { get: () => 3, enumerable: true });
    const compile = vi.spyOn(ajv, "compile");
    const a = safeCompileObjectSchema(schema, { name: "g" });
    const b = safeCompileObjectSchema(echoSchema(3), { name: "g" });
    const c = safeCompileObjectSchema({ ...schema }, { name: "g" });
    expect(compile).toHaveBeenCalledTimes(3);
    expect(a.ok && a.validator.test({ text: "abcd" })).toBe(false);
    expect(b.ok && b.validator.test({ text: "abc" })).toBe(true);
    expect(c.ok && c.validator.test({ text: "abc" })).toBe(true);
  });
});
