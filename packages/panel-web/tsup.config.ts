import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", define: "src/define.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: false,
  target: "es2022",
  platform: "browser",
  splitting: true,
  treeshake: true,
  external: ["mermaid"],
  tsconfig: "tsconfig.build.json",
});
