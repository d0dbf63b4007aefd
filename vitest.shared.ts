import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const packages = "(schema|predicate|effects|panel|hook-protocol|tool-api|store-sqlite|store-postgres)";

/** Vitest settings shared by every workspace: `@raw/*` resolves to the sibling package's source. */
export const sharedConfig = defineConfig({
  resolve: {
    alias: [
      { find: new RegExp(`^@raw/${packages}/testing$`), replacement: `${root}packages/$1/src/testing.ts` },
      { find: new RegExp(`^@raw/${packages}$`), replacement: `${root}packages/$1/src/index.ts` },
      // Private test helpers shared by the packages' suites (never published).
      { find: /^@raw\/test-support$/, replacement: `${root}test-support/hostile.ts` },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    restoreMocks: true,
  },
});
