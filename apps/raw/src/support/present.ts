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
 * Intended effects as lines: a `{ files: [{ path, operation }] }` value as one `<operation> <path>` line per file,
 * anything else as indented JSON.
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
    return files.map((file) => `${file.operation} ${file.path}`);
  }
  return JSON.stringify(effects, null, 2).split("\n");
}

/** A result content block as text: text as is, JSON indented, an image as a short note. */
export function blockText(block: unknown): string {
  const b = block as { type?: unknown; text?: unknown; value?: unknown; mimeType?: unknown; data?: unknown };
  if (b?.type === "text" && typeof b.text === "string") return b.text;
  if (b?.type === "json") return JSON.stringify(b.value, null, 2);
  if (b?.type === "image") {
    const size = typeof b.data === "string" ? Math.floor((b.data.length * 3) / 4) : 0;
    return `[image ${String(b.mimeType)}, about ${size} bytes]`;
  }
  return JSON.stringify(block);
}

/** A one-line JSON text of a value (for rules and arguments in traces). */
export function compactJson(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
