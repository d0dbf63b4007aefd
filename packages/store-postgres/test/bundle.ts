import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const packages = join(here, "..", "..");

/**
 * Bundles a TypeScript host script of the test folder into runnable ESM for a child `node` process, with `@raw/*`
 * taken from the sibling sources and the database drivers left as real packages. The output lives under the
 * package's `node_modules/.cache`, so the drivers resolve exactly as they do for the tests.
 */
export async function bundleHost(entry: string): Promise<string> {
  const outdir = join(here, "..", "node_modules", ".cache", "raw-store-tests");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `${entry.replace(/[^a-z0-9]+/gi, "-")}.mjs`);
  await build({
    entryPoints: [join(here, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3", "pg"],
    alias: {
      "@raw/panel": join(packages, "panel", "src", "index.ts"),
      "@raw/schema": join(packages, "schema", "src", "index.ts"),
    },
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: "silent",
  });
  return outfile;
}
