import { describe, expect, it } from "vitest";
import { nearestName } from "../src/index.js";

const FIELDS = ["api_version", "id", "version", "name", "description", "input_schema", "entry", "required"];

describe("nearestName", () => {
  it("suggests the nearest candidate within distance 2", () => {
    expect(nearestName("requried", FIELDS)).toBe("required");
    expect(nearestName("inputSchema", ["input_schema", "entry"])).toBe("input_schema");
    expect(nearestName("input_schem", FIELDS)).toBe("input_schema");
    expect(nearestName("descripton", FIELDS)).toBe("description");
    expect(nearestName("entyr", FIELDS)).toBe("entry");
    expect(nearestName("timeout", ["timeout_ms"])).toBeUndefined();
    expect(nearestName("timeout", ["timeout_ms"], 3)).toBe("timeout_ms");
  });

  it("suggests nothing for exact, distant, tiny or huge names", () => {
    expect(nearestName("name", FIELDS)).toBeUndefined();
    expect(nearestName("zzzzzz", FIELDS)).toBeUndefined();
    expect(nearestName("x", ["id"])).toBeUndefined();
    expect(nearestName("a".repeat(10_000), ["a"])).toBeUndefined();
    expect(nearestName("abc", [])).toBeUndefined();
  });

  it("prefers the first candidate on a tie", () => {
    expect(nearestName("ab", ["ac", "ad"])).toBe("ac");
  });
});
