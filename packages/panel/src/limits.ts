/** Declared panels per tool (`panels.md` §2, §8). */
export const MAX_PANELS_PER_TOOL = 4;

/** Actions per panel declaration (`panels.md` §2.1, §8). */
export const MAX_PANEL_ACTIONS = 8;

/** Largest serialized document in UTF-8 bytes; exactly this many is accepted (`panels.md` §3.1). */
export const MAX_PANEL_DOCUMENT_BYTES = 65_536;

/** Blocks per document (`panels.md` §3.1). */
export const MAX_PANEL_BLOCKS = 20;

/** Characters of a declaration title (`panels.md` §2.1). */
export const MAX_DECLARATION_TITLE_CHARS = 40;

/** Characters of a document or block title (`panels.md` §3.1, §4.1). */
export const MAX_TITLE_CHARS = 80;

/** Characters of a document subtitle (`panels.md` §3.1). */
export const MAX_SUBTITLE_CHARS = 120;

/** Characters of a document summary, explicit or derived (`panels.md` §3.1, §3.6). */
export const MAX_SUMMARY_CHARS = 120;

/** UTF-8 bytes of a document's `context_summary` (`panels.md` §3.1). */
export const MAX_CONTEXT_SUMMARY_BYTES = 2048;

/** UTF-8 bytes of a block's `fallback` (`panels.md` §4.1). */
export const MAX_BLOCK_FALLBACK_BYTES = 4096;

/** Checklist items in one block, children included; also the entries of one checklist array (`panels.md` §4.2). */
export const MAX_CHECKLIST_ITEMS = 200;

/** Nesting levels of a checklist; a level-3 item may only carry `children: []` (`panels.md` §4.2). */
export const MAX_CHECKLIST_DEPTH = 3;

/** Items of a `steps` block (`panels.md` §4.2). */
export const MAX_STEPS_ITEMS = 30;

/** Entries of a `key_value` block (`panels.md` §4.2). */
export const MAX_KEY_VALUE_ENTRIES = 50;

/** Columns of a `table` block (at least 1) (`panels.md` §4.2). */
export const MAX_TABLE_COLUMNS = 8;

/** Rows of a `table` block (`panels.md` §4.2). */
export const MAX_TABLE_ROWS = 200;

/** Entries of a `files` block (`panels.md` §4.2). */
export const MAX_FILES_ENTRIES = 200;

/** Largest `max` of a `timeline` block, and the most events it holds (`panels.md` §4.2). */
export const MAX_TIMELINE_EVENTS = 200;

/** A timeline's `max` when absent: the newest this many events are kept (`panels.md` §4.2, §6.4). */
export const DEFAULT_TIMELINE_MAX = 100;

/** UTF-8 bytes of a `markdown` block's text (`panels.md` §4.2). */
export const MAX_MARKDOWN_BYTES = 16_384;

/** UTF-8 bytes of a `mermaid` block's source (`panels.md` §12). */
export const MAX_MERMAID_SOURCE_BYTES = 16_384;

/** Fields of a `form` block (at least 1) (`panels.md` §11.1). */
export const MAX_FORM_FIELDS = 8;

/** Options of a choice field (at least 1) (`panels.md` §11.1). */
export const MAX_FORM_OPTIONS = 32;

/** Items, ids, keys, paths or events carried by one patch operation (`panels.md` §6.4). */
export const MAX_PATCH_ENTRIES = 200;

/** Table rows shown by the text renderer before `… <n> more rows` (`panels.md` §14.2). */
export const MAX_TEXT_TABLE_ROWS = 50;
