import { CHAT_DIAGRAM_PANEL, MAX_DIAGRAM_SOURCE_BYTES, SIDEBAR_DIAGRAM_PANEL } from "./constants.js";

/** The input schema of `diagram`. */
export const DIAGRAM_INPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["source"],
  properties: {
    source: {
      type: "string",
      minLength: 1,
      maxLength: MAX_DIAGRAM_SOURCE_BYTES,
      description: `Mermaid source, for example "flowchart LR\\nA-->B" (at most ${MAX_DIAGRAM_SOURCE_BYTES} UTF-8 bytes).`,
    },
    title: { type: "string", maxLength: 80, description: "Optional title shown above the diagram." },
    placement: {
      type: "string",
      enum: ["chat", "sidebar"],
      description:
        "chat (default): inline in the conversation; sidebar: the Diagram side panel, replaced by each call.",
    },
  },
} as const;

/** The model-facing description of `diagram`. */
export const DIAGRAM_DESCRIPTION = [
  "Shows the user a Mermaid diagram (flowchart, sequence, class, state, ER, gantt, ...) inline in the conversation or in the Diagram side panel.",
  "Keep diagrams small (at most about 100 edges), without HTML labels, click/link directives, init directives or URLs: the user's screen may refuse them and show the source as text instead.",
  "The diagram is never sent back to you; the result is one short line with the panel and its revision.",
].join("\n");

/** The `tool.json` of `diagram`. */
export const DIAGRAM_MANIFEST = {
  api_version: 2,
  id: "diagram",
  version: "1.0.0",
  name: "diagram",
  description: DIAGRAM_DESCRIPTION,
  input_schema: DIAGRAM_INPUT_SCHEMA,
  entry: "./index.mjs",
  condition_sources: ["arguments"],
  panels: [
    {
      id: CHAT_DIAGRAM_PANEL,
      title: "Diagram",
      icon: "activity",
      open: "never",
      context: "none",
      placement: "chat",
      acp_plan: false,
      actions: [],
    },
    {
      id: SIDEBAR_DIAGRAM_PANEL,
      title: "Diagram",
      icon: "activity",
      open: "first_update",
      context: "none",
      placement: "sidebar",
      acp_plan: false,
      actions: [],
    },
  ],
} as const;
