import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { expect, it, vi } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const example = readFileSync(new URL("./examples/define-tool.ts", import.meta.url), "utf8");

it("the README's typed-tool example is test/examples/define-tool.ts (typechecked with the tests)", () => {
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});

it("the typed-tool example prints what its comments show", async () => {
  const printed: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...values: unknown[]) => {
    printed.push(
      values.map((value) => inspect(value, { breakLength: Number.POSITIVE_INFINITY, depth: 5 })).join(" "),
    );
  });
  await import("./examples/define-tool.js");
  const shown = [...example.matchAll(/^\/\/ (\{.*\})$/gm)].map((match) => match[1]);
  expect(shown).toHaveLength(2);
  expect(printed).toEqual(shown);
});
