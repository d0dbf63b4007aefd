import { MAX_PANELS_PER_TOOL, PanelDeclarationSchema } from "@raw/panel";
import Type from "typebox";
import {
  MAX_DESCRIPTION_BYTES,
  TOOL_ENTRY_PATTERN,
  TOOL_ID_PATTERN,
  TOOL_NAME_PATTERN,
  TOOL_VERSION_PATTERN,
} from "./limits.js";

const ObjectSchema = (description: string) =>
  Type.Object({ type: Type.Literal("object") }, { description, additionalProperties: true });

/**
 * JSON Schema of `tool.json` (raw.tool-api/2) for editors. A convenience: `parseToolManifest` is the authority
 * (it also enforces the byte limit of `description`, the schema compile rules and the panel rules).
 */
export const ToolManifestSchema = Type.Object(
  {
    $schema: Type.Optional(
      Type.String({
        description: "Editor hint (amendment A9): the URL of this schema; accepted and ignored.",
      }),
    ),
    api_version: Type.Literal(2, {
      description: "The tool API version: the JSON number 2 (raw.tool-api/2).",
    }),
    id: Type.String({ pattern: TOOL_ID_PATTERN, description: "Folder id; equals the folder name." }),
    version: Type.String({
      pattern: TOOL_VERSION_PATTERN,
      description: "major.minor.patch without leading zeros; a label only.",
    }),
    name: Type.String({ pattern: TOOL_NAME_PATTERN, description: "Model-facing name." }),
    description: Type.String({
      minLength: 1,
      maxLength: MAX_DESCRIPTION_BYTES,
      pattern: "\\S",
      description: `What the tool does and what its result means; at most ${MAX_DESCRIPTION_BYTES} UTF-8 bytes.`,
    }),
    input_schema: ObjectSchema("JSON Schema (object) of the arguments."),
    entry: Type.String({
      pattern: TOOL_ENTRY_PATTERN,
      description: "Entry module exporting handler, and optionally validateArgs and describeEffects.",
    }),
    condition_sources: Type.Optional(
      Type.Array(Type.Union([Type.Literal("arguments"), Type.Literal("effects")]), {
        minItems: 1,
        maxItems: 2,
        uniqueItems: true,
        description: 'Sources a predicate may inspect; default ["arguments"].',
      }),
    ),
    effects_schema: Type.Optional(ObjectSchema("JSON Schema (object) of the intended effects.")),
    panels: Type.Optional(
      Type.Array(PanelDeclarationSchema, {
        maxItems: MAX_PANELS_PER_TOOL,
        description: "Panel declarations with distinct ids.",
      }),
    ),
  },
  {
    additionalProperties: false,
    if: {
      type: "object",
      properties: { condition_sources: { type: "array", contains: { const: "effects" } } },
      required: ["condition_sources"],
    },
    then: { type: "object", properties: { effects_schema: {} }, required: ["effects_schema"] },
  },
);
