import { spawnSync } from "node:child_process";
import { build } from "esbuild";
import { defineConfig } from "tsup";

/** Packages the CLI never bundles: optional peers a command imports only when it runs. */
const OPTIONAL_PEERS = ["better-sqlite3", "mermaid", "@modelcontextprotocol/sdk", "zod"];

/**
 * `dist/validate-cli.cjs`: `raw validate` (`src/validate-main.ts`) as one classic script with every module it reaches
 * (`import.meta.url` is the bundle's own file URL), then its V8 code cache, written by running the command once on a
 * bundled tool (`dist/bin.js` loads the bundle from that cache; see `src/launch.ts`). Node 20 keeps no code cache
 * for ES modules, and compiling the CLI's modules was most of what `raw validate` cost on top of Node's own start.
 */
async function buildValidateBundle(): Promise<void> {
  await build({
    entryPoints: ["src/validate-main.ts"],
    outfile: "dist/validate-cli.cjs",
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: true,
    external: OPTIONAL_PEERS,
    define: { "import.meta.url": "__rawImportMetaUrl" },
    banner: { js: 'var __rawImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "warning",
  });
  const warm = spawnSync(process.execPath, ["dist/bin.js", "validate", "tools/bash", "tools/write_file"], {
    env: { ...process.env, RAW_WRITE_CODE_CACHE: "1" },
    encoding: "utf8",
  });
  if (warm.status !== 0)
    throw new Error(`writing the code cache of raw validate failed: ${warm.stdout}${warm.stderr}`);
}

export default defineConfig({
  // One build for the CLI and the bundled tools, so they share chunks: bin.ts plus one chunk per command (loaded
  // with import() only when the command runs), and dist/tools/<id>.js, which apps/raw/tools/<id>/index.mjs
  // re-exports. The @raw/* packages are inlined from their built dist (resolved through their public names and
  // exports maps): Ajv with its dependencies is about a hundred CommonJS modules, and loading them one by one
  // would cost more than a bare `node` start.
  entry: {
    // The executable: `raw validate` from its code-cached bundle, every other command from `bin.ts` (src/launch.ts).
    bin: "src/launch.ts",
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
  onSuccess: buildValidateBundle,
});
