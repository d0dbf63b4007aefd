import { writeFile } from "node:fs/promises";
import type { Options } from "tsup";

/**
 * `dist/not-exported.cjs`, what the `"./*"` pattern of every exports map points at: a subpath that is not a public
 * entry point (`@raw/x/dist/index.js`, `@raw/x/src/...`) fails at once with one line saying what to import instead,
 * never with a stack trace from inside the package.
 */
export const NOT_EXPORTED_MODULE = `"use strict";
// Reached through the "./*" pattern of the exports map: the requested subpath is not a public entry point.
const pkg = require("../package.json");
const entries = Object.keys(pkg.exports)
  .filter((key) => !key.includes("*") && key !== "./package.json")
  .map((key) => JSON.stringify(key === "." ? pkg.name : pkg.name + key.slice(1)));
const error = new Error(
  \`\${pkg.name}: this subpath is not a public entry point; import \${entries.join(" or ")} instead (see "exports" in its package.json)\`,
);
error.code = "ERR_PACKAGE_PATH_NOT_EXPORTED";
error.stack = \`Error [\${error.code}]: \${error.message}\`;
throw error;
`;

/**
 * Dependencies that ship ES modules only. The CommonJS build inlines them, so `require("@raw/<name>")` works on
 * every Node 20 and under Jest without `require(esm)`; the ES module build keeps importing them (one shared copy
 * for every @raw package of an install, and their types for the `.d.ts` files). No published package imports
 * TypeBox at run time any more (the contract schemas are JSON generated at build time, and TypeBox is a development
 * dependency); the entry stays so that a runtime import added later still gives a CommonJS build that loads
 * everywhere, and such an import must come with a declared dependency (the packed-tarball test checks it).
 */
export const ESM_ONLY_DEPENDENCIES: readonly string[] = ["typebox"];

const esmOnly = new RegExp(`^(${ESM_ONLY_DEPENDENCIES.join("|")})(/|$)`);

/** Private workspace packages (`"private": true`): tsup inlines them, so they are never runtime dependencies. */
export const PRIVATE_WORKSPACE_PACKAGES = /^@raw\/node-support(\/|$)/;

/** tsup's output format of each esbuild run (esbuild itself always emits ESM when tsup tree-shakes). */
const formats = new WeakMap<object, string>();

/** esbuild plugin: keeps the ESM-only dependencies external in the ES module build only. */
const externalInEsmOnly = {
  name: "raw-esm-only-dependencies",
  setup(build: {
    initialOptions: object;
    onResolve(
      options: { filter: RegExp },
      callback: (args: { path: string }) => { path: string; external: boolean } | undefined,
    ): void;
  }) {
    const format = formats.get(build.initialOptions);
    build.onResolve({ filter: esmOnly }, (args) =>
      format === "esm" ? { path: args.path, external: true } : undefined,
    );
  },
};

/** tsup settings shared by every published package: dual ESM + CJS with declarations. */
export function packageBuild(entry: Record<string, string>): Options {
  return {
    entry,
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    sourcemap: false,
    target: "node20",
    platform: "node",
    splitting: false,
    treeshake: true,
    // `@raw/node-support` is private (never published): inlined into every bundle that uses it.
    noExternal: [esmOnly, PRIVATE_WORKSPACE_PACKAGES],
    esbuildOptions(options, context) {
      formats.set(options, context.format);
    },
    esbuildPlugins: [externalInEsmOnly],
    async onSuccess() {
      await writeFile("dist/not-exported.cjs", NOT_EXPORTED_MODULE);
    },
  };
}
