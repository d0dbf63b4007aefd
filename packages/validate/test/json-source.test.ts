import {
  BOM_HINT,
  MAX_JSON_SOURCE_DEPTH,
  parseJsonSource,
  positionAt,
  TRAILING_COMMA_HINT,
} from "@raw/validate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

function failure(text: string) {
  const source = parseJsonSource(text);
  if (source.ok) throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
  return source;
}

function positions(text: string) {
  const source = parseJsonSource(text);
  if (!source.ok) throw new Error(`expected valid JSON: ${source.message}`);
  return source;
}

describe("parseJsonSource: syntax errors at the offending token", () => {
  it("puts a trailing comma at the comma itself, with a hint", () => {
    const object = failure('{\n  "a": 1,\n  "b": 2,\n}\n');
    expect(object.position).toEqual({ line: 3, column: 9 });
    expect(object.hint).toBe(TRAILING_COMMA_HINT);
    const array = failure("[1, 2 ,  \n ]");
    expect(array.position).toEqual({ line: 1, column: 7 });
    expect(array.hint).toBe(TRAILING_COMMA_HINT);
  });

  it("reports a byte-order mark with its own message, at 1:1, with the character escaped", () => {
    const bom = failure('\uFEFF{"a": 1}');
    expect(bom).toEqual({
      ok: false,
      message: "JSON text must not start with a UTF-8 byte-order mark (U+FEFF)",
      position: { line: 1, column: 1 },
      hint: BOM_HINT,
    });
    expect(bom.message).not.toContain("\uFEFF");
  });

  it.each([
    ['{"a" 1}', 1, 6],
    ['{"a":1', 1, 7],
    ["", 1, 1],
    ['{"a":1} x', 1, 9],
    ["[1,,2]", 1, 4],
    ['{\n  "a": tru\n}', 2, 8],
    ['{"a":\r\n  01}', 2, 3],
    ['{"a": "\\x"}', 1, 8],
  ])("%j fails at %i:%i", (text, line, column) => {
    expect(failure(text).position).toEqual({ line, column });
  });

  it("positions a raw control character in a string (which the tree parser allows and JSON.parse does not)", () => {
    const source = failure('{\n  "a": "x\u0001y"\n}');
    expect(source.position).toEqual({ line: 2, column: 10 });
    expect(source.message).toBe("Bad control character in string literal");
  });

  it("keeps JSON.parse's message without its excerpt of the text", () => {
    const source = failure(`{"secret": "${"x".repeat(100)}", }`);
    expect(source.message).not.toContain("secret");
    expect(source.message).not.toMatch(/position/);
    const long = failure(`[${"1,".repeat(50)}]`);
    expect(long.message).toBe("Unexpected token ']'");
  });
});

describe("parseJsonSource: pointers", () => {
  it("maps every node, members at their key, elements at their value", () => {
    const source = positions('{\n  "a": [10, {"b~/c": true}],\n  "n": null\n}');
    expect(source.value).toEqual({ a: [10, { "b~/c": true }], n: null });
    expect(source.positionOf("")).toEqual({ line: 1, column: 1 });
    expect(source.positionOf("/a")).toEqual({ line: 2, column: 3 });
    expect(source.positionOf("/a/0")).toEqual({ line: 2, column: 9 });
    expect(source.positionOf("/a/1")).toEqual({ line: 2, column: 13 });
    expect(source.positionOf("/a/1/b~0~1c")).toEqual({ line: 2, column: 14 });
    expect(source.positionOf("/n")).toEqual({ line: 3, column: 3 });
    // A pointer below a leaf falls back to the nearest node that exists.
    expect(source.positionOf("/a/1/b~0~1c/deeper/0")).toEqual({ line: 2, column: 14 });
    expect(source.positionOf("/missing")).toEqual({ line: 1, column: 1 });
  });

  it("keeps JSON.parse's last-key-wins, and points a repeated key at the occurrence that is kept", () => {
    const source = positions('{"a": 1,\n "a": {"x": 2},\n "__proto__": 3}');
    expect(source.value).toEqual(JSON.parse('{"a": 1, "a": {"x": 2}, "__proto__": 3}'));
    expect(Object.hasOwn(source.value as object, "__proto__")).toBe(true);
    expect(source.positionOf("/a")).toEqual({ line: 2, column: 2 });
    expect(source.positionOf("/a/x")).toEqual({ line: 2, column: 8 });
    expect(source.positionOf("/__proto__")).toEqual({ line: 3, column: 2 });
  });

  it("counts columns in UTF-16 code units and CRLF as one line end", () => {
    const source = positions('{"😀": 1, "b": 2}\r\n');
    expect(source.positionOf("/b")).toEqual({ line: 1, column: 11 });
    expect(positionAt("a\r\nb\rc\nd", 7)).toEqual({ line: 4, column: 1 });
  });
});

describe("parseJsonSource: any text gives a bounded answer", () => {
  it("never throws and agrees with JSON.parse on every text (fast-check, 2,000 runs)", () => {
    const jsonish = fc.stringMatching(/^[\s{}[\]",:0-9a-z\\\-.eE\u0000\uFEFF\u2028]{0,40}$/);
    fc.assert(
      fc.property(fc.oneof(jsonish, fc.string(), fc.json()), (text) => {
        const source = parseJsonSource(text);
        let expected: { ok: true; value: unknown } | { ok: false };
        try {
          expected = { ok: true, value: JSON.parse(text) };
        } catch {
          expected = { ok: false };
        }
        expect(source.ok).toBe(expected.ok);
        if (source.ok && expected.ok) {
          expect(source.value).toEqual(expected.value);
          expect(source.positionOf("").line).toBe(1);
        } else if (!source.ok) {
          const lines = text.split(/\r\n|\r|\n/);
          expect(source.position.line).toBeGreaterThanOrEqual(1);
          expect(source.position.line).toBeLessThanOrEqual(lines.length);
          const line = lines[source.position.line - 1] ?? "";
          expect(source.position.column).toBeGreaterThanOrEqual(1);
          expect(source.position.column).toBeLessThanOrEqual(line.length + 1);
        }
      }),
      { seed: 20261203, numRuns: 2000 },
    );
  });

  it("maps every pointer of generated JSON to the text its value starts with", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const source = positions(text);
        const lines = text.split("\n");
        const walk = (node: unknown, at: string, key?: string): void => {
          const { line, column } = source.positionOf(at);
          const rest = (lines[line - 1] ?? "").slice(column - 1);
          // A member starts at its key; the root and an element start at their value's first line.
          const expected =
            key === undefined
              ? (JSON.stringify(node, null, indent).split("\n")[0] ?? "")
              : JSON.stringify(key);
          expect(rest.startsWith(expected)).toBe(true);
          if (Array.isArray(node)) {
            for (let i = 0; i < node.length; i++) walk(node[i], `${at}/${i}`);
          } else if (node !== null && typeof node === "object") {
            for (const [name, child] of Object.entries(node)) walk(child, `${at}/${encodeToken(name)}`, name);
          }
        };
        walk(value, "");
      }),
      { seed: 20261204, numRuns: 1000 },
    );
  });

  it("answers for nesting far deeper than the tree parser walks, valid or not", () => {
    const depth = MAX_JSON_SOURCE_DEPTH * 50;
    const valid = positions(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    expect(valid.positionOf("/0/0/0")).toEqual({ line: 1, column: 4 });
    expect(valid.positionOf(`${"/0".repeat(depth - 1)}/5`)).toEqual({ line: 1, column: depth });
    const broken = failure(`${"[".repeat(depth)}1,]${"]".repeat(depth - 1)}`);
    expect(broken.position).toEqual({ line: 1, column: depth + 2 });
    const objects = failure(`${'{"a":'.repeat(depth)}}`);
    expect(objects.position).toEqual({ line: 1, column: depth * 5 + 1 });
    const unfinished = failure(`${"[".repeat(depth)}\n`);
    expect(unfinished.position).toEqual({ line: 2, column: 1 });
  });

  it("resolves a pointer deep in a wide document without a table of every pointer", () => {
    const depth = 900;
    const text = `${"[".repeat(depth)}${Array.from({ length: 100_000 }, (_, i) => i).join(",")}${"]".repeat(depth)}`;
    const source = positions(text);
    expect(source.positionOf(`${"/0".repeat(depth - 1)}/99999`)).toEqual({
      line: 1,
      column: text.indexOf(",99999]") + 2,
    });
    expect(source.positionOf(`${"/0".repeat(depth - 1)}/100000`)).toEqual({ line: 1, column: depth });
  });

  it("places pointers of a text too deep for the tree parser as the tree would, shifted (fast-check)", () => {
    const wrappers = MAX_JSON_SOURCE_DEPTH + 1;
    const prefix = '{"w":'.repeat(wrappers);
    const path = "/w".repeat(wrappers);
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
        (value, extra) => {
          const text = JSON.stringify(value);
          const shallow = positions(text);
          const deep = positions(`${prefix}${text}${"}".repeat(wrappers)}`);
          const pointers: string[] = [];
          const collect = (node: unknown, at: string): void => {
            if (at !== "") pointers.push(at);
            if (Array.isArray(node)) for (let i = 0; i < node.length; i++) collect(node[i], `${at}/${i}`);
            else if (node !== null && typeof node === "object") {
              for (const [key, child] of Object.entries(node)) collect(child, `${at}/${encodeToken(key)}`);
            }
          };
          collect(value, "");
          for (const at of [
            ...pointers,
            ...pointers.map((p) => `${p}/${extra.map(encodeToken).join("/")}`),
          ]) {
            const expected = shallow.positionOf(at);
            const inside = at === "" || expected.column > 1 || pointers.length === 0;
            if (!inside) continue;
            expect(deep.positionOf(`${path}${at}`)).toEqual({
              line: 1,
              column: expected.column + prefix.length,
            });
          }
        },
      ),
      { seed: 20261205, numRuns: 200 },
    );
    const repeated = positions(`${prefix}{"a": {"x": 1}, "a": {"y": 2}}${"}".repeat(wrappers)}`);
    expect(repeated.positionOf(`${path}/a/x`)).toEqual({ line: 1, column: prefix.length + 17 });
  }, 120_000);

  it("answers for binary text and an 8 MiB document", () => {
    const binary = failure(String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i)));
    expect(binary.position).toEqual({ line: 1, column: 1 });
    const big = `[${Array.from({ length: 400_000 }, (_, i) => `"${i % 10}x${i}"`).join(",\n")},]`;
    expect(big.length).toBeGreaterThan(4_000_000);
    const broken = failure(big);
    expect(broken.position).toEqual({ line: 400_000, column: 11 });
  });
});

function encodeToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
