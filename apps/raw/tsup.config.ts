import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { defineConfig } from "tsup";

const packages = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "packages");

/**
 * esbuild plugin: inside the bundled tools (`src/tools/`), `@raw/<name>` resolves to the package's TypeScript sources
 * (`packages/<name>/src/index.ts`, the module graph the package's own build starts from) instead of its single-file
 * dist, so that a tool bundles only the modules it uses (the packages declare `"sideEffects": false`): the bash tool
 * needs two functions of `@raw/hook-protocol`, not the package's whole dist with Ajv. The sources reached that way
 * resolve their own `@raw/*` imports the same way. The CLI itself keeps the packages' dist.
 */
const toolsFromSources = {
  name: "raw-tools-from-sources",
  setup(build: {
    onResolve(
      options: { filter: RegExp },
      callback: (args: { path: string; importer: string }) => { path: string } | undefined,
    ): void;
  }) {
    build.onResolve({ filter: /^@raw\/[a-z-]+$/ }, (args) => {
      const fromTools = args.importer.includes("/apps/raw/src/tools/");
      const fromSources = /\/packages\/[a-z-]+\/src\//.test(args.importer);
      if (!fromTools && !fromSources) return undefined;
      const source = join(packages, args.path.slice("@raw/".length), "src", "index.ts");
      return existsSync(source) ? { path: source } : undefined;
    });
  },
};

export default defineConfig({
  // One build for the CLI and the bundled tools: bin.ts plus one chunk per command (loaded with import() only when
  // the command runs), and dist/tools/<id>.js, which apps/raw/tools/<id>/index.mjs re-exports. The CLI inlines the
  // @raw/* packages from their built dist (resolved through their public names and exports maps): Ajv with its
  // dependencies is about a hundred CommonJS modules, and loading them one by one would cost more than a bare
  // `node` start. The bundled tools take the packages' modules from their sources (`toolsFromSources`), so that
  // importing a tool (what `raw validate` does in its child, and `raw call` before a call) loads only what the
  // tool uses: the bash tool imports in 15 ms instead of 73 ms.
  entry: {
    bin: "src/bin.ts",
    "tools/write_file": "src/tools/write-file/index.ts",
    "tools/bash": "src/tools/bash/index.ts",
    "tools/todo": "src/tools/todo/index.ts",
    "tools/ask_user": "src/tools/ask-user/index.ts",
    "tools/diagram": "src/tools/diagram/index.ts",
  },
  format: ["esm"],
  splitting: true,
  noExternal: [/^@raw\//],
  esbuildPlugins: [toolsFromSources],
  // Minified for start-up; with `--debug`, stack traces map back to the TypeScript sources. The maps carry the
  // mappings only, not a copy of every source (`sourcesContent`): that halves the installed size (4.3 to 2.4 MB).
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  minify: true,
  sourcemap: true,
  dts: false,
  clean: true,
  target: "node20",
  platform: "node",
  banner: { js: "#!/usr/bin/env node" },
  // The child process of `raw validate` that imports tool entries: a small script of its own, CommonJS (loaded
  // synchronously, so it listens on its IPC channel before the first message is read), with no `@raw/*` code.
  async onSuccess() {
    await build({
      entryPoints: ["src/validate-child.ts"],
      outfile: "dist/validate-child.cjs",
      bundle: true,
      format: "cjs",
      platform: "node",
      target: "node20",
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      logLevel: "warning",
    });
  },
});
