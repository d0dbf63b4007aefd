import { readFileSync, writeFileSync } from "node:fs";
import { serializeJsonSchema } from "@raw/schema";
import { expect, it } from "vitest";
import { FILES_EFFECTS_SCHEMA, FilesEffectsSchema } from "../src/index.js";

const files = [
  [
    "files-effects.schema.json",
    FilesEffectsSchema,
    "https://raw.tlelabs.com/schemas/raw.tool-api/2/files-effects.schema.json",
  ],
] as const;

it.each(files)("schemas/%s matches its TypeBox source", (file, schema, id) => {
  const url = new URL(`../schemas/${file}`, import.meta.url);
  const text = serializeJsonSchema(schema, id);
  if (process.env.RAW_WRITE_SCHEMAS) writeFileSync(url, text);
  expect(readFileSync(url, "utf8")).toBe(text);
});

it("the committed files-effects schema is the spec's §6.4 schema plus $schema and $id", () => {
  const url = new URL("../schemas/files-effects.schema.json", import.meta.url);
  const { $schema, $id, ...body } = JSON.parse(readFileSync(url, "utf8"));
  expect($schema).toBe("https://json-schema.org/draft/2020-12/schema");
  expect($id).toBe("https://raw.tlelabs.com/schemas/raw.tool-api/2/files-effects.schema.json");
  expect(body).toEqual(FILES_EFFECTS_SCHEMA);
});
