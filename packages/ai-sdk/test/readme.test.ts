import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1],
  code: m[2] as string,
}));

describe("README", () => {
  it("shows examples/write-twice.ts as it is, and what it prints (test/example.test.ts runs it)", () => {
    const example = readFileSync(new URL("../examples/write-twice.ts", import.meta.url), "utf8");
    expect(blocks.find((b) => b.lang === "ts")?.code).toBe(example);
    const printed = blocks.find((b) => b.lang === "text")?.code;
    const expected = readFileSync(new URL("./example.test.ts", import.meta.url), "utf8");
    for (const line of (printed ?? "").trim().split("\n")) expect(expected).toContain(JSON.stringify(line));
  });
});
