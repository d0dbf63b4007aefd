/** A `type: "panel"` result block: an update of `panels.md` §6.2 plus `type` (its other keys are unchecked here). */
export type PanelResultBlock = { readonly type: "panel"; readonly [key: string]: unknown };

/** `extractPanelBlocks` output: the content without panel blocks, and the panel blocks in their original order. */
export interface ExtractedPanelBlocks<T = unknown> {
  content: T[];
  panelBlocks: PanelResultBlock[];
}

/** True for a content block whose `type` is `"panel"`. */
export function isPanelBlock(block: unknown): block is PanelResultBlock {
  return typeof block === "object" && block !== null && (block as { type?: unknown }).type === "panel";
}

/**
 * Removes every `type: "panel"` block from a handler result's `content` (`panels.md` §9.1, `tool-api.md` §7.2
 * step 12). Returns a new content array (the input is not mutated) and the panel blocks in order; content that is
 * not an array is returned as an empty list.
 */
export function extractPanelBlocks<T>(
  content: readonly T[],
): ExtractedPanelBlocks<Exclude<T, PanelResultBlock>> {
  const kept: Array<Exclude<T, PanelResultBlock>> = [];
  const panelBlocks: PanelResultBlock[] = [];
  if (!Array.isArray(content)) return { content: kept, panelBlocks };
  for (const block of content) {
    if (isPanelBlock(block)) panelBlocks.push(block);
    else kept.push(block as Exclude<T, PanelResultBlock>);
  }
  return { content: kept, panelBlocks };
}
