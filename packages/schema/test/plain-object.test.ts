import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { compileObjectSchema, isObjectRecord, isPlainObject } from "../src/index.js";

// Jest runs each test file in a vm context whose `structuredClone` returns objects of the host realm: a host that
// clones a tool schema there hands @raw/schema plain objects with another realm's Object.prototype.
describe("isPlainObject across realms", () => {
  it("accepts {} and Object.create(null) from this realm and from another one", () => {
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject(runInNewContext("({ a: 1 })"))).toBe(true);
    expect(isPlainObject(runInNewContext("Object.create(null)"))).toBe(true);
  });

  it("still refuses arrays, class instances and look-alike prototypes from any realm", () => {
    expect(isPlainObject(runInNewContext("[1]"))).toBe(false);
    expect(isPlainObject(runInNewContext("new Map()"))).toBe(false);
    expect(isPlainObject(runInNewContext("new (class A {})()"))).toBe(false);
    expect(isPlainObject(Object.create(Object.create(null)))).toBe(false);
    const fake = Object.create(null);
    function Object_() {}
    Object.defineProperty(Object_, "name", { value: "Object" });
    fake.constructor = Object_;
    Object_.prototype = fake;
    expect(isPlainObject(Object.create(fake))).toBe(false);
    const withGetter = Object.create(null, {
      constructor: {
        get() {
          throw new Error("getter must not run");
        },
      },
    });
    expect(isPlainObject(Object.create(withGetter))).toBe(false);
  });

  it("compiles a tool schema built in another realm", () => {
    const schema = runInNewContext('({ type: "object", properties: { name: { type: "string" } } })');
    const validator = compileObjectSchema(schema, { name: "arguments of greet" });
    expect(validator.validate({ name: "ada" })).toEqual([]);
    expect(validator.validate({ name: 1 })).toHaveLength(1);
  });
});

describe("isObjectRecord (own-property parsers)", () => {
  it("accepts any non-array object whatever its prototype, reading nothing", () => {
    expect(isObjectRecord({})).toBe(true);
    expect(isObjectRecord(Object.create({ inherited: 1 }))).toBe(true);
    expect(isObjectRecord(new (class A {})())).toBe(true);
    expect(isObjectRecord(runInNewContext("({ a: 1 })"))).toBe(true);
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error("no read");
        },
        getPrototypeOf() {
          throw new Error("no read");
        },
      },
    );
    expect(isObjectRecord(trap)).toBe(true);
  });

  it("refuses null, arrays and primitives", () => {
    for (const value of [null, undefined, [], runInNewContext("[]"), "x", 1, true, () => 1]) {
      expect(isObjectRecord(value)).toBe(false);
    }
  });
});
