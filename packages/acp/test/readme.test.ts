import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1],
  code: m[2] as string,
}));
const scratch = join(here, ".readme");

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe("README", () => {
  it("the example prints what the README shows", async () => {
    const code = blocks.find((b) => b.lang === "ts")?.code as string;
    const printed = blocks.find((b) => b.lang === "text")?.code as string;
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, "example.ts");
    writeFileSync(file, code);
    const logged: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args) => {
      logged.push(String(args[0]));
    });
    await import(file);
    expect(`${logged.join("\n")}\n`).toBe(printed);
  });
});
