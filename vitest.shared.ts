import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type ViteUserConfig } from "vitest/config";
import { ENTRY_SOURCES } from "./test-support/entry-sources.ts";

const root = fileURLToPath(new URL(".", import.meta.url));

interface Manifest {
  name: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
}

/** The `@raw/*` packages a package.json declares (any kind of dependency). */
function declared(manifest: Manifest): string[] {
  const all = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
  return Object.keys(all).filter((name) => name.startsWith("@raw/"));
}

/**
 * The `@raw/*` packages whose sources a package's tests load: itself, what it declares, and what those declare in
 * turn (their sources import them). Never a package outside its dependency tree.
 */
export function rawDependencyTree(manifest: Manifest): string[] {
  const names = [manifest.name];
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const dir = join(root, "packages", name.slice("@raw/".length));
    const next = i === 0 ? manifest : existsSync(join(dir, "package.json")) ? readManifest(dir) : undefined;
    for (const dependency of next === undefined ? [] : declared(next)) {
      if (!names.includes(dependency)) names.push(dependency);
    }
  }
  return names;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Aliases of `@raw/<name>` and its subpaths (`/testing`, `/host`, `/internal`) to the sibling package's source,
 * for the packages in `names` only: a test or source file importing a package its package.json does not declare
 * fails to resolve, as it would once published.
 */
export function sourceAliases(names: readonly string[]): Array<{ find: RegExp; replacement: string }> {
  const alias: Array<{ find: RegExp; replacement: string }> = [];
  for (const name of names) {
    const dir = join(root, "packages", name.slice("@raw/".length));
    if (!existsSync(join(dir, "package.json"))) continue;
    const exports = readManifest(dir).exports ?? {};
    for (const [entry, source] of Object.entries(ENTRY_SOURCES)) {
      if (!(entry in exports) || !existsSync(join(dir, source))) continue;
      const specifier = entry === "." ? name : `${name}${entry.slice(1)}`;
      alias.push({ find: new RegExp(`^${escapeRegExp(specifier)}$`), replacement: join(dir, source) });
    }
  }
  // Private test helpers shared by the packages' suites (never published).
  alias.push({ find: /^@raw\/test-support$/, replacement: `${root}test-support/hostile.ts` });
  alias.push({ find: /^@raw\/test-support\/([a-z-]+)$/, replacement: `${root}test-support/$1.ts` });
  return alias;
}

/**
 * Vitest settings of the package whose `vitest.config.ts` is at `configUrl` (pass `import.meta.url`): `@raw/*`
 * resolves to the source of the packages in its dependency tree, and only those (DESIGN.md's layering, issue 18
 * item 6).
 */
export function packageConfig(configUrl: string): ViteUserConfig {
  const manifest = readManifest(fileURLToPath(new URL(".", configUrl)));
  return defineConfig({
    resolve: { alias: sourceAliases(rawDependencyTree(manifest)) },
    test: {
      include: ["test/**/*.test.ts"],
      // A safety net for a hung test, not a speed target: heavy adversarial cases run for 20 s and more on a loaded CI machine.
      testTimeout: 60_000,
      restoreMocks: true,
    },
  });
}

/**
 * The settings of the package in the working directory (what `npm test -w <package>` runs in).
 * @deprecated pass `import.meta.url` to `packageConfig`, which does not depend on the working directory.
 */
export const sharedConfig: ViteUserConfig = packageConfig(
  `file://${join(process.cwd(), "vitest.config.ts")}`,
);
