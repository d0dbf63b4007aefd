import { build } from "esbuild";
import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.shared.ts";

const shared = packageBuild({ index: "src/index.ts", prestart: "src/prestart.ts" });

export default defineConfig({
  ...shared,
  tsconfig: "tsconfig.build.json",
  // The child process that imports tool entries: a small CommonJS script of its own (loaded synchronously, so it
  // listens on its IPC channel before the first message is read), with no `@raw/*` code: `dist/child.cjs`.
  async onSuccess() {
    await (shared.onSuccess as () => Promise<void>)();
    await build({
      entryPoints: ["src/child.ts"],
      outfile: "dist/child.cjs",
      bundle: true,
      format: "cjs",
      platform: "node",
      target: "node20",
      minify: true,
      logLevel: "warning",
    });
  },
});
