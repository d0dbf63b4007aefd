import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The CLI: bin.ts plus one chunk per command (loaded with import() only when the command runs). The @raw/*
    // packages are inlined from their built dist (resolved through their public names and exports maps): TypeBox
    // alone is ~700 ES modules, and loading them one by one would cost more than a bare `node` start.
    entry: { bin: "src/bin.ts" },
    format: ["esm"],
    splitting: true,
    noExternal: [/^@raw\//],
    // Minified for start-up; with `--debug`, stack traces map back to the TypeScript sources.
    minify: true,
    sourcemap: true,
    dts: false,
    // dist/tools/ belongs to the second build, which runs at the same time.
    clean: ["!tools/**"],
    target: "node20",
    platform: "node",
    banner: { js: "#!/usr/bin/env node" },
  },
  {
    // The bundled tools: apps/raw/tools/<id>/index.mjs re-exports dist/tools/<id>.js. Each module is
    // self-contained (the @raw/* code the tools use is inlined, shared chunks split out), so loading a tool costs
    // a few files rather than the packages' hundreds of modules.
    entry: {
      write_file: "src/tools/write-file/index.ts",
      bash: "src/tools/bash/index.ts",
      todo: "src/tools/todo/index.ts",
      ask_user: "src/tools/ask-user/index.ts",
      diagram: "src/tools/diagram/index.ts",
    },
    outDir: "dist/tools",
    format: ["esm"],
    noExternal: [/^@raw\//],
    dts: false,
    clean: true,
    splitting: true,
    target: "node20",
    platform: "node",
  },
]);
