import { readFileSync, writeFileSync } from "node:fs";
import { serializeJsonSchema } from "@raw/schema";
import { expect, expectTypeOf, it } from "vitest";
import {
  FILES_EFFECTS_SCHEMA,
  type FileEffect,
  type FileOperation,
  type FilesEffects,
  FilesEffectsSchema,
} from "../src/index.js";
import { FilesEffectsSchemaSource, type FilesEffectsSource } from "./schema-source.js";

const files = [
  [
    "files-effects.schema.json",
    FilesEffectsSchemaSource,
    FilesEffectsSchema,
    "https://raw.tlelabs.com/schemas/raw.tool-api/2/files-effects.schema.json",
  ],
] as const;

it.each(files)("schemas/%s matches its TypeBox source", (file, source, _shipped, id) => {
  const url = new URL(`../schemas/${file}`, import.meta.url);
  const text = serializeJsonSchema(source, id);
  if (process.env.RAW_WRITE_SCHEMAS) writeFileSync(url, text);
  expect(readFileSync(url, "utf8")).toBe(text);
});

it.each(files)(
  "the exported schema of %s is its TypeBox source, key for key and in order",
  (_f, source, shipped) => {
    expect(JSON.stringify(shipped)).toBe(JSON.stringify(source));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(source)));
    expect(Object.keys(shipped)).not.toContain("$id");
    expect(Object.keys(shipped)).not.toContain("$schema");
  },
);

it("the plain types are the ones TypeBox derives from the source", () => {
  expectTypeOf<FilesEffects>().toEqualTypeOf<FilesEffectsSource>();
  expectTypeOf<FileEffect>().toEqualTypeOf<FilesEffectsSource["files"][number]>();
  expectTypeOf<FileOperation>().toEqualTypeOf<"write" | "delete" | "rename_source" | "rename_destination">();
});

it("the committed files-effects schema is the spec's §6.4 schema plus $schema and $id", () => {
  const url = new URL("../schemas/files-effects.schema.json", import.meta.url);
  const { $schema, $id, ...body } = JSON.parse(readFileSync(url, "utf8"));
  expect($schema).toBe("https://json-schema.org/draft/2020-12/schema");
  expect($id).toBe("https://raw.tlelabs.com/schemas/raw.tool-api/2/files-effects.schema.json");
  expect(body).toEqual(FILES_EFFECTS_SCHEMA);
});
