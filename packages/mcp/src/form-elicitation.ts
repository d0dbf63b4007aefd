import type { ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import type { FormField } from "@raw/panel";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type RequestedSchema = ElicitRequestFormParams["requestedSchema"];

/**
 * The form fields of an `ask_user` document when it fits MCP's elicitation schema: the document holds exactly one
 * `form` block (other blocks are only `markdown`, shown as the message) and every field is `text`,
 * `single_select` or `multi_select`. Undefined when it does not fit.
 */
export function formOf(document: unknown): { fields: FormField[]; message: string } | undefined {
  if (!isRecord(document) || !Array.isArray(document.blocks)) return undefined;
  let fields: FormField[] | undefined;
  const text: string[] = [];
  if (typeof document.title === "string") text.push(document.title);
  for (const block of document.blocks) {
    if (!isRecord(block)) return undefined;
    if (block.kind === "form") {
      if (fields !== undefined || !Array.isArray(block.fields)) return undefined;
      fields = block.fields as FormField[];
    } else if (block.kind === "markdown" && typeof block.text === "string") {
      text.push(block.text);
    } else {
      return undefined;
    }
  }
  if (fields === undefined) return undefined;
  for (const field of fields) {
    if (!isRecord(field) || !["text", "single_select", "multi_select"].includes(String(field.kind)))
      return undefined;
  }
  return { fields, message: text.join("\n") || "Input requested" };
}

/** The elicitation schema of form fields (`formOf`): strings, titled single and multi selections. */
export function elicitationSchema(fields: readonly FormField[]): RequestedSchema {
  const properties: RequestedSchema["properties"] = {};
  const required: string[] = [];
  for (const field of fields) {
    const common = {
      title: field.label,
      ...(field.description === undefined ? {} : { description: field.description }),
    };
    const options = (field.options ?? []).map((o) => ({ const: o.id, title: o.label }));
    if (field.kind === "text") {
      properties[field.id] = {
        type: "string",
        ...common,
        ...(field.max_bytes === undefined ? {} : { maxLength: field.max_bytes }),
      };
    } else if (field.kind === "single_select") {
      properties[field.id] = { type: "string", ...common, oneOf: options };
    } else {
      properties[field.id] = {
        type: "array",
        ...common,
        items: { anyOf: options },
        ...(field.min_selected === undefined ? {} : { minItems: field.min_selected }),
        ...(field.max_selected === undefined ? {} : { maxItems: field.max_selected }),
      };
    }
    if (field.required === true) required.push(field.id);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}
