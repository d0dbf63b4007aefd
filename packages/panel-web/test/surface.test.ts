import { definePinnedSurface } from "@raw/test-support/surface";

// The element modules need a DOM: the surface is read from the sources with the TypeScript compiler (values and
// types, pinned in test/__snapshots__/exports.txt and exports.define.txt), not by importing them.
definePinnedSurface(new URL("..", import.meta.url), {}, { ".": "src/index.ts", "./define": "src/define.ts" });
