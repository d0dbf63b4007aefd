import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.shared.ts";

const here = dirname(fileURLToPath(import.meta.url));
const packages = join(here, "..");

/** The tools' built modules: `dist/tools/<name>.js`, which `tools/<name>/index.mjs` re-exports. */
const TOOL_ENTRIES: Record<string, string> = {
  write_file: "src/write-file/index.ts",
  bash: "src/bash/index.ts",
  todo: "src/todo/index.ts",
  ask_user: "src/ask-user/index.ts",
  diagram: "src/diagram/index.ts",
};

/**
 * esbuild plugin: `@raw/<name>` resolves to the sibling package's TypeScript sources (`packages/<name>/src/index.ts`,
 * the module graph the package's own build starts from) instead of its single-file dist, so that a tool bundles only
 * the modules it uses (the packages declare `"sideEffects": false`): the bash tool needs two functions of
 * `@raw/hook-protocol`, not the package's whole dist with Ajv. Every other bare import stays external (the packed
 * tarball test fails on one the package does not declare).
 */
const rawFromSources: Plugin = {
  name: "raw-tools-from-sources",
  setup(context) {
    context.onResolve({ filter: /^@raw\/[a-z-]+$/ }, (args) => {
      const source = join(packages, args.path.slice("@raw/".length), "src", "index.ts");
      return existsSync(source) ? { path: source } : undefined;
    });
    context.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * The tool modules: ES modules with their `@raw/*` code inlined and tree-shaken, so that importing a tool (what a
 * host does when it loads the folder, and `raw validate` in its child) loads only what the tool uses: the bash tool
 * imports in about 15 ms instead of 73 ms through the packages' dist. Chunks shared by several tools are split out.
 * Minified, with source maps of mappings only (no copy of the sources): a stack trace maps back to the TypeScript
 * file and line when the host enables source maps (`raw --debug`).
 */
async function buildTools(): Promise<void> {
  await build({
    entryPoints: TOOL_ENTRIES,
    outdir: "dist/tools",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    plugins: [rawFromSources],
    logLevel: "warning",
  });
}

const base = packageBuild({ index: "src/index.ts" });

export default defineConfig({
  ...base,
  tsconfig: "tsconfig.build.json",
  // `import.meta.url` in the CommonJS build too: `bundledToolFolders()` finds the tool folders from its own file.
  shims: true,
  async onSuccess() {
    if (typeof base.onSuccess === "function") await base.onSuccess();
    await buildTools();
  },
});
