import type { Options } from "tsup";

/**
 * Dependencies that ship ES modules only. The CommonJS build inlines them, so `require("@raw/<name>")` works on
 * every Node 20 and under Jest without `require(esm)`; the ES module build keeps importing them (one shared copy
 * for every @raw package of an install, and their types for the `.d.ts` files).
 */
export const ESM_ONLY_DEPENDENCIES: readonly string[] = ["typebox"];

const esmOnly = new RegExp(`^(${ESM_ONLY_DEPENDENCIES.join("|")})(/|$)`);

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
    noExternal: [esmOnly],
    esbuildOptions(options, context) {
      formats.set(options, context.format);
    },
    esbuildPlugins: [externalInEsmOnly],
  };
}
