/**
 * The layering of DESIGN.md, checked on the imports of every `src/**` file of the repository (a private
 * test-support module, never published: `@raw/test-support/layering`). Imports are read with the TypeScript
 * scanner (`ts.preProcessFile`): static imports, `export ... from`, `import()` and `require()` with a string, never
 * text in comments or strings.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/**
 * The `@raw/*` packages each package may import, from DESIGN.md §2 (everything depends only downward; nothing
 * imports a package beside it). `@raw/node-support` is the private I/O helper package of the two loaders.
 */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  "@raw/schema": [],
  "@raw/node-support": [],
  "@raw/predicate": ["@raw/schema"],
  "@raw/effects": ["@raw/schema"],
  "@raw/panel": ["@raw/schema"],
  "@raw/hook-protocol": ["@raw/schema", "@raw/predicate", "@raw/node-support"],
  "@raw/tool-api": ["@raw/schema", "@raw/predicate", "@raw/effects", "@raw/panel", "@raw/node-support"],
  "@raw/tools": [
    "@raw/schema",
    "@raw/effects",
    "@raw/panel",
    "@raw/hook-protocol",
    "@raw/tool-api",
    "@raw/node-support",
  ],
  "@raw/mcp": ["@raw/schema", "@raw/panel", "@raw/tool-api"],
  "@raw/panel-web": ["@raw/panel"],
  "@raw/store-sqlite": ["@raw/schema", "@raw/panel"],
  "@raw/store-postgres": ["@raw/schema", "@raw/panel"],
  "@raw/cli": [
    "@raw/schema",
    "@raw/predicate",
    "@raw/effects",
    "@raw/panel",
    "@raw/hook-protocol",
    "@raw/tool-api",
    "@raw/tools",
    "@raw/mcp",
    "@raw/panel-web",
    "@raw/store-sqlite",
    "@raw/store-postgres",
  ],
};

/** Node's built-in modules by their bare names (`fs`, `child_process`, ...). */
const NODE_BUILTINS: ReadonlySet<string> = new Set(builtinModules);

/** Packages whose `src/` is browser code: it never reaches a `node:` module (DESIGN.md, phase 2). */
export const BROWSER_PACKAGES: ReadonlySet<string> = new Set(["@raw/panel-web"]);

/** Why an import is refused. */
export type ImportRule =
  /** A workspace package the importing package's package.json does not declare. */
  | "undeclared_dependency"
  /** A package DESIGN.md does not let this one depend on (upward or sideways). */
  | "layering"
  /** A path into another package's files (`@raw/x/src/...`, `../../x/src/...`) instead of its public name. */
  | "source_reach"
  /** A `node:` module (or a Node built-in) imported by browser code. */
  | "node_in_browser";

/** One refused import. */
export interface ImportViolation {
  readonly package: string;
  /** The file, relative to the package folder. */
  readonly file: string;
  readonly specifier: string;
  readonly rule: ImportRule;
}

/** One package as the check reads it. */
export interface PackageImports {
  readonly name: string;
  /** Absolute folder of the package (relative imports must stay inside it). */
  readonly dir: string;
  /** Every package its package.json declares (dependencies, devDependencies, peerDependencies). */
  readonly declared: readonly string[];
  /** Its source files: path relative to `dir`, and text. */
  readonly files: readonly { readonly path: string; readonly text: string }[];
}

/** The module specifiers a TypeScript file imports (never what is only in comments or strings). */
export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`), or undefined for a relative one. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The refused imports of one package: undeclared, against the layering, into another package's files. */
export function checkPackageImports(pkg: PackageImports): ImportViolation[] {
  const violations: ImportViolation[] = [];
  const allowed = new Set(ALLOWED_IMPORTS[pkg.name] ?? []);
  const declared = new Set(pkg.declared);
  for (const file of pkg.files) {
    const refuse = (specifier: string, rule: ImportRule) =>
      violations.push({ package: pkg.name, file: file.path, specifier, rule });
    for (const specifier of importSpecifiers(file.text)) {
      const name = packageOf(specifier);
      if (name === undefined) {
        const target = resolve(pkg.dir, file.path, "..", specifier);
        if (relative(pkg.dir, target).split(sep)[0] === "..") refuse(specifier, "source_reach");
        continue;
      }
      if (BROWSER_PACKAGES.has(pkg.name) && (specifier.startsWith("node:") || NODE_BUILTINS.has(name))) {
        refuse(specifier, "node_in_browser");
      }
      if (!name.startsWith("@raw/") || name === pkg.name) continue;
      const sub = specifier.slice(name.length);
      if (/^\/(src|dist|test)(\/|$)/.test(sub)) refuse(specifier, "source_reach");
      if (!declared.has(name)) refuse(specifier, "undeclared_dependency");
      if (!allowed.has(name)) refuse(specifier, "layering");
    }
  }
  return violations;
}

function sourceFiles(dir: string, under = ""): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  for (const entry of readdirSync(join(dir, under), { withFileTypes: true })) {
    const path = under === "" ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) files.push(...sourceFiles(dir, path));
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      files.push({ path, text: readFileSync(join(dir, path), "utf8") });
    }
  }
  return files;
}

/** Every workspace package of the repository at `root` (`packages/*`, `apps/*`) with the files of its `src/`. */
export function repositoryPackages(root: string): PackageImports[] {
  const packages: PackageImports[] = [];
  for (const group of ["packages", "apps"]) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const dir = join(root, group, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, "package.json"))) continue;
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name: string;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const declared = Object.keys({
        ...manifest.dependencies,
        ...manifest.devDependencies,
        ...manifest.peerDependencies,
      });
      const files = existsSync(join(dir, "src")) ? sourceFiles(dir, "src") : [];
      packages.push({ name: manifest.name, dir, declared, files });
    }
  }
  return packages;
}
