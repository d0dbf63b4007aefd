import { packageConfig } from "../../vitest.shared.ts";

// The README's examples import "@raw/mcp": like every package, the tests resolve it to this package's source.
export default packageConfig(import.meta.url);
