/**
 * `ToolManifestJson`, the type of `tool.json` as written, is the TypeBox `Static` of its schema source, printed as
 * plain TypeScript into `src/manifest-json.ts` (the published `.d.ts` needs no TypeBox): the file test fails when the
 * printed type drifts from the source, the type test when the types differ.
 */
import { checkCommittedStaticType } from "@raw/test-support/static-types";
import type { Static } from "typebox";
import { describe, expectTypeOf, it } from "vitest";
import type { ToolManifestJson } from "../src/index.js";
import type { ToolManifestSchemaSource } from "./schema-source.js";

describe("ToolManifestJson", () => {
  checkCommittedStaticType(
    {
      file: "../src/manifest-json.ts",
      source: "./schema-source.js",
      sourceExport: "ToolManifestSchemaSource",
      typeName: "ToolManifestJson",
      doc: "`tool.json` as written (raw.tool-api/2): the static type of its JSON Schema (`ToolManifestSchema`), for\ncode that writes or reads manifests. `parseToolManifest` is the authority and returns the normalized\n`ToolManifest`.",
      imports: ['import type { PanelDeclaration } from "@raw/panel";'],
    },
    import.meta.url,
  );

  it("is the type TypeBox derives from the schema source", () => {
    expectTypeOf<ToolManifestJson>().toEqualTypeOf<Static<typeof ToolManifestSchemaSource>>();
  });
});
