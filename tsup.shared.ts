import type { Options } from "tsup";

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
  };
}
