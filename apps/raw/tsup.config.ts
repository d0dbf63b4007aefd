import { copyFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { defineConfig } from "tsup";

export default defineConfig({
  // bin.ts plus one chunk per command (loaded with import() only when the command runs). The CLI inlines the @raw/*
  // packages from their built dist (resolved through their public names and exports maps): Ajv with its
  // dependencies is about a hundred CommonJS modules, and loading them one by one would cost more than a bare
  // `node` start. `@raw/tools` is the exception: a runtime dependency whose tool folders must be on disk (the CLI
  // loads them with `bundledToolFolders()`), so it stays external; its tool modules are self-contained.
  entry: { bin: "src/bin.ts" },
  format: ["esm"],
  splitting: true,
  noExternal: [/^@raw\/(?!tools$)/],
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
  // The child process of `raw validate` that imports tool entries: `@raw/validate/child` (a small CommonJS script with
  // no `@raw/*` code), copied next to the binary, which names it with `useChildScript`. The CLI inlines
  // `@raw/validate` like the other libraries, so the package itself need not be installed beside it.
  async onSuccess() {
    const child = createRequire(import.meta.url).resolve("@raw/validate/child");
    await copyFile(child, "dist/validate-child.cjs");
  },
});
