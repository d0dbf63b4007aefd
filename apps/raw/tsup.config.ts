import { defineConfig } from "tsup";

export default defineConfig({
  // One build for the CLI and the bundled tools, so they share chunks: bin.ts plus one chunk per command (loaded
  // with import() only when the command runs), and dist/tools/<id>.js, which apps/raw/tools/<id>/index.mjs
  // re-exports. The @raw/* packages are inlined from their built dist (resolved through their public names and
  // exports maps): Ajv with its dependencies is about a hundred CommonJS modules, and loading them one by one
  // would cost more than a bare `node` start.
  entry: {
    bin: "src/bin.ts",
    // The child process of `raw validate` that imports one tool entry: a small script of its own.
    "validate-child": "src/validate-child.ts",
    "tools/write_file": "src/tools/write-file/index.ts",
    "tools/bash": "src/tools/bash/index.ts",
    "tools/todo": "src/tools/todo/index.ts",
    "tools/ask_user": "src/tools/ask-user/index.ts",
    "tools/diagram": "src/tools/diagram/index.ts",
  },
  format: ["esm"],
  splitting: true,
  noExternal: [/^@raw\//],
  // Minified for start-up; with `--debug`, stack traces map back to the TypeScript sources.
  minify: true,
  sourcemap: true,
  dts: false,
  clean: true,
  target: "node20",
  platform: "node",
  banner: { js: "#!/usr/bin/env node" },
});
