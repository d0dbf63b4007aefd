/** The source file of each subpath an exports map may list (`.`, `./testing`, `./host`, `./internal`). */
export const ENTRY_SOURCES: Readonly<Record<string, string>> = {
  ".": "src/index.ts",
  "./testing": "src/testing.ts",
  "./host": "src/host-entry.ts",
  "./internal": "src/internal.ts",
  "./prestart": "src/prestart.ts",
};
