import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compileObjectSchema } from "@raw/schema";
import { parseToolManifest, validateToolFolder } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import { BUNDLED_TOOLS, entryText, manifestText } from "../src/manifests.js";

const toolsDir = fileURLToPath(new URL("../tools/", import.meta.url));

describe.each(BUNDLED_TOOLS)("tools/$id", (tool) => {
  const folder = `${toolsDir}${tool.id}`;

  it("tool.json and index.mjs match their TypeScript source", () => {
    // RAW_WRITE_TOOLS=1 regenerates the folder (then run biome on it); the formatting is biome's.
    if (process.env.RAW_WRITE_TOOLS) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(`${folder}/tool.json`, manifestText(tool));
      writeFileSync(`${folder}/index.mjs`, entryText(tool));
    }
    expect(JSON.parse(readFileSync(`${folder}/tool.json`, "utf8"))).toEqual(tool.manifest);
    expect(readFileSync(`${folder}/index.mjs`, "utf8")).toBe(entryText(tool));
  });

  it("is a valid api_version 2 manifest whose id is the folder name", () => {
    const parsed = parseToolManifest(JSON.parse(readFileSync(`${folder}/tool.json`, "utf8")), {
      expectedId: tool.id,
    });
    expect(parsed.ok ? [] : parsed.issues).toEqual([]);
    expect(parsed.ok && parsed.warnings).toEqual([]);
    expect(() =>
      compileObjectSchema(tool.manifest.input_schema, { name: `arguments of ${tool.id}` }),
    ).not.toThrow();
  });

  it("passes validateToolFolder (built entry, exports checked)", async () => {
    const result = await validateToolFolder(folder, { identity: `builtin/${tool.id}` });
    expect(result.issues).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.ok).toBe(true);
    const module = (await import(`${folder}/index.mjs`)) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual([...tool.exports].sort());
  });
});

it("the tools folder holds exactly the bundled tools", () => {
  expect(readdirSync(toolsDir).sort()).toEqual(BUNDLED_TOOLS.map((tool) => tool.id).sort());
});
