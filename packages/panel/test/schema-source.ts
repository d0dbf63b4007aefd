import Type, { type TSchema } from "typebox";
import { PANEL_BLOCK_KINDS } from "../src/blocks/catalog.js";
import { PANEL_ICONS } from "../src/declarations.js";
import { MAX_FORM_TEXT_BYTES } from "../src/forms.js";
import {
  MAX_BLOCK_FALLBACK_BYTES,
  MAX_CHECKLIST_ITEMS,
  MAX_CONTEXT_SUMMARY_BYTES,
  MAX_DECLARATION_TITLE_CHARS,
  MAX_FILES_ENTRIES,
  MAX_FORM_FIELDS,
  MAX_FORM_OPTIONS,
  MAX_KEY_VALUE_ENTRIES,
  MAX_MARKDOWN_BYTES,
  MAX_MERMAID_SOURCE_BYTES,
  MAX_PANEL_ACTIONS,
  MAX_PANEL_BLOCKS,
  MAX_PATCH_ENTRIES,
  MAX_STEPS_ITEMS,
  MAX_SUBTITLE_CHARS,
  MAX_SUMMARY_CHARS,
  MAX_TABLE_COLUMNS,
  MAX_TABLE_ROWS,
  MAX_TIMELINE_EVENTS,
  MAX_TITLE_CHARS,
} from "../src/limits.js";

// The TypeBox sources of the committed JSON Schemas. They are used at build time only: test/schemas.test.ts writes
// schemas/*.schema.json from them (`npm run schemas`) and fails when a committed file drifts; the package ships and
// exports the JSON, never TypeBox.
//
// The JSON Schemas describe the shapes for editors and other languages. What JSON Schema cannot express is left to
// the validators: byte limits (given here as the equal character bound, which they imply), the 200-item total of a
// checklist tree, unique ids, cross-field rules and the 65,536-byte document limit.

const NO_CONTROL = "^[^\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]*$";
const PANEL_ID = "^[a-z][a-z0-9_-]{0,31}$";
const BLOCK_ID = "^[A-Za-z0-9_-]{1,32}$";
const ITEM_ID = "^[A-Za-z0-9_.-]{1,64}$";

const strict = { additionalProperties: false } as const;

function text(maxLength: number, minLength = 0, description?: string): TSchema {
  return Type.String({
    ...(minLength > 0 ? { minLength } : {}),
    maxLength,
    pattern: NO_CONTROL,
    ...(description === undefined ? {} : { description }),
  });
}

function bytes(max: number, minLength = 0): TSchema {
  return text(max, minLength, `At most ${max} UTF-8 bytes.`);
}

function oneOf<T extends string>(values: readonly T[]): TSchema {
  return Type.Union(values.map((value) => Type.Literal(value)));
}

const PanelIdSchema = Type.String({ pattern: PANEL_ID });
const BlockIdSchema = Type.String({ pattern: BLOCK_ID });
const ItemIdSchema = Type.String({ pattern: ITEM_ID });
const ItemStatusSchema = oneOf(["pending", "in_progress", "done", "skipped", "blocked", "failed"]);
const RefSchema = Type.Object(
  { path: text(500, 1), line: Type.Optional(Type.Integer({ minimum: 1 })) },
  strict,
);
const EpochSchema = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

function block(kind: string, own: Record<string, TSchema>): TSchema {
  return Type.Object(
    {
      id: BlockIdSchema,
      kind: Type.Literal(kind),
      title: Type.Optional(text(MAX_TITLE_CHARS)),
      fallback: Type.Optional(bytes(MAX_BLOCK_FALLBACK_BYTES)),
      ...own,
    },
    strict,
  );
}

function checklistItem(children: TSchema | undefined): TSchema {
  return Type.Object(
    {
      id: ItemIdSchema,
      label: text(200, 1),
      status: Type.Optional(ItemStatusSchema),
      priority: Type.Optional(oneOf(["high", "medium", "low"])),
      note: Type.Optional(text(500)),
      ref: Type.Optional(RefSchema),
      children: Type.Optional(
        children === undefined
          ? Type.Array(Type.Any(), { maxItems: 0 })
          : Type.Array(children, { maxItems: 200 }),
      ),
    },
    strict,
  );
}

const ChecklistItems = Type.Array(checklistItem(checklistItem(checklistItem(undefined))), {
  maxItems: MAX_CHECKLIST_ITEMS,
});

const StepsItem = Type.Object(
  {
    id: ItemIdSchema,
    label: text(200, 1),
    status: Type.Optional(ItemStatusSchema),
    detail: Type.Optional(text(200)),
    started_at: Type.Optional(EpochSchema),
    ended_at: Type.Optional(EpochSchema),
  },
  strict,
);

const Measure = Type.Number({ minimum: 0 });

const ProgressBlockSchema = Type.Union([
  block("progress", {
    label: Type.Optional(text(200)),
    value: Measure,
    max: Type.Number({ exclusiveMinimum: 0 }),
  }),
  block("progress", { label: Type.Optional(text(200)), indeterminate: Type.Literal(true) }),
]);

const KeyValueEntry = Type.Object(
  { key: text(60, 1), value: text(500), ref: Type.Optional(RefSchema) },
  strict,
);

const TableColumn = Type.Object(
  { id: ItemIdSchema, label: text(60), align: Type.Optional(oneOf(["start", "end", "center"])) },
  strict,
);

const TableRow = Type.Object(
  {
    id: ItemIdSchema,
    status: Type.Optional(ItemStatusSchema),
    cells: Type.Record(Type.String({ pattern: ITEM_ID }), text(300), strict),
    ref: Type.Optional(RefSchema),
  },
  strict,
);

const TimelineEvent = Type.Object(
  {
    id: ItemIdSchema,
    at: EpochSchema,
    level: oneOf(["info", "success", "warning", "error"]),
    label: text(200, 1),
    detail: Type.Optional(text(1000)),
  },
  strict,
);

const FilesEntry = Type.Object(
  {
    path: text(500, 1),
    status: Type.Optional(oneOf(["added", "modified", "deleted", "referenced"])),
    line: Type.Optional(Type.Integer({ minimum: 1 })),
    label: Type.Optional(text(200)),
  },
  strict,
);

const FormOption = Type.Object({ id: ItemIdSchema, label: text(200, 1) }, strict);
const FormOptions = Type.Array(FormOption, { minItems: 1, maxItems: MAX_FORM_OPTIONS });
const fieldCommon = {
  id: ItemIdSchema,
  label: text(200, 1),
  description: Type.Optional(text(500)),
  required: Type.Optional(Type.Boolean()),
};

const FormField = Type.Union([
  Type.Object(
    {
      ...fieldCommon,
      kind: Type.Literal("text"),
      multiline: Type.Optional(Type.Boolean()),
      max_bytes: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FORM_TEXT_BYTES })),
    },
    strict,
  ),
  Type.Object({ ...fieldCommon, kind: Type.Literal("single_select"), options: FormOptions }, strict),
  Type.Object(
    {
      ...fieldCommon,
      kind: Type.Literal("multi_select"),
      options: FormOptions,
      min_selected: Type.Optional(Type.Integer({ minimum: 0 })),
      max_selected: Type.Optional(Type.Integer({ minimum: 1 })),
    },
    strict,
  ),
]);

const UnknownBlock = Type.Object(
  {
    id: BlockIdSchema,
    kind: Type.String({ minLength: 1, pattern: NO_CONTROL, not: { enum: [...PANEL_BLOCK_KINDS] } }),
    title: Type.Optional(text(MAX_TITLE_CHARS)),
    fallback: Type.Optional(bytes(MAX_BLOCK_FALLBACK_BYTES)),
  },
  { additionalProperties: true },
);

/** One block of the catalog (`panels.md` §4), or a block of an unknown kind with only the common fields checked. */
export const PanelBlockSchemaSource = Type.Union([
  block("checklist", { items: ChecklistItems }),
  block("steps", { items: Type.Array(StepsItem, { maxItems: MAX_STEPS_ITEMS }) }),
  ProgressBlockSchema,
  block("key_value", { entries: Type.Array(KeyValueEntry, { maxItems: MAX_KEY_VALUE_ENTRIES }) }),
  block("table", {
    columns: Type.Array(TableColumn, { minItems: 1, maxItems: MAX_TABLE_COLUMNS }),
    rows: Type.Array(TableRow, { maxItems: MAX_TABLE_ROWS }),
  }),
  block("markdown", { text: bytes(MAX_MARKDOWN_BYTES) }),
  block("timeline", {
    max: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMELINE_EVENTS })),
    events: Type.Array(TimelineEvent, { maxItems: MAX_TIMELINE_EVENTS }),
  }),
  block("files", { entries: Type.Array(FilesEntry, { maxItems: MAX_FILES_ENTRIES }) }),
  block("form", { fields: Type.Array(FormField, { minItems: 1, maxItems: MAX_FORM_FIELDS }) }),
  block("mermaid", { source: bytes(MAX_MERMAID_SOURCE_BYTES, 1) }),
  UnknownBlock,
]);

function documentSchema(blockSchema: TSchema, options: object): TSchema {
  return Type.Object(
    {
      title: Type.Optional(text(MAX_TITLE_CHARS)),
      subtitle: Type.Optional(text(MAX_SUBTITLE_CHARS)),
      status: Type.Optional(oneOf(["idle", "active", "done", "failed"])),
      progress: Type.Optional(
        Type.Object(
          {
            done: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
            total: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
          },
          strict,
        ),
      ),
      summary: Type.Optional(text(MAX_SUMMARY_CHARS)),
      context_summary: Type.Optional(bytes(MAX_CONTEXT_SUMMARY_BYTES)),
      blocks: Type.Array(blockSchema, { maxItems: MAX_PANEL_BLOCKS }),
    },
    { ...strict, ...options },
  );
}

/** A panel document (`panels.md` §3); the 65,536-byte size limit is checked by `validatePanelDocument`. */
export const PanelDocumentSchemaSource = documentSchema(PanelBlockSchemaSource, {
  title: "raw.panel/2 document",
});

const ActionCommon = {
  id: PanelIdSchema,
  label: text(32, 1),
  confirm: Type.Optional(text(200, 1)),
};
const ActionBlocks = Type.Array(BlockIdSchema, { minItems: 1, maxItems: 20 });
const ActionWhen = Type.Object(
  { status: Type.Array(ItemStatusSchema, { minItems: 1, maxItems: 6 }) },
  strict,
);

const PanelActionSchema = Type.Union([
  Type.Object(
    {
      ...ActionCommon,
      scope: oneOf(["panel", "block", "item"]),
      blocks: Type.Optional(ActionBlocks),
      kind: Type.Literal("prompt"),
      text: text(2000, 1),
      send: Type.Optional(Type.Boolean()),
      primary: Type.Optional(Type.Literal(true)),
      when: Type.Optional(ActionWhen),
    },
    strict,
  ),
  Type.Object(
    {
      ...ActionCommon,
      scope: oneOf(["panel", "block", "item"]),
      blocks: Type.Optional(ActionBlocks),
      kind: Type.Literal("tool"),
      arguments: Type.Object({}),
      primary: Type.Optional(Type.Literal(true)),
      when: Type.Optional(ActionWhen),
    },
    strict,
  ),
  Type.Object(
    {
      ...ActionCommon,
      scope: Type.Literal("block"),
      blocks: Type.Optional(ActionBlocks),
      kind: Type.Literal("response"),
      response: oneOf(["submit", "cancel"]),
    },
    strict,
  ),
]);

/** A panel declaration as written in `tool.json` `panels` (`panels.md` §2, §10). */
export const PanelDeclarationSchemaSource = Type.Object(
  {
    id: PanelIdSchema,
    title: text(MAX_DECLARATION_TITLE_CHARS, 1),
    icon: Type.Optional(Type.String({ examples: [...PANEL_ICONS] })),
    open: Type.Optional(oneOf(["never", "first_update"])),
    context: Type.Optional(oneOf(["none", "summary"])),
    placement: Type.Optional(oneOf(["chat", "sidebar"])),
    acp_plan: Type.Optional(Type.Boolean()),
    actions: Type.Optional(Type.Array(PanelActionSchema, { maxItems: MAX_PANEL_ACTIONS })),
  },
  { ...strict, title: "raw.panel/2 declaration" },
);

const PatchEntries = { minItems: 1, maxItems: MAX_PATCH_ENTRIES } as const;
// The update schema refers to the block and document schemas through local `$defs` instead of inlining them twice.
const BlockRef = Type.Unsafe<unknown>({ $ref: "#/$defs/block" });
const DocumentRef = Type.Unsafe<unknown>({ $ref: "#/$defs/document" });
const Strings = Type.Array(Type.String(), PatchEntries);

const PanelPatchSchema = Type.Union([
  Type.Object(
    {
      op: Type.Literal("set"),
      field: oneOf(["title", "subtitle", "status", "summary", "context_summary", "progress"]),
      value: Type.Unknown(),
    },
    strict,
  ),
  Type.Object(
    { op: Type.Literal("set_block"), block: BlockRef, before: Type.Optional(BlockIdSchema) },
    strict,
  ),
  Type.Object({ op: Type.Literal("remove_block"), id: BlockIdSchema }, strict),
  Type.Object(
    {
      op: Type.Literal("upsert_items"),
      block: BlockIdSchema,
      items: Type.Array(Type.Object({}), PatchEntries),
      parent: Type.Optional(ItemIdSchema),
    },
    strict,
  ),
  Type.Object({ op: Type.Literal("remove_items"), block: BlockIdSchema, ids: Strings }, strict),
  Type.Object({ op: Type.Literal("remove_items"), block: BlockIdSchema, keys: Strings }, strict),
  Type.Object({ op: Type.Literal("remove_items"), block: BlockIdSchema, paths: Strings }, strict),
  Type.Object(
    {
      op: Type.Literal("append_events"),
      block: BlockIdSchema,
      events: Type.Array(TimelineEvent, PatchEntries),
    },
    strict,
  ),
]);

const BaseRevision = Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));

/** A panel update (`panels.md` §6.2): `replace`, `patch` or `close`; a result block adds `type: "panel"`. */
export const PanelUpdateSchemaSource = Type.Union(
  [
    Type.Object(
      {
        panel: PanelIdSchema,
        op: Type.Literal("replace"),
        document: DocumentRef,
        base_revision: BaseRevision,
      },
      strict,
    ),
    Type.Object(
      {
        panel: PanelIdSchema,
        op: Type.Literal("patch"),
        patches: Type.Array(PanelPatchSchema, { minItems: 1 }),
        base_revision: BaseRevision,
      },
      strict,
    ),
    Type.Object({ panel: PanelIdSchema, op: Type.Literal("close"), base_revision: BaseRevision }, strict),
  ],
  {
    title: "raw.panel/2 update",
    $defs: { block: PanelBlockSchemaSource, document: documentSchema(BlockRef, {}) },
  },
);

/**
 * The answers of a submitted form (`panels.md` §11.3): field ids mapped to a text, an option id, or option ids.
 * Which fields, options and limits apply is decided by `validateFormAnswers` against the prepared form.
 */
export const FormAnswersSchemaSource = Type.Record(
  Type.String({ pattern: ITEM_ID }),
  Type.Union([Type.String(), Type.Array(Type.String())]),
  { ...strict, title: "raw.panel/2 form answers" },
);
