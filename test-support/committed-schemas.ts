/**
 * The drift checks of a package's committed JSON Schemas (a private test-support module, reached as
 * `@raw/test-support/committed-schemas`): each file under `schemas/` is what its TypeBox source serializes to (written
 * again with `RAW_WRITE_SCHEMAS=1`), and the schema object the package exports is that source, key for key and in
 * order, without `$id` or `$schema`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { serializeJsonSchema } from "@raw/schema";
import { expect, it } from "vitest";

/** One committed schema: its file name under `schemas/`, its TypeBox source, the exported object, its `$id`. */
export type CommittedSchema = readonly [file: string, source: object, shipped: object, id: string];

/** Registers the two drift tests for `files`, whose `schemas/` folder sits beside the test folder of `testFileUrl`. */
export function checkCommittedSchemas(files: readonly CommittedSchema[], testFileUrl: string): void {
  it.each(files)("schemas/%s matches its TypeBox source", (file, source, _shipped, id) => {
    const url = new URL(`../schemas/${file}`, testFileUrl);
    const text = serializeJsonSchema(source, id);
    if (process.env.RAW_WRITE_SCHEMAS) writeFileSync(url, text);
    expect(readFileSync(url, "utf8")).toBe(text);
  });

  it.each(files)(
    "the exported schema of %s is its TypeBox source, key for key and in order",
    (_file, source, shipped) => {
      expect(JSON.stringify(shipped)).toBe(JSON.stringify(source));
      expect(shipped).toEqual(JSON.parse(JSON.stringify(source)));
      expect(Object.keys(shipped)).not.toContain("$id");
      expect(Object.keys(shipped)).not.toContain("$schema");
    },
  );
}
