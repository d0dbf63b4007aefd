import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { type Manifest, pack, publishedWorkspaces, repoRoot, unpack } from "./workspaces.js";

const work = mkdtempSync(join(tmpdir(), "raw-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const builtins = new Set(builtinModules);

/** Every file under `dir`, relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for a Node builtin. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith("node:") || builtins.has(specifier)) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The packages the JavaScript of a packed package loads: real import/require/import() only, as esbuild parses them. */
async function runtimeImports(root: string, files: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const entryPoints = files
    .filter((file) => /\.(c|m)?js$/.test(file))
    .map((file) => ({ in: join(root, file), out: file.replace(/[/.]/g, "_") }));
  await build({
    entryPoints,
    bundle: true,
    write: false,
    outdir: join(root, "..", "out"),
    platform: "node",
    format: "esm",
    logLevel: "silent",
    plugins: [
      {
        name: "record-bare-imports",
        setup(context) {
          context.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = packageOf(args.path);
            if (name !== undefined) found.add(name);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return found;
}

/** The packages the type declarations of a packed package import. */
function typeImports(root: string, files: string[]): Set<string> {
  const found = new Set<string>();
  for (const file of files.filter((name) => /\.d\.(c|m)?ts$/.test(name))) {
    const text = readFileSync(join(root, file), "utf8");
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"'.][^"']*)["']/g)) {
      const name = packageOf(match[1] ?? "");
      if (name !== undefined) found.add(name);
    }
  }
  return found;
}

/** Everything a consumer's install brings along for the package. */
function declared(manifest: Manifest): Set<string> {
  return new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
}

describe.each(publishedWorkspaces())("the packed $manifest.name", ({ dir, manifest }) => {
  const root = unpack(pack(dir, join(work, "tarballs")), join(work, manifest.name.replace("/", "__")));
  const files = walk(root);

  it("declares exactly the packages its published JavaScript and type declarations import", async () => {
    const used = new Set([...(await runtimeImports(root, files)), ...typeImports(root, files)]);
    const expected = declared(manifest);
    expect([...used].filter((name) => name !== manifest.name).sort()).toEqual([...expected].sort());
  });

  it("ships the MIT LICENSE of the repository and a README, and no sources or tests", () => {
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toBe(readFileSync(join(repoRoot, "LICENSE"), "utf8"));
    expect(files).toContain("README.md");
    expect(files.filter((file) => /^(src|test)\//.test(file))).toEqual([]);
  });

  it("links the contract documentation inside the repository, never a spec/ folder it does not ship", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme).not.toMatch(/\]\([^)]*spec\//);
    expect(readme).toMatch(/https:\/\/github\.com\/tlelabs\/raw-contracts\/blob\/main\/docs\/[a-z-]+\.md/);
  });
});

describe("@raw/cli", () => {
  it("declares only @raw/tools (the tool folders it loads from disk): its bundle inlines the libraries", () => {
    const cli = publishedWorkspaces().find((workspace) => workspace.manifest.name === "@raw/cli");
    expect(Object.keys(cli?.manifest.dependencies ?? {}).filter((name) => name.startsWith("@raw/"))).toEqual([
      "@raw/tools",
    ]);
  });
});

describe("@raw/tools", () => {
  it("declares no dependency: each tool's module inlines what it uses", () => {
    const tools = publishedWorkspaces().find((workspace) => workspace.manifest.name === "@raw/tools");
    expect(tools?.manifest.dependencies ?? {}).toEqual({});
  });
});
