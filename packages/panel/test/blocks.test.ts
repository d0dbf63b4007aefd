import { describe, expect, it } from "vitest";
import { accept, documentIssue, documentMessage, withBlock } from "./helpers.js";

const ITEM_ID = "must match ^[A-Za-z0-9_.-]{1,64}$";
const STATUS = "must be one of pending, in_progress, done, skipped, blocked, failed";

/** The message for a document holding `block` as its only block, with `/blocks/0` shortened to `@`. */
function reason(block: unknown): string | undefined {
  return documentMessage(withBlock(block))?.replace(/^\/blocks\/0/, "@");
}

function acceptBlock(block: unknown): void {
  accept(withBlock(block));
}

const checklist = (items: unknown) => ({ id: "c", kind: "checklist", items });
const item = (id: string, extra: Record<string, unknown> = {}) => ({ id, label: id, ...extra });

describe("checklist", () => {
  it("accepts items with every field, nested three levels", () => {
    acceptBlock(
      checklist([
        item("a", {
          status: "in_progress",
          priority: "high",
          note: "n".repeat(500),
          ref: { path: "p".repeat(500), line: 1 },
          children: [item("b", { children: [item("c", { children: [] })] })],
        }),
        item("d", { label: "l".repeat(200) }),
        item("i".repeat(64)),
        item("A_b.c-9"),
      ]),
    );
  });

  it("accepts exactly 200 items including children and rejects 201", () => {
    const tree = (n: number) =>
      Array.from({ length: n / 2 }, (_, i) => item(`p${i}`, { children: [item(`c${i}`)] }));
    acceptBlock(checklist(tree(200)));
    expect(reason(checklist([...tree(200), item("extra")]))).toBe(
      "@/items: must hold at most 200 items including children",
    );
    expect(reason(checklist(Array.from({ length: 201 }, (_, i) => item(`t${i}`))))).toBe(
      "@/items: must have at most 200 entries",
    );
  });

  it.each([
    ["missing items", { id: "c", kind: "checklist" }, "@/items: must be an array"],
    ["an unknown block key", { ...checklist([]), rows: [] }, "@/rows: unknown field"],
    ["a non-object item", checklist([1]), "@/items/0: must be an object"],
    ["an unknown item key", checklist([item("a", { done: true })]), "@/items/0/done: unknown field"],
    ["a missing item id", checklist([{ label: "x" }]), `@/items/0/id: ${ITEM_ID}`],
    ["a bad item id", checklist([item("a b")]), `@/items/0/id: ${ITEM_ID}`],
    ["a 65-character item id", checklist([item("i".repeat(65))]), `@/items/0/id: ${ITEM_ID}`],
    ["a missing label", checklist([{ id: "a" }]), "@/items/0/label: must be a string"],
    ["an empty label", checklist([item("a", { label: "" })]), "@/items/0/label: must not be empty"],
    [
      "a 201-character label",
      checklist([item("a", { label: "l".repeat(201) })]),
      "@/items/0/label: must be at most 200 characters",
    ],
    ["a bad status", checklist([item("a", { status: "complete" })]), `@/items/0/status: ${STATUS}`],
    [
      "a bad priority",
      checklist([item("a", { priority: "urgent" })]),
      "@/items/0/priority: must be one of high, medium, low",
    ],
    [
      "a 501-character note",
      checklist([item("a", { note: "n".repeat(501) })]),
      "@/items/0/note: must be at most 500 characters",
    ],
    ["a non-object ref", checklist([item("a", { ref: "a.ts" })]), "@/items/0/ref: must be an object"],
    [
      "an unknown ref key",
      checklist([item("a", { ref: { path: "a", col: 1 } })]),
      "@/items/0/ref/col: unknown field",
    ],
    [
      "an empty ref path",
      checklist([item("a", { ref: { path: "" } })]),
      "@/items/0/ref/path: must not be empty",
    ],
    [
      "a 501-character ref path",
      checklist([item("a", { ref: { path: "p".repeat(501) } })]),
      "@/items/0/ref/path: must be at most 500 characters",
    ],
    [
      "a ref line of 0",
      checklist([item("a", { ref: { path: "a", line: 0 } })]),
      "@/items/0/ref/line: must be an integer of at least 1",
    ],
    ["non-array children", checklist([item("a", { children: {} })]), "@/items/0/children: must be an array"],
    [
      "a fourth level",
      checklist([item("a", { children: [item("b", { children: [item("c", { children: [item("d")] })] })] })]),
      "@/items/0/children/0/children/0/children: nesting is at most 3 levels",
    ],
    ["a duplicate sibling id", checklist([item("a"), item("a")]), "@/items/1/id: duplicate item id"],
    [
      "a duplicate id across the tree",
      checklist([item("a"), item("b", { children: [item("a")] })]),
      "@/items/1/children/0/id: duplicate item id",
    ],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });

  it("checks unknown item keys before the id", () => {
    expect(reason(checklist([{ id: 1, x: 1 }]))).toBe("@/items/0/x: unknown field");
  });
});

describe("steps", () => {
  const steps = (items: unknown) => ({ id: "s", kind: "steps", items });

  it("accepts 30 items with timing", () => {
    acceptBlock(
      steps(
        Array.from({ length: 30 }, (_, i) =>
          item(`s${i}`, { status: "done", detail: "d".repeat(200), started_at: 0, ended_at: 2 ** 53 - 1 }),
        ),
      ),
    );
  });

  it.each([
    [
      "31 items",
      steps(Array.from({ length: 31 }, (_, i) => item(`s${i}`))),
      "@/items: must have at most 30 entries",
    ],
    ["children", steps([item("a", { children: [] })]), "@/items/0/children: unknown field"],
    [
      "a 201-character detail",
      steps([item("a", { detail: "d".repeat(201) })]),
      "@/items/0/detail: must be at most 200 characters",
    ],
    [
      "a negative started_at",
      steps([item("a", { started_at: -1 })]),
      "@/items/0/started_at: must be an integer of at least 0",
    ],
    [
      "a fractional ended_at",
      steps([item("a", { ended_at: 1.5 })]),
      "@/items/0/ended_at: must be an integer of at least 0",
    ],
    [
      "a string ended_at",
      steps([item("a", { ended_at: "1" })]),
      "@/items/0/ended_at: must be an integer of at least 0",
    ],
    ["a bad status", steps([item("a", { status: "ok" })]), `@/items/0/status: ${STATUS}`],
    ["a duplicate id", steps([item("a"), item("a")]), "@/items/1/id: duplicate item id"],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });
});

describe("progress", () => {
  const progress = (extra: Record<string, unknown>) => ({ id: "p", kind: "progress", ...extra });

  it.each([
    [{ value: 0, max: 1 }],
    [{ value: 0.5, max: 0.5, label: "l".repeat(200) }],
    [{ value: 2.25, max: 10 }],
    [{ indeterminate: true }],
    [{ indeterminate: true, label: "Loading" }],
  ])("accepts %j", (extra) => {
    acceptBlock(progress(extra));
  });

  it.each([
    ["nothing", {}, "@/value: must be a non-negative finite number"],
    ["a negative value", { value: -1, max: 1 }, "@/value: must be a non-negative finite number"],
    [
      "an infinite max",
      { value: 1, max: Number.POSITIVE_INFINITY },
      "@/max: must be a non-negative finite number",
    ],
    ["a NaN value", { value: Number.NaN, max: 1 }, "@/value: must be a non-negative finite number"],
    ["a string max", { value: 1, max: "2" }, "@/max: must be a non-negative finite number"],
    ["a zero max", { value: 0, max: 0 }, "@/max: must be greater than 0"],
    ["value above max", { value: 2, max: 1 }, "@/value: must not exceed max"],
    ["indeterminate false", { indeterminate: false }, "@/indeterminate: must be true"],
    [
      "indeterminate with value",
      { indeterminate: true, value: 1 },
      "@: indeterminate excludes value and max",
    ],
    ["indeterminate with max", { indeterminate: true, max: 1 }, "@: indeterminate excludes value and max"],
    [
      "a 201-character label",
      { label: "l".repeat(201), value: 0, max: 1 },
      "@/label: must be at most 200 characters",
    ],
    ["an unknown key", { value: 0, max: 1, unit: "%" }, "@/unit: unknown field"],
  ])("rejects %s", (_name, extra, message) => {
    expect(reason(progress(extra))).toBe(message);
  });
});

describe("key_value", () => {
  const kv = (entries: unknown) => ({ id: "k", kind: "key_value", entries });
  const entry = (key: string, extra: Record<string, unknown> = {}) => ({ key, value: "v", ...extra });

  it("accepts 50 entries, a 60-character key, a 500-character or empty value and a ref", () => {
    acceptBlock(kv(Array.from({ length: 50 }, (_, i) => entry(`k${i}`))));
    acceptBlock(
      kv([entry("k".repeat(60), { value: "v".repeat(500), ref: { path: "a" } }), entry("e", { value: "" })]),
    );
  });

  it.each([
    [
      "51 entries",
      kv(Array.from({ length: 51 }, (_, i) => entry(`k${i}`))),
      "@/entries: must have at most 50 entries",
    ],
    ["a missing key", kv([{ value: "v" }]), "@/entries/0/key: must be a string"],
    ["an empty key", kv([entry("")]), "@/entries/0/key: must not be empty"],
    ["a 61-character key", kv([entry("k".repeat(61))]), "@/entries/0/key: must be at most 60 characters"],
    ["a missing value", kv([{ key: "k" }]), "@/entries/0/value: must be a string"],
    [
      "a 501-character value",
      kv([entry("k", { value: "v".repeat(501) })]),
      "@/entries/0/value: must be at most 500 characters",
    ],
    ["a duplicate key", kv([entry("k"), entry("k")]), "@/entries/1/key: duplicate key"],
    ["an id", kv([entry("k", { id: "x" })]), "@/entries/0/id: unknown field"],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });
});

describe("table", () => {
  const columns = [
    { id: "name", label: "Name" },
    { id: "size", label: "", align: "end" },
  ];
  const table = (rows: unknown, cols: unknown = columns) => ({ id: "t", kind: "table", columns: cols, rows });
  const row = (id: string, cells: unknown = {}, extra: Record<string, unknown> = {}) => ({
    id,
    cells,
    ...extra,
  });

  it("accepts 8 columns, 200 rows, missing cells and a 300-character cell", () => {
    const eight = Array.from({ length: 8 }, (_, i) => ({
      id: `c${i}`,
      label: "l".repeat(60),
      align: "center",
    }));
    acceptBlock(
      table(
        Array.from({ length: 200 }, (_, i) => row(`r${i}`, { c0: "x" })),
        eight,
      ),
    );
    acceptBlock(
      table([row("r", { name: "n".repeat(300) }, { status: "failed", ref: { path: "a", line: 3 } })]),
    );
  });

  it("keeps a __proto__ column id as data", () => {
    const document = accept(
      withBlock(
        table([JSON.parse('{"id":"r","cells":{"__proto__":"x"}}')], [{ id: "__proto__", label: "P" }]),
      ),
    );
    const cells = (document.blocks[0] as unknown as { rows: Array<{ cells: object }> }).rows[0]?.cells;
    expect(Object.keys(cells ?? {})).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(cells)).toBe(Object.prototype);
  });

  it.each([
    ["no columns", table([], []), "@/columns: must have at least 1 entries"],
    [
      "9 columns",
      table(
        [],
        Array.from({ length: 9 }, (_, i) => ({ id: `c${i}`, label: "" })),
      ),
      "@/columns: must have at most 8 entries",
    ],
    ["a missing column label", table([], [{ id: "a" }]), "@/columns/0/label: must be a string"],
    [
      "a 61-character column label",
      table([], [{ id: "a", label: "l".repeat(61) }]),
      "@/columns/0/label: must be at most 60 characters",
    ],
    [
      "a bad align",
      table([], [{ id: "a", label: "", align: "left" }]),
      "@/columns/0/align: must be one of start, end, center",
    ],
    ["a bad column id", table([], [{ id: "a b", label: "" }]), `@/columns/0/id: ${ITEM_ID}`],
    [
      "a duplicate column id",
      table(
        [],
        [
          { id: "a", label: "" },
          { id: "a", label: "" },
        ],
      ),
      "@/columns/1/id: duplicate column id",
    ],
    ["missing rows", { id: "t", kind: "table", columns }, "@/rows: must be an array"],
    [
      "201 rows",
      table(Array.from({ length: 201 }, (_, i) => row(`r${i}`))),
      "@/rows: must have at most 200 entries",
    ],
    ["missing cells", table([{ id: "r" }]), "@/rows/0/cells: must be an object"],
    ["array cells", table([row("r", [])]), "@/rows/0/cells: must be an object"],
    [
      "an unknown column",
      table([row("r", { name: "a", "x/y": "b" })]),
      "@/rows/0/cells/x~1y: unknown column",
    ],
    [
      "a constructor column",
      table([row("r", { constructor: "b" })]),
      "@/rows/0/cells/constructor: unknown column",
    ],
    ["a non-string cell", table([row("r", { name: 1 })]), "@/rows/0/cells/name: must be a string"],
    [
      "a 301-character cell",
      table([row("r", { name: "c".repeat(301) })]),
      "@/rows/0/cells/name: must be at most 300 characters",
    ],
    ["a bad row status", table([row("r", {}, { status: "ok" })]), `@/rows/0/status: ${STATUS}`],
    ["a duplicate row id", table([row("r"), row("r")]), "@/rows/1/id: duplicate item id"],
    ["a row label", table([row("r", {}, { label: "x" })]), "@/rows/0/label: unknown field"],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });
});

describe("markdown", () => {
  const markdown = (text: unknown) => ({ id: "m", kind: "markdown", text });

  it("accepts an empty text and exactly 16,384 bytes", () => {
    acceptBlock(markdown(""));
    acceptBlock(markdown("a".repeat(16_384)));
    acceptBlock(markdown("é".repeat(8192)));
  });

  it.each([
    ["a missing text", { id: "m", kind: "markdown" }, "@/text: must be a string"],
    ["16,385 bytes", markdown("a".repeat(16_385)), "@/text: must be at most 16384 bytes"],
    ["8193 two-byte characters", markdown("é".repeat(8193)), "@/text: must be at most 16384 bytes"],
    ["a carriage return", markdown("a\r\nb"), "@/text: contains a control character"],
    ["a source key", { ...markdown(""), source: "x" }, "@/source: unknown field"],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });
});

describe("timeline", () => {
  const timeline = (events: unknown, extra: Record<string, unknown> = {}) => ({
    id: "l",
    kind: "timeline",
    ...extra,
    events,
  });
  const event = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    at: 0,
    level: "info",
    label: id,
    ...extra,
  });
  const events = (n: number) => Array.from({ length: n }, (_, i) => event(`e${i}`));

  it("accepts 100 events by default, max of 1 and 200, and every level", () => {
    acceptBlock(timeline(events(100)));
    acceptBlock(timeline(events(1), { max: 1 }));
    acceptBlock(timeline(events(200), { max: 200 }));
    acceptBlock(
      timeline(
        ["info", "success", "warning", "error"].map((level, i) =>
          event(`e${i}`, { level, detail: "d".repeat(1000) }),
        ),
      ),
    );
  });

  it.each([
    ["101 events without max", timeline(events(101)), "@/events: must have at most 100 entries"],
    ["3 events with max 2", timeline(events(3), { max: 2 }), "@/events: must have at most 2 entries"],
    [
      "201 events with max 200",
      timeline(events(201), { max: 200 }),
      "@/events: must have at most 200 entries",
    ],
    ["max 0", timeline([], { max: 0 }), "@/max: must be an integer of at least 1"],
    ["max 1.5", timeline([], { max: 1.5 }), "@/max: must be an integer of at least 1"],
    ["max 201", timeline([], { max: 201 }), "@/max: must be at most 200"],
    [
      "a missing at",
      timeline([{ id: "e", level: "info", label: "x" }]),
      "@/events/0/at: must be an integer of at least 0",
    ],
    [
      "a missing level",
      timeline([{ id: "e", at: 1, label: "x" }]),
      "@/events/0/level: must be one of info, success, warning, error",
    ],
    [
      "a bad level",
      timeline([event("e", { level: "debug" })]),
      "@/events/0/level: must be one of info, success, warning, error",
    ],
    ["an empty label", timeline([event("e", { label: "" })]), "@/events/0/label: must not be empty"],
    [
      "a 1001-character detail",
      timeline([event("e", { detail: "d".repeat(1001) })]),
      "@/events/0/detail: must be at most 1000 characters",
    ],
    ["a duplicate id", timeline([event("e"), event("e")]), "@/events/1/id: duplicate item id"],
    ["a missing id", timeline([{ at: 0, level: "info", label: "x" }]), `@/events/0/id: ${ITEM_ID}`],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });
});

describe("files", () => {
  const files = (entries: unknown) => ({ id: "f", kind: "files", entries });

  it("accepts 200 entries and every status", () => {
    acceptBlock(files(Array.from({ length: 200 }, (_, i) => ({ path: `f${i}` }))));
    acceptBlock(
      files(
        ["added", "modified", "deleted", "referenced"].map((status, i) => ({
          path: `${"p".repeat(499)}${i}`,
          status,
          line: 1,
          label: "l".repeat(200),
        })),
      ),
    );
  });

  it.each([
    [
      "201 entries",
      files(Array.from({ length: 201 }, (_, i) => ({ path: `f${i}` }))),
      "@/entries: must have at most 200 entries",
    ],
    ["a missing path", files([{ status: "added" }]), "@/entries/0/path: must be a string"],
    ["an empty path", files([{ path: "" }]), "@/entries/0/path: must not be empty"],
    [
      "a 501-character path",
      files([{ path: "p".repeat(501) }]),
      "@/entries/0/path: must be at most 500 characters",
    ],
    [
      "a bad status",
      files([{ path: "a", status: "renamed" }]),
      "@/entries/0/status: must be one of added, modified, deleted, referenced",
    ],
    ["a line of 0", files([{ path: "a", line: 0 }]), "@/entries/0/line: must be an integer of at least 1"],
    [
      "a 201-character label",
      files([{ path: "a", label: "l".repeat(201) }]),
      "@/entries/0/label: must be at most 200 characters",
    ],
    ["a duplicate path", files([{ path: "a" }, { path: "a" }]), "@/entries/1/path: duplicate path"],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });
});

describe("form", () => {
  const form = (fields: unknown) => ({ id: "q", kind: "form", fields });
  const text = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    label: id,
    kind: "text",
    ...extra,
  });
  const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, label: `O${i}` }));
  const single = (extra: Record<string, unknown> = {}) => ({
    id: "s",
    label: "S",
    kind: "single_select",
    options: options(2),
    ...extra,
  });
  const multi = (extra: Record<string, unknown> = {}) => ({
    id: "m",
    label: "M",
    kind: "multi_select",
    options: options(3),
    ...extra,
  });

  it("accepts every field kind at its limits", () => {
    acceptBlock(
      form([
        text("t", { description: "d".repeat(500), required: true, multiline: false, max_bytes: 65_536 }),
        text("t2", { max_bytes: 1 }),
        single({ options: options(32) }),
        multi({ min_selected: 0, max_selected: 3 }),
        multi({ id: "m2", min_selected: 3 }),
      ]),
    );
    acceptBlock(form(Array.from({ length: 8 }, (_, i) => text(`t${i}`))));
    acceptBlock(form([JSON.parse('{"id":"__proto__","label":"P","kind":"text"}')]));
  });

  it.each([
    ["no fields", form([]), "@/fields: must have at least 1 entries"],
    [
      "9 fields",
      form(Array.from({ length: 9 }, (_, i) => text(`t${i}`))),
      "@/fields: must have at most 8 entries",
    ],
    ["a bad field id", form([text("a b")]), `@/fields/0/id: ${ITEM_ID}`],
    ["an empty label", form([text("t", { label: "" })]), "@/fields/0/label: must not be empty"],
    [
      "a 501-character description",
      form([text("t", { description: "d".repeat(501) })]),
      "@/fields/0/description: must be at most 500 characters",
    ],
    [
      "a non-boolean required",
      form([text("t", { required: "yes" })]),
      "@/fields/0/required: must be boolean",
    ],
    [
      "a bad kind",
      form([text("t", { kind: "number" })]),
      "@/fields/0/kind: must be one of text, single_select, multi_select",
    ],
    ["options on a text field", form([text("t", { options: [] })]), "@/fields/0/options: unknown field"],
    [
      "min_selected on a single_select",
      form([single({ min_selected: 1 })]),
      "@/fields/0/min_selected: unknown field",
    ],
    ["a non-boolean multiline", form([text("t", { multiline: 1 })]), "@/fields/0/multiline: must be boolean"],
    [
      "max_bytes of 0",
      form([text("t", { max_bytes: 0 })]),
      "@/fields/0/max_bytes: must be an integer of at least 1",
    ],
    [
      "max_bytes of 65,537",
      form([text("t", { max_bytes: 65_537 })]),
      "@/fields/0/max_bytes: must be at most 65536",
    ],
    ["missing options", form([single({ options: undefined })]), "@/fields/0/options: must be an array"],
    ["no options", form([single({ options: [] })]), "@/fields/0/options: must have at least 1 entries"],
    [
      "33 options",
      form([single({ options: options(33) })]),
      "@/fields/0/options: must have at most 32 entries",
    ],
    [
      "an option with a description",
      form([single({ options: [{ id: "a", label: "A", description: "" }] })]),
      "@/fields/0/options/0/description: unknown field",
    ],
    [
      "an empty option label",
      form([single({ options: [{ id: "a", label: "" }] })]),
      "@/fields/0/options/0/label: must not be empty",
    ],
    [
      "a duplicate option id",
      form([
        single({
          options: [
            { id: "a", label: "A" },
            { id: "a", label: "B" },
          ],
        }),
      ]),
      "@/fields/0/options/1/id: duplicate option id",
    ],
    [
      "a negative min_selected",
      form([multi({ min_selected: -1 })]),
      "@/fields/0/min_selected: must be an integer of at least 0",
    ],
    [
      "a max_selected of 0",
      form([multi({ max_selected: 0 })]),
      "@/fields/0/max_selected: must be an integer of at least 1",
    ],
    [
      "min above max",
      form([multi({ min_selected: 2, max_selected: 1 })]),
      "@/fields/0: invalid selection limits",
    ],
    [
      "max above the option count",
      form([multi({ max_selected: 4 })]),
      "@/fields/0: invalid selection limits",
    ],
    [
      "min above the option count",
      form([multi({ min_selected: 4 })]),
      "@/fields/0: invalid selection limits",
    ],
    ["a duplicate field id", form([text("t"), text("t")]), "@/fields/1/id: duplicate field id"],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });

  it("checks field keys after id, label, description, required and kind", () => {
    expect(reason(form([{ id: "t", label: "", kind: "text", options: [] }]))).toBe(
      "@/fields/0/label: must not be empty",
    );
    expect(reason(form([{ id: "t", label: "T", kind: "nope", options: [] }]))).toBe(
      "@/fields/0/kind: must be one of text, single_select, multi_select",
    );
  });
});

describe("mermaid", () => {
  const mermaid = (source: unknown) => ({ id: "g", kind: "mermaid", source });

  it("accepts 16,384 bytes and init directives", () => {
    acceptBlock(mermaid("a".repeat(16_384)));
    acceptBlock(mermaid("%%{init: {'theme':'dark'}}%%\nflowchart LR\nA-->B"));
  });

  it.each([
    ["a missing source", { id: "g", kind: "mermaid" }, "@/source: must be a string"],
    ["an empty source", mermaid(""), "@/source: must not be empty"],
    ["8193 two-byte characters", mermaid("é".repeat(8193)), "@/source: must be at most 16384 bytes"],
    ["16,385 bytes", mermaid("a".repeat(16_385)), "@/source: must be at most 16384 bytes"],
    ["a carriage return", mermaid("a\rb"), "@/source: contains a control character"],
    ["a text key", { ...mermaid("a"), text: "" }, "@/text: unknown field"],
  ])("rejects %s", (_name, block, message) => {
    expect(reason(block)).toBe(message);
  });
});

it("reports panel_invalid with the pointer as path", () => {
  expect(documentIssue(withBlock({ id: "g", kind: "mermaid", source: "" }))).toEqual({
    code: "panel_invalid",
    message: "/blocks/0/source: must not be empty",
    path: "/blocks/0/source",
  });
});
