/**
 * The public names of a package's entry points, for the tests that pin them in snapshot files (a private
 * test-support module, never published: packages reach it as `@raw/test-support/surface`). Names are read from the
 * entry's source with the TypeScript compiler, so types are pinned as well as values.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ENTRY_SOURCES } from "./entry-sources.js";

/** The exports keys of a package other than patterns and JSON files. */
export function entryPoints(packageDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    exports?: Record<string, unknown>;
  };
  return Object.keys(manifest.exports ?? {}).filter((key) => !key.includes("*") && !key.endsWith(".json"));
}

/**
 * The public names of every entry point of the package in `packageDir`, by subpath: `name` for a value (what the
 * module's namespace object holds at run time), `type Name` for a type-only export, each with ` (deprecated)` when
 * its declaration carries `@deprecated`. Sorted, one per line.
 */
export function publicNames(
  packageDir: string,
  sources: Readonly<Record<string, string>> = ENTRY_SOURCES,
): Record<string, string[]> {
  const entries = entryPoints(packageDir).filter((entry) => sources[entry] !== undefined);
  const files = entries.map((entry) => join(packageDir, sources[entry] as string));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const names: Record<string, string[]> = {};
  entries.forEach((entry, i) => {
    const file = program.getSourceFile(files[i] as string);
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`cannot read the exports of ${files[i]}`);
    names[entry] = checker
      .getExportsOfModule(module)
      .map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        const value = (target.flags & ts.SymbolFlags.Value) !== 0;
        const deprecated = [symbol, target].some((s) =>
          s.getJsDocTags(checker).some((tag) => tag.name === "deprecated"),
        );
        return `${value ? "" : "type "}${symbol.name}${deprecated ? " (deprecated)" : ""}`;
      })
      .sort((a, b) => a.replace(/^type /, "").localeCompare(b.replace(/^type /, ""), "en"));
  });
  return names;
}

/** The value names of one entry point's listing (what `Object.keys` of the loaded module must equal). */
export function valueNames(listing: readonly string[]): string[] {
  return listing
    .filter((line) => !line.startsWith("type "))
    .map((line) => line.replace(/ \(deprecated\)$/, ""))
    .sort();
}

/** The snapshot file name of an entry point: `exports.txt` for `.`, `exports.<subpath>.txt` otherwise. */
export function snapshotName(entry: string): string {
  return entry === "." ? "exports.txt" : `exports.${entry.slice(2).replaceAll("/", "-")}.txt`;
}

/**
 * Registers the tests that pin a package's public surface: for each entry point with a TypeScript source, its
 * names (values and types, `publicNames`) must equal `test/__snapshots__/exports[.<entry>].txt`, and each module
 * given in `modules` must export at run time exactly the values of that listing. `packageUrl` is the package
 * folder (`new URL("..", import.meta.url)` from its `test/`); `sources` maps entry points to their source files
 * when they differ from `ENTRY_SOURCES`.
 */
export function definePinnedSurface(
  packageUrl: URL,
  modules: Readonly<Record<string, object>>,
  sources: Readonly<Record<string, string>> = ENTRY_SOURCES,
): Record<string, string[]> {
  const packageDir = fileURLToPath(packageUrl);
  const names = publicNames(packageDir, sources);
  describe.each(Object.keys(names))("the entry point %s", (entry) => {
    it("lists the public names pinned in test/__snapshots__ (values and types)", async () => {
      await expect(`${(names[entry] ?? []).join("\n")}\n`).toMatchFileSnapshot(
        join(packageDir, "test", "__snapshots__", snapshotName(entry)),
      );
    });
    const module = modules[entry];
    if (module !== undefined) {
      it("exports at run time exactly the values of that listing", () => {
        expect(Object.keys(module).sort()).toEqual(valueNames(names[entry] ?? []));
      });
    }
  });
  return names;
}
