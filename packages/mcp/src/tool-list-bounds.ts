import { shortenDisplayText } from "@raw/schema";
import { MCP_CODES } from "./codes.js";
import {
  MAX_MCP_DROPPED_REPORTED,
  MAX_MCP_TOOL_DESCRIPTION_BYTES,
  MAX_MCP_TOOL_LIST_BYTES,
  MAX_MCP_TOOL_SCHEMA_BYTES,
  MAX_MCP_TOOLS,
} from "./limits.js";

/** A listed tool as kept: the server's entry (description shortened), or a marker for a tool whose schema is too large. */
export type BoundedTool = unknown;

/** What a bounded listing kept, what it dropped, and the warnings to report. */
export interface BoundedToolList {
  /** The tools kept, in the server's order (at most `MAX_MCP_TOOLS`, at most `MAX_MCP_TOOL_LIST_BYTES` in all). */
  readonly tools: readonly BoundedTool[];
  /** Names (or `#<index>`) of the first `MAX_MCP_DROPPED_REPORTED` dropped tools. */
  readonly dropped: readonly string[];
  /** How many tools were dropped in all (tools on pages that were not read are not counted). */
  readonly droppedCount: number;
  /** True when later pages were not read because the list was already full. */
  readonly unread: boolean;
  /** Per-tool warnings (`mcp_tool_description_truncated`). */
  readonly warnings: ReadonlyArray<{ code: string; message: string; tool: string }>;
}

/** A tool left out for its size: only its name is kept (`apply` reports it as `mcp_tool_too_large`). */
export interface OversizedTool {
  readonly oversized: true;
  readonly name: unknown;
  readonly bytes: number;
}

/** True for the marker of a tool whose schema was too large. */
export function isOversizedTool(value: unknown): value is OversizedTool {
  return typeof value === "object" && value !== null && (value as { oversized?: unknown }).oversized === true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** UTF-8 size of `value` as JSON; `Infinity` for a value that does not serialize. */
function jsonBytes(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : Buffer.byteLength(text);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function labelOf(entry: unknown, index: number): string {
  const name = isRecord(entry) ? entry.name : undefined;
  return typeof name === "string" ? name.slice(0, 256) : `#${index}`;
}

/**
 * Collects the pages of one `tools/list` within the bounds: each description shortened to
 * `MAX_MCP_TOOL_DESCRIPTION_BYTES` as soon as it is read, each schema past `MAX_MCP_TOOL_SCHEMA_BYTES` replaced by a
 * marker, and no tool kept past `MAX_MCP_TOOLS` tools or `MAX_MCP_TOOL_LIST_BYTES` of definitions. Nothing the
 * server sent beyond the bounds is retained.
 */
export class ToolListCollector {
  readonly #tools: BoundedTool[] = [];
  readonly #dropped: string[] = [];
  readonly #warnings: Array<{ code: string; message: string; tool: string }> = [];
  #droppedCount = 0;
  #bytes = 0;
  #index = 0;
  #full = false;

  /** True once a bound was reached: later pages need not be read. */
  get full(): boolean {
    return this.#full;
  }

  /** Takes one page's `tools`. */
  add(page: readonly unknown[]): void {
    for (const entry of page) {
      const index = this.#index++;
      if (this.#full) {
        this.#drop(labelOf(entry, index));
        continue;
      }
      const { kept, bytes } = this.#bound(entry, index);
      if (this.#tools.length >= MAX_MCP_TOOLS || this.#bytes + bytes > MAX_MCP_TOOL_LIST_BYTES) {
        this.#full = true;
        this.#drop(labelOf(entry, index));
        continue;
      }
      this.#bytes += bytes;
      this.#tools.push(kept);
    }
  }

  /** The listing; `morePages` says whether the server had pages left that were not read. */
  finish(morePages: boolean): BoundedToolList {
    return {
      tools: this.#tools,
      dropped: this.#dropped,
      droppedCount: this.#droppedCount,
      unread: morePages,
      warnings: this.#warnings,
    };
  }

  #drop(label: string): void {
    this.#droppedCount++;
    if (this.#dropped.length < MAX_MCP_DROPPED_REPORTED) this.#dropped.push(label);
  }

  /** The tool as kept and its size as JSON (its schema serialized once: a list is read on the event loop). */
  #bound(entry: unknown, index: number): { kept: BoundedTool; bytes: number } {
    if (!isRecord(entry)) return { kept: entry, bytes: jsonBytes(entry) };
    let kept: Record<string, unknown> = entry;
    const schemaBytes = jsonBytes(entry.inputSchema);
    if (schemaBytes > MAX_MCP_TOOL_SCHEMA_BYTES) {
      return {
        kept: { oversized: true, name: entry.name, bytes: schemaBytes } satisfies OversizedTool,
        bytes: 0,
      };
    }
    for (const field of ["description", "title"] as const) {
      const text = kept[field];
      if (typeof text !== "string") continue;
      const short = shortenDisplayText(text, MAX_MCP_TOOL_DESCRIPTION_BYTES);
      if (short === text) continue;
      kept = { ...kept, [field]: short };
      const label = labelOf(entry, index);
      this.#warnings.push({
        code: MCP_CODES.descriptionTruncated,
        tool: label,
        message: `the ${field} of tool ${label} is longer than ${MAX_MCP_TOOL_DESCRIPTION_BYTES} bytes; shortened`,
      });
    }
    return { kept, bytes: jsonBytes({ ...kept, inputSchema: null }) + schemaBytes };
  }
}
