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
  "@raw/validate": ["@raw/schema", "@raw/panel", "@raw/hook-protocol", "@raw/tool-api", "@raw/tools"],
  "@raw/host": ["@raw/schema", "@raw/effects", "@raw/panel", "@raw/hook-protocol", "@raw/tool-api"],
  "@raw/ai-sdk": [
    "@raw/schema",
    "@raw/effects",
    "@raw/panel",
    "@raw/hook-protocol",
    "@raw/tool-api",
    "@raw/host",
  ],
  "@raw/mcp": ["@raw/schema", "@raw/panel", "@raw/tool-api", "@raw/host"],
  "@raw/acp": ["@raw/schema", "@raw/effects", "@raw/panel", "@raw/tool-api", "@raw/host"],
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
    "@raw/host",
    "@raw/tools",
    "@raw/validate",
    "@raw/mcp",
    "@raw/acp",
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

/** One import cycle between source files of one package: the files in import order, the first repeated last. */
export interface ImportCycle {
  readonly package: string;
  /** Paths relative to the package folder; `files[0]` imports `files[1]` ... and the last imports `files[0]`. */
  readonly files: readonly string[];
}

/**
 * The source file a relative specifier of `from` names among `paths` (`./x.js` → `x.ts`, `./x` → `x.ts` or
 * `x/index.ts`), or undefined when it names none of them.
 */
function resolveRelative(from: string, specifier: string, paths: ReadonlySet<string>): string | undefined {
  const base = join(from, "..", specifier).split(sep).join("/");
  const stem = base.replace(/\.(c|m)?jsx?$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, `${base}/index.ts`];
  return candidates.find((candidate) => paths.has(candidate));
}

/**
 * The import cycles between the source files of one package: every strongly connected set of files that import
 * each other (type-only imports included, through `import`, `export ... from`, `import()` and `require()`, read
 * with the same scanner as `checkPackageImports`), each given as one cycle through its files. Sorted; empty when the
 * files' imports form a tree (a DAG).
 */
export function importCycles(pkg: PackageImports): ImportCycle[] {
  const paths = new Set(pkg.files.map((file) => file.path));
  const edges = new Map<string, string[]>();
  for (const file of pkg.files) {
    const targets = new Set<string>();
    for (const specifier of importSpecifiers(file.text)) {
      if (!specifier.startsWith(".")) continue;
      const target = resolveRelative(file.path, specifier, paths);
      if (target !== undefined) targets.add(target);
    }
    edges.set(file.path, [...targets].sort());
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfImport = component.length === 1 && (edges.get(node) ?? []).includes(node);
      if (component.length > 1 || selfImport) components.push(component);
    }
  };
  for (const path of [...paths].sort()) if (!index.has(path)) visit(path);
  return components
    .map((component) => ({ package: pkg.name, files: cycleThrough(component, edges) }))
    .sort((a, b) => (a.files[0] as string).localeCompare(b.files[0] as string, "en"));
}

/** One cycle through the files of a strongly connected set, from its first file by name (a breadth-first path back). */
function cycleThrough(component: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const next of edges.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}
