import { escapeDisplayText, stringifyForDisplay } from "@raw/schema";

/** Most bytes of argument JSON the one-line header of a call trace shows. */
export const MAX_HEADER_ARGUMENT_BYTES = 512;

/** An untrusted single-line item (a path, a name, a reason, a message) as one screen line (amendment A1). */
export function displayLine(text: string, maxBytes?: number): string {
  return escapeDisplayText(text, maxBytes === undefined ? {} : { maxBytes });
}

/** An untrusted multi-line block (result text, stderr): LF and TAB kept, every other control escaped (A1). */
export function displayBlock(text: string, maxBytes?: number): string {
  return escapeDisplayText(
    text,
    maxBytes === undefined ? { multiline: true } : { multiline: true, maxBytes },
  );
}

/** Indents every line of `text` by `spaces`. */
export function indent(text: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return text
    .split("\n")
    .map((line) => (line === "" ? line : pad + line))
    .join("\n");
}

function isFileEffect(value: unknown): value is { path: string; operation: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { path?: unknown }).path === "string" &&
    typeof (value as { operation?: unknown }).operation === "string"
  );
}

/**
 * Intended effects as lines: a `{ files: [{ path, operation }] }` value as one `<operation> <path>` line per file
 * (each escaped as one screen line, never shortened), anything else as indented JSON with controls escaped.
 */
export function effectLines(effects: unknown): string[] {
  const files = (effects as { files?: unknown } | null | undefined)?.files;
  if (
    typeof effects === "object" &&
    effects !== null &&
    Object.keys(effects).length === 1 &&
    Array.isArray(files) &&
    files.every(isFileEffect)
  ) {
    if (files.length === 0) return ["no files"];
    return files.map((file) => `${displayLine(file.operation)} ${displayLine(file.path)}`);
  }
  return stringifyForDisplay(effects, 2).split("\n");
}

/** A result content block as display text: text escaped as a block, JSON indented, an image as a short note. */
export function blockText(block: unknown): string {
  const b = block as { type?: unknown; text?: unknown; value?: unknown; mimeType?: unknown; data?: unknown };
  if (b?.type === "text" && typeof b.text === "string") return displayBlock(b.text);
  if (b?.type === "json") return stringifyForDisplay(b.value, 2);
  if (b?.type === "image") {
    const size = typeof b.data === "string" ? Math.floor((b.data.length * 3) / 4) : 0;
    return `[image ${displayLine(String(b.mimeType))}, about ${size} bytes]`;
  }
  return stringifyForDisplay(block);
}

/** A one-line JSON text of a value for display (rules and arguments in traces), shortened to `maxBytes`. */
export function compactJson(value: unknown, maxBytes?: number): string {
  return displayLine(stringifyForDisplay(value), maxBytes);
}
