import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { expect, it, vi } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const example = readFileSync(new URL("./examples/load-bundled-tools.ts", import.meta.url), "utf8");

it("the README's example is test/examples/load-bundled-tools.ts (typechecked with the tests)", () => {
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});

it("the example loads the bundled tool folders, dispatches todo and prints what its comments show", async () => {
  const printed: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...values: unknown[]) => {
    printed.push(
      values
        .map((value) =>
          typeof value === "string"
            ? value
            : inspect(value, { breakLength: Number.POSITIVE_INFINITY, depth: 5 }),
        )
        .join(" "),
    );
  });
  await import("./examples/load-bundled-tools.js");
  // The comment lines right after a console.log or a dispatch: what the example prints, in order.
  const shown = [...example.matchAll(/^\/\/ (\[ .*|builtin\/.*|true .*|false .*)$/gm)].map(
    (match) => match[1],
  );
  expect(shown).toHaveLength(3);
  expect(printed).toEqual(shown);
});
