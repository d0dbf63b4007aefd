import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.shared.ts";

export default defineConfig({
  ...packageBuild({
    index: "src/index.ts",
    host: "src/host-entry.ts",
    internal: "src/internal.ts",
    testing: "src/testing.ts",
  }),
  // The entry points share their modules (chunks): `@raw/panel` re-exports the deprecated aliases of
  // `@raw/panel/host` from the very same module, so a host created through one is the host of the other.
  splitting: true,
  tsconfig: "tsconfig.build.json",
});
