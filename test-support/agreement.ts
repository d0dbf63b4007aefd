/**
 * The fixture corpus of a contract document (`test/fixtures/<document>/valid|invalid/*.json`) on which the
 * hand-written parser and the published JSON Schema (`schemas/*.schema.json`) must agree: both accept every valid
 * case and both reject every invalid one (a private test-support module: `@raw/test-support/agreement`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileContractSchema } from "@raw/schema";
import { describe, expect, it } from "vitest";

/** One fixture: its file name and parsed JSON value. */
export interface Fixture {
  readonly file: string;
  readonly value: unknown;
}

/** The `*.json` fixtures of one folder, sorted by name. */
export function readFixtures(dir: string): Fixture[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({ file, value: JSON.parse(readFileSync(join(dir, file), "utf8")) as unknown }));
}

/** How one contract document is checked. */
export interface AgreementOptions {
  /** The document's name, as the fixture folder: `test/fixtures/<document>/`. */
  readonly document: string;
  /** The package folder (`new URL("..", import.meta.url)` from its `test/`). */
  readonly packageUrl: URL;
  /** The published schema file, relative to the package folder (`schemas/tool.schema.json`). */
  readonly schemaFile: string;
  /** The hand-written parser: true when it accepts the value. */
  readonly parse: (value: unknown) => boolean;
}

/** Registers the agreement tests of one contract document. */
export function defineSchemaAgreement(options: AgreementOptions): void {
  const packageDir = fileURLToPath(options.packageUrl);
  const schema = JSON.parse(readFileSync(join(packageDir, options.schemaFile), "utf8")) as object;
  const fixtures = join(packageDir, "test", "fixtures", options.document);
  describe(`${options.document}: the parser and ${options.schemaFile} agree`, () => {
    const valid = readFixtures(join(fixtures, "valid"));
    const invalid = readFixtures(join(fixtures, "invalid"));

    it("has a corpus on both sides", () => {
      expect(valid.length).toBeGreaterThan(0);
      expect(invalid.length).toBeGreaterThan(0);
    });

    it.each(valid.map((fixture) => [fixture.file, fixture.value]))("both accept valid/%s", (_file, value) => {
      const validate = compileContractSchema(schema);
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      expect(options.parse(value)).toBe(true);
    });

    it.each(invalid.map((fixture) => [fixture.file, fixture.value]))(
      "both reject invalid/%s",
      (_file, value) => {
        expect(compileContractSchema(schema)(value)).toBe(false);
        expect(options.parse(value)).toBe(false);
      },
    );
  });
}
