import type { InteractionRecord, InteractionRetry, InteractionSubmission } from "@raw/panel/host";
import { escapeDisplayText } from "@raw/schema";

/** One property of an ACP elicitation form. */
export type ElicitationProperty =
  | {
      type: "string";
      title: string;
      description?: string;
      maxLength?: number;
      oneOf?: { const: string; title: string }[];
    }
  | {
      type: "array";
      title: string;
      description?: string;
      items: { anyOf: { const: string; title: string }[] };
      minItems?: number;
      maxItems?: number;
    };

/** The `requestedSchema` of an ACP form elicitation. */
export interface ElicitationForm {
  type: "object";
  properties: Record<string, ElicitationProperty>;
  required?: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The form of an interaction request as an ACP elicitation schema (amendment A12): `text` → string (`maxLength` =
 * `max_bytes`, an upper bound; the interaction service re-checks bytes), `single_select` → string with `oneOf`
 * `{ const, title }`, `multi_select` → array with `minItems`/`maxItems`. Titles are A1-escaped.
 */
export function elicitationFormOf(record: InteractionRecord): ElicitationForm {
  const properties: Record<string, ElicitationProperty> = Object.create(null);
  const required: string[] = [];
  for (const field of record.form.fields) {
    const title = escapeDisplayText(field.label);
    const description =
      field.description === undefined ? {} : { description: escapeDisplayText(field.description) };
    const options = (field.options ?? []).map((o) => ({ const: o.id, title: escapeDisplayText(o.label) }));
    let property: ElicitationProperty;
    if (field.kind === "text") {
      property = {
        type: "string",
        title,
        ...description,
        ...(field.max_bytes === undefined ? {} : { maxLength: field.max_bytes }),
      };
    } else if (field.kind === "single_select") {
      property = { type: "string", title, ...description, oneOf: options };
    } else {
      property = {
        type: "array",
        title,
        ...description,
        items: { anyOf: options },
        ...(field.min_selected === undefined || field.min_selected === 0
          ? {}
          : { minItems: field.min_selected }),
        ...(field.max_selected === undefined ? {} : { maxItems: field.max_selected }),
      };
    }
    Object.defineProperty(properties, field.id, { value: property, enumerable: true, writable: true });
    if (field.required === true) required.push(field.id);
  }
  return { type: "object", properties: { ...properties }, ...(required.length > 0 ? { required } : {}) };
}

/**
 * The message of an interaction request: the document's title and markdown text, A1-escaped, and after a refused
 * answer the interaction service's code and message, so the person sees why it was asked again.
 */
export function interactionMessageOf(record: InteractionRecord, retry?: InteractionRetry): string {
  const document = record.document as unknown;
  const parts: string[] = [];
  if (isRecord(document)) {
    if (typeof document.title === "string" && document.title !== "") parts.push(document.title);
    if (Array.isArray(document.blocks)) {
      for (const block of document.blocks) {
        if (isRecord(block) && block.kind === "markdown" && typeof block.text === "string")
          parts.push(block.text);
        if (isRecord(block) && block.kind === "form" && typeof block.title === "string")
          parts.push(block.title);
      }
    }
  }
  if (parts.length === 0) parts.push(`${record.identity.owner} asks for input`);
  if (retry !== undefined)
    parts.push(`The previous answer was refused (${retry.error.code}): ${retry.error.message}`);
  return escapeDisplayText(parts.join("\n"), { multiline: true });
}

/**
 * The submission of an elicitation answer for the interaction service (amendment A12): `accept` → `submit` with the
 * content as answers, exactly as sent (the service validates them; this binding never does), `decline`, `cancel`
 * or anything else → `cancel`.
 */
export function submissionOf(
  record: InteractionRecord,
  answer: unknown,
  attempt: number,
): InteractionSubmission {
  const base = {
    requestId: record.identity.requestId,
    expectedRevision: record.revision,
    idempotencyKey: `acp-${record.identity.requestId}-${attempt}`,
  };
  if (isRecord(answer) && answer.action === "accept") {
    // Exactly what the client sent: a malformed `content` is the interaction service's to refuse.
    return { ...base, response: "submit", answers: answer.content as Record<string, unknown> };
  }
  return { ...base, response: "cancel" };
}
