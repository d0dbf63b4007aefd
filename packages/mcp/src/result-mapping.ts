import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { HandlerContentBlock, HandlerResult, ToolResult } from "@raw/tool-api";
import { MCP_CODES } from "./codes.js";

/** The `_meta` key under which an MCP result may carry one raw.panel/2 update or an array of them (panels.md §9.1). */
export const MCP_PANEL_META_KEY = "raw/panel";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Approximate decoded size of base64 text. */
function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4);
}

function mapBlock(block: Record<string, unknown>): HandlerContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: String(block.text) };
    case "image": {
      const mime = String(block.mimeType);
      const data = String(block.data);
      if (mime === "image/png" || mime === "image/jpeg") return { type: "image", mimeType: mime, data };
      return { type: "text", text: `[image ${mime}, ${base64Bytes(data)} bytes not shown]` };
    }
    case "audio":
      return {
        type: "text",
        text: `[audio ${String(block.mimeType)}, ${base64Bytes(String(block.data))} bytes not shown]`,
      };
    case "resource": {
      const resource = isRecord(block.resource) ? { ...block.resource } : {};
      if (typeof resource.blob === "string") {
        const bytes = base64Bytes(resource.blob);
        delete resource.blob;
        resource.blobBytes = bytes;
      }
      return { type: "json", value: { type: "resource", resource } };
    }
    default:
      // resource_link and any later block type: kept as data.
      return { type: "json", value: block };
  }
}

/**
 * Maps an MCP `CallToolResult` to a Raw handler result: text and PNG/JPEG image blocks as they are, other media
 * as a text note of their size, embedded resources and resource links as `json` blocks, `structuredContent` as a
 * final `json` block, and `_meta["raw/panel"]` as panel result blocks. `isError: true` gets the code
 * `mcp_tool_error`. Capping is left to the dispatcher, like any other tool's result.
 */
export function mapMcpResult(result: CallToolResult): HandlerResult {
  const content: HandlerContentBlock[] = [];
  for (const block of Array.isArray(result.content) ? result.content : []) {
    if (isRecord(block)) content.push(mapBlock(block));
  }
  if (result.structuredContent !== undefined) content.push({ type: "json", value: result.structuredContent });
  const panels = isRecord(result._meta) ? result._meta[MCP_PANEL_META_KEY] : undefined;
  for (const update of Array.isArray(panels) ? panels : panels === undefined ? [] : [panels]) {
    if (isRecord(update)) content.push({ ...update, type: "panel" });
  }
  const isError = result.isError === true;
  return isError ? { isError, code: MCP_CODES.toolError, content } : { isError, content };
}

type ResourceLink = Extract<CallToolResult["content"][number], { type: "resource_link" }>;

/**
 * The MCP `resource_link` block a `json` value holds, or undefined: a mounted tool's links are kept as `json` blocks
 * on the way in (`mapMcpResult`) and go back out as links, with the fields a link has (name and URI required).
 */
function resourceLink(value: unknown): ResourceLink | undefined {
  if (!isRecord(value) || value.type !== "resource_link") return undefined;
  if (typeof value.uri !== "string" || typeof value.name !== "string") return undefined;
  const link: ResourceLink = { type: "resource_link", uri: value.uri, name: value.name };
  for (const key of ["title", "description", "mimeType"] as const)
    if (typeof value[key] === "string") link[key] = value[key];
  if (typeof value.size === "number" && Number.isSafeInteger(value.size) && value.size >= 0)
    link.size = value.size;
  return link;
}

type EmbeddedResource = Extract<CallToolResult["content"][number], { type: "resource" }>;

/** A `json` value that is an MCP embedded resource as `mapMcpResult` keeps it (its blob replaced by its size). */
function isEmbeddedResource(value: unknown): boolean {
  return isRecord(value) && value.type === "resource" && isRecord(value.resource);
}

/**
 * The embedded text resource a `json` value holds, to go back out as one (its URI, text and MIME type); undefined
 * for anything else, such as a binary resource whose blob `mapMcpResult` replaced by its size (that one stays JSON).
 */
function textResource(value: unknown): EmbeddedResource | undefined {
  if (!isEmbeddedResource(value)) return undefined;
  const resource = (value as { resource: Record<string, unknown> }).resource;
  if (typeof resource.uri !== "string" || typeof resource.text !== "string") return undefined;
  return {
    type: "resource",
    resource: {
      uri: resource.uri,
      text: resource.text,
      ...(typeof resource.mimeType === "string" ? { mimeType: resource.mimeType } : {}),
    },
  };
}

/**
 * Maps a Raw `ToolResult` to an MCP `CallToolResult`: text and image blocks as they are, resource links and text
 * resources held in `json` blocks as links and embedded resources again, and other `json` blocks as text holding
 * their JSON. When the result has exactly one
 * other `json` block (not a link, not an embedded resource) and its value is an object, that object is also
 * `structuredContent`, and its JSON text is left out when other text blocks are present (a mounted MCP tool's
 * `structuredContent` goes back out as it came in, beside its links and resources). An error result keeps its code
 * as a first text line `<code>` when its text does not already start with it, and in `_meta["raw/code"]`.
 */
export function toMcpResult(result: ToolResult): CallToolResult {
  const links = new Map<object, ResourceLink | EmbeddedResource>();
  const json: Array<{ value: unknown }> = [];
  for (const block of result.content) {
    if (block.type !== "json") continue;
    const link = resourceLink(block.value) ?? textResource(block.value);
    if (link !== undefined) links.set(block, link);
    else if (!isEmbeddedResource(block.value)) json.push(block);
  }
  const structured = !result.isError && json.length === 1 && isRecord(json[0]?.value) ? json[0] : undefined;
  const hasText = result.content.some((block) => block.type === "text");
  const content: CallToolResult["content"] = [];
  for (const block of result.content) {
    if (block.type === "text") content.push({ type: "text", text: block.text });
    else if (block.type === "image")
      content.push({ type: "image", mimeType: block.mimeType, data: block.data });
    else if (links.has(block)) content.push(links.get(block) as ResourceLink | EmbeddedResource);
    else if (block !== structured || !hasText)
      content.push({ type: "text", text: JSON.stringify(block.value) ?? "null" });
  }
  const out: CallToolResult = { content, isError: result.isError };
  if (structured !== undefined) out.structuredContent = structured.value as Record<string, unknown>;
  if (result.isError && typeof result.code === "string") {
    out._meta = { "raw/code": result.code };
    const first = content[0];
    if (first?.type !== "text" || !first.text.startsWith(result.code)) {
      content.unshift({ type: "text", text: `${result.code}` });
    }
  }
  if (result.truncated === true) out._meta = { ...out._meta, "raw/truncated": true };
  return out;
}
