import { escapeDisplayText } from "@raw/schema";

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
