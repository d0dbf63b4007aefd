import { expect } from "vitest";
import { type PanelDocument, validatePanelDocument } from "../src/index.js";

/** The single issue of a rejected document (fails the test when the document is accepted). */
export function documentIssue(document: unknown) {
  const result = validatePanelDocument(document);
  if (result.ok) throw new Error("expected the document to be rejected");
  expect(result.issues).toHaveLength(1);
  return result.issues[0];
}

/** The `message` of the single issue of a rejected document. */
export function documentMessage(document: unknown): string | undefined {
  return documentIssue(document)?.message;
}

/** The validated copy of an accepted document (fails the test with the issue otherwise). */
export function accept(document: unknown): PanelDocument {
  const result = validatePanelDocument(document);
  if (!result.ok) throw new Error(`expected the document to be accepted: ${JSON.stringify(result.issues)}`);
  return result.document;
}

/** A document holding one block. */
export function withBlock(block: unknown): { blocks: unknown[] } {
  return { blocks: [block] };
}

/** A document of exactly `bytes` serialized UTF-8 bytes (ASCII padding in a markdown block). */
export function documentOfBytes(bytes: number): { blocks: unknown[] } {
  const empty = JSON.stringify({ blocks: [{ id: "m", kind: "markdown", text: "" }] }).length;
  const blocks: unknown[] = [];
  let remaining = bytes - JSON.stringify({ blocks: [] }).length;
  let i = 0;
  // Each markdown block holds at most 16,384 bytes of text.
  const perBlock = empty - JSON.stringify({ blocks: [] }).length;
  while (remaining > 0) {
    const separator = blocks.length === 0 ? 0 : 1;
    const overhead = perBlock + separator + String(i).length;
    const text = Math.min(16_384, remaining - overhead);
    blocks.push({ id: `m${i}`, kind: "markdown", text: "a".repeat(text) });
    remaining -= overhead + text;
    i++;
  }
  const document = { blocks };
  expect(Buffer.byteLength(JSON.stringify(document))).toBe(bytes);
  return document;
}
