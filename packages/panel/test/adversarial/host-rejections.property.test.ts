/**
 * Issue 8 — property: through a panel host, an update that is rejected changes nothing — not the document, not
 * the revision, not the closed flag, not the caller's update — and an accepted one advances the revision by one and
 * stores a deep-frozen valid document; arbitrary values (`fc.anything()`, prototype-named keys) never make the host
 * throw. (The document-level form of this property, `updatePanelState`/`applyPanelUpdate` never changing the
 * stored document, is `test/apply-update.test.ts`, "never throws, never changes the stored document".)
 */
import { isContractError } from "@raw/schema";
import { expectNoPollution, isDeepFrozen } from "@raw/test-support";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPanelHost } from "../../src/host-entry.js";
import { validatePanelDocument } from "../../src/index.js";

const SEED = 20_261_210;
const OWNER = "local/prop";
const DECLARATIONS = [
  {
    id: "todo",
    title: "Todo",
    icon: "panel",
    open: "never",
    context: "none",
    placement: "sidebar",
    acp_plan: false,
    actions: [],
  },
] as const;

const START = {
  title: "Start",
  blocks: [
    {
      id: "tasks",
      kind: "checklist",
      items: [{ id: "t1", label: "One", children: [{ id: "t2", label: "Two" }] }],
    },
    { id: "log", kind: "timeline", max: 3, events: [{ id: "e1", at: 1, level: "info", label: "x" }] },
    { id: "kv", kind: "key_value", entries: [{ key: "k", value: "v" }] },
  ],
};

const KEYS = ["__proto__", "constructor", "prototype", "op", "document", "patches", "base_revision", "panel"];
const proto = fc
  .array(fc.tuple(fc.constantFrom(...KEYS), fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 })
  .map((entries) =>
    JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`),
  );
const patchLike = fc.record(
  {
    op: fc.constantFrom(
      "set",
      "set_block",
      "remove_block",
      "upsert_items",
      "remove_items",
      "append_events",
      "nope",
    ),
    field: fc.constantFrom("title", "status", "progress", "__proto__"),
    value: fc.anything(),
    block: fc.oneof(fc.constantFrom("tasks", "log", "kv", "missing"), fc.anything()),
    id: fc.constantFrom("tasks", "log", "kv"),
    items: fc.array(
      fc.oneof(proto, fc.record({ id: fc.constantFrom("t1", "t2", "t3"), label: fc.string() })),
      { maxLength: 3 },
    ),
    ids: fc.array(fc.constantFrom("t1", "t2", "e1", "zz"), { maxLength: 3 }),
    events: fc.array(fc.anything(), { maxLength: 3 }),
    parent: fc.constantFrom("t1", "t2", "zz"),
  },
  { requiredKeys: ["op"] },
);
const valid = fc.oneof(
  fc.constant({ op: "close" }),
  fc.string({ maxLength: 90 }).map((title) => ({ op: "replace", document: { ...START, title } })),
  fc
    .string({ maxLength: 90 })
    .map((title) => ({ op: "patch", patches: [{ op: "set", field: "title", value: title }] })),
  fc
    .array(
      fc.record({ id: fc.constantFrom("t1", "t2", "t3", "__proto__"), label: fc.string({ maxLength: 210 }) }),
      {
        minLength: 1,
        maxLength: 3,
      },
    )
    .map((items) => ({
      op: "patch",
      base_revision: 1,
      patches: [{ op: "upsert_items", block: "tasks", items }],
    })),
);
const body = fc.oneof(
  valid,
  fc.anything(),
  proto,
  fc.record(
    {
      op: fc.constantFrom("replace", "patch", "close", "merge"),
      document: fc.oneof(fc.anything(), fc.constant(START)),
      patches: fc.oneof(fc.array(patchLike, { maxLength: 4 }), fc.anything()),
      base_revision: fc.oneof(fc.constantFrom(0, 1, 2), fc.anything()),
    },
    { requiredKeys: ["op"] },
  ),
);

describe("property: a rejected panel update changes nothing", () => {
  it("through createPanelHost, with arbitrary update bodies", async () => {
    let rejected = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(body, async (update) => {
        const host = createPanelHost();
        const call = host.beginCall({ owner: OWNER, declarations: DECLARATIONS });
        await call.context.update("todo", { op: "replace", document: START });
        const before = call.context.get("todo");
        const storedText = JSON.stringify(before?.document);
        let updateText: string | undefined;
        try {
          updateText = JSON.stringify(update);
        } catch {
          updateText = undefined;
        }
        const outcome = await Promise.resolve()
          .then(() => call.context.update("todo", update as Record<string, unknown>))
          .then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          );
        const after = call.context.get("todo");
        if (outcome.ok) {
          accepted++;
          expect(outcome.value).toEqual({ revision: 2 });
          expect(after?.revision).toBe(2);
          expect(isDeepFrozen(after?.document)).toBe(true);
          expect(validatePanelDocument(JSON.parse(JSON.stringify(after?.document))).ok).toBe(true);
        } else {
          rejected++;
          expect(isContractError(outcome.error)).toBe(true);
          expect((outcome.error as { code: string }).code).toMatch(/^panel_/);
          expect(after?.revision).toBe(1);
          expect(after?.document).toBe(before?.document);
          expect(JSON.stringify(after?.document)).toBe(storedText);
          expect(host.list().map((state) => state.closed)).toEqual([false]);
        }
        // The caller's update is never written to.
        let afterText: string | undefined;
        try {
          afterText = JSON.stringify(update);
        } catch {
          afterText = undefined;
        }
        expect(afterText).toBe(updateText);
        expect(isDeepFrozen(before?.document)).toBe(true);
        expectNoPollution("host property");
      }),
      { seed: SEED, numRuns: 1000 },
    );
    // Both sides of the property were exercised.
    expect(rejected).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(20);
  });
});
