/**
 * The drift check of a package's committed static types (a private test-support module, reached as
 * `@raw/test-support/static-types`): a type under `src/` that is the TypeBox `Static` of a schema source is written
 * out as plain TypeScript (so the published `.d.ts` never needs TypeBox), generated from the source with the
 * compiler's own printer, written again with `RAW_WRITE_SCHEMAS=1`, and compared ignoring layout (Biome formats it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, it } from "vitest";

/** One committed static type: where it is written, what it is the `Static` of, and the text around it. */
export interface CommittedStaticType {
  /** The generated file, relative to the test file (`../src/manifest-json.ts`). */
  readonly file: string;
  /** The module of the TypeBox source, relative to the test file (`./schema-source.js`), and the export. */
  readonly source: string;
  readonly sourceExport: string;
  /** The exported type's name and its doc comment (without the comment markers). */
  readonly typeName: string;
  readonly doc: string;
  /** Import lines of the named types the printed type refers to (`import type { X } from "@raw/x";`). */
  readonly imports: readonly string[];
}

/** `Static<typeof source>` as the compiler prints it, with no truncation, named types kept by name. */
export function printStaticType(testFileUrl: string, entry: CommittedStaticType): string {
  const testDir = dirname(fileURLToPath(testFileUrl));
  const config = ts.findConfigFile(testDir, ts.sys.fileExists) as string;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  ) as ts.ParsedCommandLine;
  const virtual = join(testDir, "__static_type__.ts");
  const text = `import type { Static } from "typebox";\nimport type { ${entry.sourceExport} } from "${entry.source}";\nexport type T = Static<typeof ${entry.sourceExport}>;\n`;
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === virtual ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name === virtual || fileExists(name);
  const program = ts.createProgram([virtual], parsed.options, host);
  const checker = program.getTypeChecker();
  const alias = (program.getSourceFile(virtual) as ts.SourceFile).statements.find(ts.isTypeAliasDeclaration);
  if (alias === undefined) throw new Error("no alias");
  return checker.typeToString(
    checker.getTypeAtLocation(alias),
    undefined,
    ts.TypeFormatFlags.NoTruncation |
      ts.TypeFormatFlags.InTypeAlias |
      ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope,
  );
}

/** The whole generated file of `entry`, before Biome lays it out. */
export function staticTypeFile(testFileUrl: string, entry: CommittedStaticType, testName: string): string {
  const doc = entry.doc
    .split("\n")
    .map((line) => ` * ${line}`.trimEnd())
    .join("\n");
  return [
    `// Generated from \`${entry.sourceExport}\` (test/${entry.source.replace(/\.js$/, ".ts").replace(/^\.\//, "")}) by test/${testName}: do not edit;`,
    "// change the schema source and run `npm run schemas`.",
    ...entry.imports,
    "",
    `/**\n${doc}\n */`,
    `export type ${entry.typeName} = ${printStaticType(testFileUrl, entry)};`,
    "",
  ].join("\n");
}

/** Registers the drift test of `entry`: the committed file is the generated one, ignoring layout. */
export function checkCommittedStaticType(entry: CommittedStaticType, testFileUrl: string): void {
  const testName = fileURLToPath(testFileUrl).split(/[\\/]/).pop() as string;
  it(`${entry.file.replace(/^\.\.\//, "")} is Static<typeof ${entry.sourceExport}>, printed`, () => {
    const url = new URL(entry.file, testFileUrl);
    const text = staticTypeFile(testFileUrl, entry, testName);
    if (process.env.RAW_WRITE_SCHEMAS) writeFileSync(url, text);
    // Layout only: whitespace, a separator before a closing bracket, a leading `|` of a union laid out on lines.
    const squash = (source: string) =>
      source
        .replace(/\s+/g, "")
        .replace(/[;,]([}\]>)])/g, "$1")
        .replace(/([(=<,:])\|/g, "$1");
    expect(squash(readFileSync(url, "utf8"))).toBe(squash(text));
  }, 60_000);
}
