import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packages = join(dirname(fileURLToPath(import.meta.url)), "..", "packages");

/**
 * Bundles a TypeScript host script of a store package's test folder (`testDir`) into runnable ESM for a child
 * `node` process, with `@raw/panel` (and its `/host` entry) and `@raw/schema` taken from the sibling sources and the
 * database drivers left as real packages. The output lives under the package's `node_modules/.cache`, so the
 * drivers resolve exactly as they do for the tests. (Shared by the store packages' suites.)
 */
export async function bundleHost(testDir: string, entry: string): Promise<string> {
  const outdir = join(testDir, "..", "node_modules", ".cache", "raw-store-tests");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `${entry.replace(/[^a-z0-9]+/gi, "-")}.mjs`);
  await build({
    entryPoints: [join(testDir, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3", "pg"],
    plugins: [
      {
        name: "raw-sources",
        setup(plugin) {
          const sources: Record<string, string> = {
            "@raw/panel": join(packages, "panel", "src", "index.ts"),
            "@raw/panel/host": join(packages, "panel", "src", "host-entry.ts"),
            "@raw/panel/testing": join(packages, "panel", "src", "testing.ts"),
            "@raw/schema": join(packages, "schema", "src", "index.ts"),
          };
          plugin.onResolve({ filter: /^@raw\// }, (args) => {
            const path = sources[args.path];
            return path === undefined ? undefined : { path };
          });
        },
      },
    ],
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: "silent",
  });
  return outfile;
}
