import { FORM_BLOCK, MAX_ASK_TIMEOUT_MS, MAX_QUESTIONS, QUESTIONS_PANEL } from "./constants.js";

const FIELD_ID = {
  type: "string",
  pattern: "^[A-Za-z0-9_.-]{1,64}$",
  description: "Answer key (letters, digits, _ . -), unique across the call.",
} as const;
const LABEL = { type: "string", minLength: 1, maxLength: 200 } as const;
const DESCRIPTION = { type: "string", maxLength: 500 } as const;
const MAX_BYTES = { type: "integer", minimum: 1, maximum: 65_536 } as const;

/** The input schema of `ask_user` (`panels.md` §13.8). */
export const ASK_USER_INPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["questions"],
  properties: {
    questions: {
      type: "array",
      minItems: 1,
      maxItems: MAX_QUESTIONS,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "label", "kind"],
        properties: {
          id: FIELD_ID,
          label: { ...LABEL, description: "The question as the user reads it." },
          description: { ...DESCRIPTION, description: "Optional help text shown under the question." },
          required: { type: "boolean", description: "Whether an answer is required (default true)." },
          kind: {
            type: "string",
            enum: ["text", "single_select", "multi_select"],
            description:
              "text: a free answer; single_select: one option id; multi_select: a list of option ids.",
          },
          multiline: { type: "boolean", description: "text only: a multi-line answer box." },
          max_bytes: { ...MAX_BYTES, description: "text only: longest answer in UTF-8 bytes." },
          options: {
            type: "array",
            minItems: 1,
            maxItems: 32,
            description: "Choice questions only: the options.",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["id", "label"],
              properties: { id: FIELD_ID, label: LABEL },
            },
          },
          min_selected: { type: "integer", minimum: 0, description: "multi_select only: fewest options." },
          max_selected: { type: "integer", minimum: 1, description: "multi_select only: most options." },
          free_text: {
            type: "object",
            additionalProperties: false,
            required: ["id", "label"],
            description: "Choice questions only: an optional text field shown right after the question.",
            properties: {
              id: FIELD_ID,
              label: LABEL,
              description: DESCRIPTION,
              multiline: { type: "boolean" },
              max_bytes: MAX_BYTES,
            },
          },
        },
      },
    },
    title: { type: "string", minLength: 1, maxLength: 80, description: "Optional heading of the form." },
    timeout_ms: {
      type: "integer",
      minimum: 1,
      maximum: MAX_ASK_TIMEOUT_MS,
      description: "How long to wait for the answer (default 30 minutes, at most 24 hours).",
    },
  },
} as const;

/** The model-facing description of `ask_user`. */
export const ASK_USER_DESCRIPTION = [
  `Asks the user 1 to ${MAX_QUESTIONS} questions in a form shown in the conversation and waits for the answer. Use it when you cannot proceed without the user's decision; do not use it for permission to run tools.`,
  "Each question is a text, single_select or multi_select field; questions are required unless `required` is false. A choice question may add `free_text` for an optional comment.",
  'Result: one JSON value. {"status":"answered","answers":{"<id>":"<text or option id>" or ["<option id>", ...]}} when the user answered (optional questions left blank are absent); otherwise {"status":"cancelled"}, {"status":"expired"} or {"status":"interrupted"} and the call is an error. In a non-interactive run the call fails at once with interaction_unavailable: continue without the answer.',
].join("\n");

/** The `tool.json` of `ask_user`. */
export const ASK_USER_MANIFEST = {
  api_version: 2,
  id: "ask_user",
  version: "1.0.0",
  name: "ask_user",
  description: ASK_USER_DESCRIPTION,
  input_schema: ASK_USER_INPUT_SCHEMA,
  entry: "./index.mjs",
  condition_sources: ["arguments"],
  panels: [
    {
      id: QUESTIONS_PANEL,
      title: "Questions",
      icon: "file-text",
      open: "never",
      context: "none",
      placement: "chat",
      acp_plan: false,
      actions: [
        {
          id: "submit",
          label: "Send answer",
          scope: "block",
          blocks: [FORM_BLOCK],
          kind: "response",
          response: "submit",
        },
        {
          id: "cancel",
          label: "Cancel",
          scope: "block",
          blocks: [FORM_BLOCK],
          kind: "response",
          response: "cancel",
        },
      ],
    },
  ],
} as const;
