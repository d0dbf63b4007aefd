import { fileURLToPath } from "node:url";
import { mergeConfig } from "vitest/config";
import { sharedConfig } from "../../vitest.shared.ts";

// The README's examples import "@raw/mcp": tests resolve it to this package's source, like the siblings.
export default mergeConfig(sharedConfig, {
  resolve: {
    alias: [{ find: /^@raw\/mcp$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) }],
  },
});
