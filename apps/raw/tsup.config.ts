import { defineConfig } from "tsup";

export default defineConfig({
  entry: { bin: "src/bin.ts" },
  format: ["esm"],
  dts: false,
  clean: true,
  target: "node20",
  platform: "node",
  banner: { js: "#!/usr/bin/env node" },
});
