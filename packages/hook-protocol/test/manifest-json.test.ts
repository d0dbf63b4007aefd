/**
 * `HookManifestJson`, the type of `hook.json` as written, is the TypeBox `Static` of its schema source, printed as
 * plain TypeScript into `src/manifest-json.ts` (the published `.d.ts` needs no TypeBox): the file test fails when the
 * printed type drifts from the source, the type test when the types differ.
 */
import { checkCommittedStaticType } from "@raw/test-support/static-types";
import type { Static } from "typebox";
import { describe, expectTypeOf, it } from "vitest";
import type { HookManifestJson } from "../src/index.js";
import type { HookManifestSchemaSource } from "./schema-source.js";

describe("HookManifestJson", () => {
  checkCommittedStaticType(
    {
      file: "../src/manifest-json.ts",
      source: "./schema-source.js",
      sourceExport: "HookManifestSchemaSource",
      typeName: "HookManifestJson",
      doc: "`hook.json` as written (raw.hook/2): the static type of its JSON Schema (`HookManifestSchema`), for code\nthat writes or reads manifests. `parseHookManifest` is the authority and returns the parsed `HookManifest`.",
      imports: ['import type { PredicateJson } from "@raw/predicate";'],
    },
    import.meta.url,
  );

  it("is the type TypeBox derives from the schema source", () => {
    expectTypeOf<HookManifestJson>().toEqualTypeOf<Static<typeof HookManifestSchemaSource>>();
  });
});
