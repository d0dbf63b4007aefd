/**
 * Issue 8 — panel documents and updates at and past every limit (`panels.md` §3–§8): each limit is tried exactly
 * at its value (accepted) and one past it (rejected with `panel_invalid` or `panel_too_large`), through
 * `validatePanelDocument`, a `replace` and a `patch` through `createPanelHost`; multi-byte and astral characters sit
 * at the edge of byte and character limits; checklists are nested far past their depth; one call sends 200 updates
 * plus one, streaming and as result blocks; and every hostile value is answered with a coded rejection.
 */
import { isContractError } from "@raw/schema";
import { DEEP_LEVELS, expectNoPollution, hostileArguments, isDeepFrozen } from "@raw/test-support";
import { describe, expect, it } from "vitest";
import { createPanelHost, MAX_PANEL_UPDATES_PER_CALL } from "../../src/host-entry.js";
import {
  applyPanelUpdate,
  type PanelDocument,
  validatePanelDocument,
  validatePanelUpdate,
} from "../../src/index.js";

const OWNER = "local/limits";
const DECLARATIONS = [
  {
    id: "board",
    title: "Board",
    icon: "panel",
    open: "never",
    context: "none",
    placement: "sidebar",
    acp_plan: false,
    actions: [],
  },
] as const;

const block = (kind: string, fields: Record<string, unknown>, id = "b") => ({ id, kind, ...fields });
const doc = (...blocks: unknown[]) => ({ blocks });
const items = (n: number, make: (i: number) => Record<string, unknown>) =>
  Array.from({ length: n }, (_, i) => make(i));
const column = (i: number) => ({ id: `c${i}`, label: `C${i}` });
const field = (i: number) => ({ id: `f${i}`, label: "Field", kind: "text" });
const option = (i: number) => ({ id: `o${i}`, label: "Option" });

/** A checklist nested `depth` levels (level 1 at the top). */
function nestedChecklist(depth: number): unknown[] {
  let children: unknown[] = [];
  for (let level = depth; level >= 1; level--) children = [{ id: `i${level}`, label: "Item", children }];
  return children;
}

/** [limit, document at the limit, document one past it] */
const LIMITS: Array<[string, () => unknown, () => unknown]> = [
  [
    "20 blocks",
    () => doc(...items(20, (i) => block("markdown", { text: "" }, `b${i}`))),
    () => doc(...items(21, (i) => block("markdown", { text: "" }, `b${i}`))),
  ],
  [
    "title 80 characters (astral)",
    () => ({ title: "😀".repeat(80), blocks: [] }),
    () => ({ title: "😀".repeat(81), blocks: [] }),
  ],
  [
    "title 80 characters (lone surrogates)",
    () => ({ title: "\ud800".repeat(80), blocks: [] }),
    () => ({ title: "\ud800".repeat(81), blocks: [] }),
  ],
  [
    "subtitle 120 characters",
    () => ({ subtitle: "é".repeat(120), blocks: [] }),
    () => ({ subtitle: "é".repeat(121), blocks: [] }),
  ],
  [
    "summary 120 characters",
    () => ({ summary: "a".repeat(120), blocks: [] }),
    () => ({ summary: "a".repeat(121), blocks: [] }),
  ],
  [
    "context_summary 2048 bytes (2-byte)",
    () => ({ context_summary: "é".repeat(1024), blocks: [] }),
    () => ({ context_summary: `${"é".repeat(1023)}aaa`, blocks: [] }),
  ],
  [
    "context_summary 2048 bytes (4-byte)",
    () => ({ context_summary: "😀".repeat(512), blocks: [] }),
    () => ({ context_summary: `${"😀".repeat(511)}aaaaa`, blocks: [] }),
  ],
  [
    "block id 32 characters",
    () => doc(block("markdown", { text: "" }, "x".repeat(32))),
    () => doc(block("markdown", { text: "" }, "x".repeat(33))),
  ],
  [
    "block title 80 characters",
    () => doc(block("markdown", { text: "", title: "t".repeat(80) })),
    () => doc(block("markdown", { text: "", title: "t".repeat(81) })),
  ],
  [
    "fallback 4096 bytes",
    () => doc(block("future", { fallback: "€".repeat(1365) + "a" })),
    () => doc(block("future", { fallback: "€".repeat(1365) + "aa" })),
  ],
  [
    "markdown 16,384 bytes",
    () => doc(block("markdown", { text: "é".repeat(8192) })),
    () => doc(block("markdown", { text: `${"é".repeat(8192)}a` })),
  ],
  [
    "mermaid 16,384 bytes",
    () => doc(block("mermaid", { source: "€".repeat(5461) + "a" })),
    () => doc(block("mermaid", { source: "€".repeat(5461) + "aa" })),
  ],
  [
    "checklist 200 items in one array",
    () => doc(block("checklist", { items: items(200, (i) => ({ id: `i${i}`, label: "x" })) })),
    () => doc(block("checklist", { items: items(201, (i) => ({ id: `i${i}`, label: "x" })) })),
  ],
  [
    "checklist 200 items including children",
    () =>
      doc(
        block("checklist", {
          items: items(100, (i) => ({ id: `p${i}`, label: "x", children: [{ id: `c${i}`, label: "y" }] })),
        }),
      ),
    () =>
      doc(
        block("checklist", {
          items: [
            ...items(100, (i) => ({ id: `p${i}`, label: "x", children: [{ id: `c${i}`, label: "y" }] })),
            { id: "extra", label: "z" },
          ],
        }),
      ),
  ],
  [
    "checklist depth 3",
    () => doc(block("checklist", { items: nestedChecklist(3) })),
    () => doc(block("checklist", { items: nestedChecklist(4) })),
  ],
  [
    "checklist label 200 characters",
    () => doc(block("checklist", { items: [{ id: "i", label: "😀".repeat(200) }] })),
    () => doc(block("checklist", { items: [{ id: "i", label: "😀".repeat(201) }] })),
  ],
  [
    "item id 64 characters",
    () => doc(block("checklist", { items: [{ id: "i".repeat(64), label: "x" }] })),
    () => doc(block("checklist", { items: [{ id: "i".repeat(65), label: "x" }] })),
  ],
  [
    "steps 30 items",
    () => doc(block("steps", { items: items(30, (i) => ({ id: `s${i}`, label: "x" })) })),
    () => doc(block("steps", { items: items(31, (i) => ({ id: `s${i}`, label: "x" })) })),
  ],
  [
    "key_value 50 entries",
    () => doc(block("key_value", { entries: items(50, (i) => ({ key: `k${i}`, value: "" })) })),
    () => doc(block("key_value", { entries: items(51, (i) => ({ key: `k${i}`, value: "" })) })),
  ],
  [
    "key_value value 500 characters",
    () => doc(block("key_value", { entries: [{ key: "k", value: "v".repeat(500) }] })),
    () => doc(block("key_value", { entries: [{ key: "k", value: "v".repeat(501) }] })),
  ],
  [
    "table 8 columns",
    () => doc(block("table", { columns: items(8, column), rows: [] })),
    () => doc(block("table", { columns: items(9, column), rows: [] })),
  ],
  [
    "table 200 rows",
    () =>
      doc(block("table", { columns: [column(0)], rows: items(200, (i) => ({ id: `r${i}`, cells: {} })) })),
    () =>
      doc(block("table", { columns: [column(0)], rows: items(201, (i) => ({ id: `r${i}`, cells: {} })) })),
  ],
  [
    "table cell 300 characters",
    () => doc(block("table", { columns: [column(0)], rows: [{ id: "r", cells: { c0: "c".repeat(300) } }] })),
    () => doc(block("table", { columns: [column(0)], rows: [{ id: "r", cells: { c0: "c".repeat(301) } }] })),
  ],
  [
    "files 200 entries",
    () => doc(block("files", { entries: items(200, (i) => ({ path: `p${i}` })) })),
    () => doc(block("files", { entries: items(201, (i) => ({ path: `p${i}` })) })),
  ],
  [
    "files path 500 characters",
    () => doc(block("files", { entries: [{ path: "p".repeat(500) }] })),
    () => doc(block("files", { entries: [{ path: "p".repeat(501) }] })),
  ],
  [
    "timeline 200 events",
    () =>
      doc(
        block("timeline", {
          max: 200,
          events: items(200, (i) => ({ id: `e${i}`, at: i, level: "info", label: "x" })),
        }),
      ),
    () =>
      doc(
        block("timeline", {
          max: 200,
          events: items(201, (i) => ({ id: `e${i}`, at: i, level: "info", label: "x" })),
        }),
      ),
  ],
  [
    "timeline max 200",
    () => doc(block("timeline", { max: 200, events: [] })),
    () => doc(block("timeline", { max: 201, events: [] })),
  ],
  [
    "timeline default max 100",
    () =>
      doc(
        block("timeline", { events: items(100, (i) => ({ id: `e${i}`, at: i, level: "info", label: "x" })) }),
      ),
    () =>
      doc(
        block("timeline", { events: items(101, (i) => ({ id: `e${i}`, at: i, level: "info", label: "x" })) }),
      ),
  ],
  [
    "form 8 fields",
    () => doc(block("form", { fields: items(8, field) })),
    () => doc(block("form", { fields: items(9, field) })),
  ],
  [
    "form 32 options",
    () =>
      doc(
        block("form", {
          fields: [{ id: "f", label: "F", kind: "single_select", options: items(32, option) }],
        }),
      ),
    () =>
      doc(
        block("form", {
          fields: [{ id: "f", label: "F", kind: "single_select", options: items(33, option) }],
        }),
      ),
  ],
  [
    "form max_bytes 65,536",
    () => doc(block("form", { fields: [{ ...field(0), max_bytes: 65_536 }] })),
    () => doc(block("form", { fields: [{ ...field(0), max_bytes: 65_537 }] })),
  ],
  [
    "progress value ≤ max",
    () => doc(block("progress", { value: 1e308, max: 1e308 })),
    () => doc(block("progress", { value: Number.MAX_VALUE, max: 1e307 })),
  ],
  [
    "progress done ≤ total",
    () => ({ progress: { done: Number.MAX_SAFE_INTEGER, total: Number.MAX_SAFE_INTEGER }, blocks: [] }),
    () => ({
      progress: { done: Number.MAX_SAFE_INTEGER + 1, total: Number.MAX_SAFE_INTEGER + 1 },
      blocks: [],
    }),
  ],
];

/** A document of exactly `bytes` serialized bytes: markdown blocks of `unit`, ASCII padding in the title. */
function documentOfBytes(bytes: number, unit: string): unknown {
  const document = { title: "", blocks: [] as Array<{ id: string; kind: string; text: string }> };
  const size = () => Buffer.byteLength(JSON.stringify(document));
  const unitBytes = Buffer.byteLength(unit);
  for (let i = 0; size() < bytes - 60; i++) {
    const next = { id: `m${i}`, kind: "markdown", text: "" };
    document.blocks.push(next);
    const room = Math.min(16_384, bytes - 60 - size());
    next.text = unit.repeat(Math.max(0, Math.floor(room / unitBytes)));
  }
  document.title = "a".repeat(bytes - size());
  expect(size()).toBe(bytes);
  return document;
}

let tried = 0;

function expectRejected(result: ReturnType<typeof validatePanelDocument>, label: string): string {
  expect(result.ok, label).toBe(false);
  if (result.ok) return "";
  expect(result.issues, label).toHaveLength(1);
  const code = result.issues[0]?.code as string;
  expect(["panel_invalid", "panel_too_large"], label).toContain(code);
  return code;
}

describe("adversarial panels: every limit, at and one past", () => {
  it.each(LIMITS)("%s", async (label, atLimit, pastLimit) => {
    const at = validatePanelDocument(atLimit());
    expect(at.ok, `${label} at the limit`).toBe(true);
    if (at.ok) expect(isDeepFrozen(at.document)).toBe(true);
    expectRejected(validatePanelDocument(pastLimit()), `${label} past the limit`);

    // The same documents as updates through a panel host: replace, then a patch that crosses the limit.
    const host = createPanelHost();
    const call = host.beginCall({ owner: OWNER, declarations: DECLARATIONS });
    await expect(call.context.update("board", { op: "replace", document: atLimit() })).resolves.toEqual({
      revision: 1,
    });
    const before = JSON.stringify(call.context.get("board")?.document);
    let thrown: unknown;
    try {
      await call.context.update("board", { op: "replace", document: pastLimit() });
    } catch (error) {
      thrown = error;
    }
    expect(isContractError(thrown), label).toBe(true);
    expect(["panel_invalid", "panel_too_large"]).toContain((thrown as { code: string }).code);
    expect(JSON.stringify(call.context.get("board")?.document)).toBe(before);
    expect(call.context.get("board")?.revision).toBe(1);
    // The past-limit document as a patch that replaces every block of the accepted one.
    const past = pastLimit() as { blocks?: unknown[] } & Record<string, unknown>;
    const patches: unknown[] = [];
    for (const b of (JSON.parse(before) as { blocks: Array<{ id: string }> }).blocks)
      patches.push({ op: "remove_block", id: b.id });
    for (const b of past.blocks ?? []) patches.push({ op: "set_block", block: b });
    for (const key of ["title", "subtitle", "summary", "context_summary", "progress"]) {
      if (key in past) patches.push({ op: "set", field: key, value: past[key] });
    }
    const patched = applyPanelUpdate(JSON.parse(before) as PanelDocument, {
      panel: "board",
      op: "patch",
      patches,
    });
    expect(patched.ok, `${label} as a patch`).toBe(false);
    tried += 3;
    expectNoPollution(label);
  });

  it.each(["a", "é", "€", "😀"])(
    "exactly 65,536 serialized bytes of %j are accepted, 65,537 are not",
    (unit) => {
      const at = documentOfBytes(65_536, unit);
      expect(validatePanelDocument(at).ok).toBe(true);
      const over = documentOfBytes(65_537, unit);
      const result = validatePanelDocument(over);
      expect(result).toEqual({
        ok: false,
        issues: [{ code: "panel_too_large", message: "document is 65537 bytes; the limit is 65536" }],
      });
      tried += 2;
    },
  );
});

describe("adversarial panels: deeply nested checklists", () => {
  it.each([4, 10, 100, DEEP_LEVELS])(
    "a checklist nested %i levels is panel_invalid at the fourth level",
    (depth) => {
      const result = validatePanelDocument(doc(block("checklist", { items: nestedChecklist(depth) })));
      expect(result).toEqual({
        ok: false,
        issues: [
          {
            code: "panel_invalid",
            message: "/blocks/0/items/0/children/0/children/0/children: nesting is at most 3 levels",
            path: "/blocks/0/items/0/children/0/children/0/children",
          },
        ],
      });
      tried++;
    },
  );

  it("a 10,000-level JSON document (parsed, not built) is refused, never a stack overflow", () => {
    const text = `{"blocks":[{"id":"b","kind":"future","data":${"[".repeat(DEEP_LEVELS)}${"]".repeat(DEEP_LEVELS)}}]}`;
    const result = validatePanelDocument(JSON.parse(text));
    expect(result.ok).toBe(false);
    const nestedItems = `{"blocks":[{"id":"b","kind":"checklist","items":${'[{"id":"i","label":"x","children":'.repeat(DEEP_LEVELS)}[]${"}]".repeat(DEEP_LEVELS)}}]}`;
    expect(validatePanelDocument(JSON.parse(nestedItems)).ok).toBe(false);
    tried += 2;
  });

  it("upserts cannot grow a checklist past 200 items or 3 levels", () => {
    const start = validatePanelDocument(doc(block("checklist", { items: nestedChecklist(3) })));
    if (!start.ok) throw new Error("start");
    const deeper = applyPanelUpdate(start.document, {
      panel: "board",
      op: "patch",
      patches: [{ op: "upsert_items", block: "b", parent: "i3", items: [{ id: "i4", label: "too deep" }] }],
    });
    expect(deeper).toMatchObject({ ok: false, issues: [{ code: "panel_invalid" }] });
    const many = applyPanelUpdate(start.document, {
      panel: "board",
      op: "patch",
      patches: [{ op: "upsert_items", block: "b", items: items(198, (i) => ({ id: `n${i}`, label: "x" })) }],
    });
    expect(many).toMatchObject({ ok: false, issues: [{ code: "panel_invalid" }] });
    const patchTooMany = validatePanelUpdate({
      panel: "board",
      op: "patch",
      patches: [{ op: "upsert_items", block: "b", items: items(201, (i) => ({ id: `n${i}`, label: "x" })) }],
    });
    expect(patchTooMany.ok).toBe(false);
    tried += 3;
  });
});

describe("adversarial panels: 200 updates plus one in one call", () => {
  it("streaming: the 201st accepted-would-be update is panel_rate_limited; state and revision stay", async () => {
    const host = createPanelHost();
    const call = host.beginCall({ owner: OWNER, declarations: DECLARATIONS });
    for (let i = 0; i < MAX_PANEL_UPDATES_PER_CALL; i++) {
      await call.context.update(i % 2 ? "board" : `${OWNER}#board`, {
        op: "replace",
        document: { title: `${i}`, blocks: [] },
      });
    }
    let thrown: unknown;
    try {
      await call.context.update("board", { op: "replace", document: { title: "201", blocks: [] } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: "panel_rate_limited",
      message: `more than 200 updates to "${OWNER}#board" in one tool call`,
    });
    expect(call.context.get("board")).toMatchObject({ revision: 200, document: { title: "199" } });
    const settled = call.settle({ hasOtherContent: false });
    expect(settled.modelLines).toEqual(["panel board updated (revision 200): 199"]);
    tried += 201;
  });

  it("result blocks: 201 blocks give 200 accepted updates and one rejection line", () => {
    const host = createPanelHost();
    const call = host.beginCall({ owner: OWNER, declarations: DECLARATIONS });
    const blocks = Array.from({ length: MAX_PANEL_UPDATES_PER_CALL + 1 }, (_, i) => ({
      type: "panel",
      panel: "board",
      op: "replace",
      document: { title: `${i}`, blocks: [] },
    }));
    call.applyResultBlocks(blocks);
    const { modelLines } = call.settle({ hasOtherContent: true });
    expect(modelLines).toEqual([
      `panel board update rejected: panel_rate_limited more than 200 updates to "${OWNER}#board" in one tool call`,
    ]);
    expect(host.get(`${OWNER}#board`)).toMatchObject({ revision: 200, document: { title: "199" } });
    tried += 201;
  });

  it("thousands of hostile result blocks in one call: at most 5 rejection lines, nothing thrown", () => {
    const host = createPanelHost();
    const call = host.beginCall({ owner: OWNER, declarations: DECLARATIONS });
    // The small hostile values (the huge ones are tried once each above): 2,000 blocks in one call.
    const hostile = hostileArguments().filter((c) => !/huge|many|deep/.test(c.name));
    const blocks: unknown[] = [];
    for (let i = 0; i < 2000; i++) {
      const value = (hostile[i % hostile.length] as { make(): unknown }).make();
      blocks.push(
        i % 3 === 0
          ? value
          : { type: "panel", panel: i % 2 ? "board" : value, op: "replace", document: value },
      );
    }
    expect(() => call.applyResultBlocks(blocks)).not.toThrow();
    const { modelLines, receipts } = call.settle({ hasOtherContent: true });
    expect(modelLines.length).toBeLessThanOrEqual(5);
    expect(receipts.length).toBeLessThanOrEqual(10);
    expectNoPollution("result blocks");
    tried += 2000;
  });
});

describe("adversarial panels: hostile values everywhere", () => {
  it.each(hostileArguments().map((c) => [c.name, c] as const))("%s", async (_name, hostile) => {
    const value = () => hostile.make();
    expectRejected(validatePanelDocument(value()), `document ${hostile.name}`);
    const update = validatePanelUpdate(value());
    expect(update.ok).toBe(false);
    const raw = value();
    for (const body of [
      { op: "replace", document: value() },
      { op: "patch", patches: [{ op: "set_block", block: value() }] },
      { op: "patch", patches: [{ op: "upsert_items", block: "b", items: [value()] }] },
      { op: "patch", patches: value() },
      raw,
    ]) {
      const update = body === raw ? body : { panel: "board", ...(body as object) };
      let applied: ReturnType<typeof applyPanelUpdate> | undefined;
      expect(() => {
        applied = applyPanelUpdate({ blocks: [] } as unknown as PanelDocument, update);
      }).not.toThrow();
      if (applied && !applied.ok)
        expect(["panel_invalid", "panel_too_large", "panel_unknown"]).toContain(applied.issues[0]?.code);
      const host = createPanelHost();
      const call = host.beginCall({ owner: OWNER, declarations: DECLARATIONS });
      const outcome = await call.context.update("board", body).then(
        () => "accepted",
        (error: unknown) => (isContractError(error) ? error.code : `uncoded ${String(error)}`),
      );
      expect(outcome.startsWith("uncoded"), outcome).toBe(false);
      expect(() => call.context.get(value() as string)).not.toThrow();
      tried += 3;
    }
    expectNoPollution(hostile.name);
  });

  it("tried more than 3,000 panel inputs", () => {
    expect(tried).toBeGreaterThan(3000);
  });
});
