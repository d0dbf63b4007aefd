/** JSON Pointer helpers (RFC 6901): escaping and parsing of reference tokens. */
import { describe, expect, it } from "vitest";
import { escapePointerToken, parsePointer, pointer, unescapePointerToken } from "../src/index.js";

describe("JSON Pointer tokens", () => {
  it("escapes ~ and / (in that order) and leaves every other token as it is", () => {
    expect(escapePointerToken("a/b~c")).toBe("a~1b~0c");
    expect(escapePointerToken("~1")).toBe("~01");
    expect(escapePointerToken("/~")).toBe("~1~0");
    expect(escapePointerToken("plain key")).toBe("plain key");
    expect(escapePointerToken("")).toBe("");
    expect(escapePointerToken(3)).toBe("3");
  });

  it("round-trips through pointer and parsePointer", () => {
    const tokens = ["a/b~c", "~1", "", "0", "x y"];
    expect(parsePointer(pointer(...tokens))).toEqual(tokens);
    expect(tokens.map((t) => unescapePointerToken(escapePointerToken(t)))).toEqual(tokens);
  });
});
