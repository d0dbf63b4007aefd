import { escapeDisplayText } from "@raw/schema";
import type { ToolHandlerContext, ToolPanelDeclaration } from "@raw/tool-api";

/** The revision an upstream speaks when it refuses `initialize` (amendment A11, as a client). */
export const MCP_UPSTREAM_MODERN_REVISION = "2026-07-28";

/** Most `input_required` rounds of one upstream `tools/call`; past it the call ends `mcp_server_error`. */
export const MAX_MCP_UPSTREAM_INPUT_ROUNDS = 8;

/** Most input requests one upstream round may hold; a round with more ends the call `mcp_server_error`. */
export const MAX_MCP_UPSTREAM_INPUT_REQUESTS = 4;

/** Longest upstream `requestState` passed back to it, in characters; longer ends the call `mcp_server_error`. */
export const MAX_MCP_UPSTREAM_STATE_CHARS = 65_536;

/** The id of the panel an upstream's questions are shown in (declared on every tool of a 2026-07-28 upstream). */
export const MCP_UPSTREAM_QUESTION_PANEL = "mcp-upstream-question";

/** The declaration of that panel: a chat panel whose one form is answered or cancelled. */
export const UPSTREAM_QUESTION_DECLARATION = Object.freeze({
  id: MCP_UPSTREAM_QUESTION_PANEL,
  title: "Question from the MCP server",
  icon: "panel",
  open: "auto",
  context: "none",
  placement: "chat",
  acp_plan: false,
  actions: [
    { id: "submit", label: "Send", scope: "block", blocks: ["form"], kind: "response", response: "submit" },
    { id: "cancel", label: "Cancel", scope: "block", blocks: ["form"], kind: "response", response: "cancel" },
  ],
}) as unknown as ToolPanelDeclaration;

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** How one property of an upstream's form maps to a Raw form field, and its answer back. */
interface FieldMap {
  readonly field: Record<string, unknown>;
  back(answer: unknown): unknown;
}

const YES_NO = [
  { id: "yes", label: "Yes" },
  { id: "no", label: "No" },
];

/** A property of an elicitation `requestedSchema` as a Raw form field; `undefined` when none fits. */
function fieldOf(id: string, schema: Record<string, unknown>, required: boolean): FieldMap | undefined {
  const label = escapeDisplayText(String(schema.title ?? id), { maxBytes: 200 });
  const base = { id, label, required };
  const options = (values: unknown[], titles?: unknown[]) =>
    values.map((value, i) => ({
      id: String(value),
      label: escapeDisplayText(String(titles?.[i] ?? value), { maxBytes: 200 }),
    }));
  if (schema.type === "boolean") {
    return {
      field: { ...base, kind: "single_select", options: YES_NO },
      back: (answer) => answer === "yes",
    };
  }
  if (schema.type === "string" && Array.isArray(schema.enum)) {
    return { field: { ...base, kind: "single_select", options: options(schema.enum) }, back: (a) => a };
  }
  if (schema.type === "string" && Array.isArray(schema.oneOf)) {
    const list = schema.oneOf.map(recordOf);
    if (list.some((o) => o === undefined)) return undefined;
    const ids = list.map((o) => o?.const);
    const titles = list.map((o) => o?.title ?? o?.const);
    return { field: { ...base, kind: "single_select", options: options(ids, titles) }, back: (a) => a };
  }
  if (schema.type === "string") return { field: { ...base, kind: "text" }, back: (a) => a };
  if (schema.type === "number" || schema.type === "integer") {
    return { field: { ...base, kind: "text" }, back: (a) => Number(a) };
  }
  return undefined;
}

/** An upstream's elicitation as a Raw form document, and how to map the answers back; undefined when it cannot be. */
export function upstreamForm(
  server: string,
  params: unknown,
):
  | { document: Record<string, unknown>; back(answers: Record<string, unknown>): Record<string, unknown> }
  | undefined {
  const p = recordOf(params);
  if (p === undefined || (p.mode !== undefined && p.mode !== "form")) return undefined;
  const schema = recordOf(p.requestedSchema);
  const properties = recordOf(schema?.properties);
  if (properties === undefined) return undefined;
  const required = new Set(Array.isArray(schema?.required) ? schema.required.map(String) : []);
  const maps = new Map<string, FieldMap>();
  for (const [id, value] of Object.entries(properties).slice(0, 32)) {
    const property = recordOf(value);
    const mapped = property === undefined ? undefined : fieldOf(id, property, required.has(id));
    if (mapped === undefined) return undefined;
    maps.set(id, mapped);
  }
  const message = escapeDisplayText(String(p.message ?? ""), { maxBytes: 4096 });
  return {
    document: {
      title: `Question from MCP server ${server}`,
      blocks: [
        {
          id: "from",
          kind: "markdown",
          text: `The MCP server ${server} asks this itself (its own question, not Raw's approval):`,
        },
        { id: "message", kind: "markdown", text: message },
        { id: "form", kind: "form", fields: [...maps.values()].map((m) => m.field) },
      ],
    },
    back(answers) {
      const out: Record<string, unknown> = {};
      for (const [id, map] of maps) if (answers[id] !== undefined) out[id] = map.back(answers[id]);
      return out;
    },
  };
}

/**
 * Asks the host's interaction service one upstream question (attributed to `server`) and gives the answer in the
 * upstream's shape: `{ action: "accept", content }`, or `{ action: "cancel" }` when it was cancelled, expired or
 * cannot be shown (no interaction service, a form Raw cannot show).
 */
export async function askUpstreamQuestion(
  server: string,
  request: unknown,
  context: ToolHandlerContext,
): Promise<Record<string, unknown>> {
  const r = recordOf(request);
  const form = r?.method === "elicitation/create" ? upstreamForm(server, r.params) : undefined;
  const interactions = (context as { interactions?: { request(input: unknown): Promise<unknown> } })
    .interactions;
  if (form === undefined || interactions === undefined) return { action: "cancel" };
  try {
    const result = recordOf(
      await interactions.request({ panel: MCP_UPSTREAM_QUESTION_PANEL, document: form.document }),
    );
    if (result?.status !== "answered") return { action: "cancel" };
    return { action: "accept", content: form.back(recordOf(result.answers) ?? {}) };
  } catch {
    return { action: "cancel" };
  }
}
