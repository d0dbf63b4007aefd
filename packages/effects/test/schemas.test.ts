import { readFileSync } from "node:fs";
import { checkCommittedSchemas } from "@raw/test-support/committed-schemas";
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

checkCommittedSchemas(files, import.meta.url);

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
