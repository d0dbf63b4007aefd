import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EMPTY_PANEL_STATE, nextPanelState, type PanelViewState } from "../src/frames.js";

const doc = (label: string) => ({ blocks: [{ id: "b", kind: "checklist", items: [{ id: "i", label }] }] });

describe("nextPanelState", () => {
  it("applies an update frame with a valid document", () => {
    const out = nextPanelState(EMPTY_PANEL_STATE, {
      type: "update",
      revision: 1,
      document: doc("one"),
      live: true,
    });
    expect(out).toMatchObject({ ok: true, state: { revision: 1, closed: false, removed: false } });
  });

  it("refuses malformed frames with a reason", () => {
    for (const frame of [
      null,
      1,
      "x",
      [],
      {},
      { type: "nope" },
      { type: "update" },
      { type: "update", revision: 0 },
      { type: "update", revision: 1.5 },
    ]) {
      expect(nextPanelState(EMPTY_PANEL_STATE, frame)).toMatchObject({
        ok: false,
        reason: "malformed_frame",
      });
    }
  });

  it("refuses an invalid document with the contract's message", () => {
    const out = nextPanelState(EMPTY_PANEL_STATE, {
      type: "update",
      revision: 1,
      document: { blocks: [{ id: "b", kind: "checklist", items: "x" }] },
    });
    expect(out).toEqual({
      ok: false,
      reason: "invalid_document",
      message: "/blocks/0/items: must be an array",
    });
  });

  it("never goes back in revision order for live frames, whatever order they arrive in", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 40 }), (revisions) => {
        let state: PanelViewState = EMPTY_PANEL_STATE;
        let highest = 0;
        for (const revision of revisions) {
          const out = nextPanelState(state, {
            type: "update",
            revision,
            document: doc(`r${revision}`),
            live: true,
          });
          if (out.ok) state = out.state;
          highest = Math.max(highest, revision);
          expect(state.revision).toBe(highest);
        }
      }),
    );
  });

  it("takes a final frame even at a lower revision (a rollback), and a remove", () => {
    const live = nextPanelState(EMPTY_PANEL_STATE, {
      type: "update",
      revision: 3,
      document: doc("live"),
      live: true,
    });
    if (!live.ok) throw new Error("expected ok");
    const rollback = nextPanelState(live.state, {
      type: "update",
      revision: 2,
      document: doc("committed"),
      live: false,
    });
    expect(rollback).toMatchObject({ ok: true, state: { revision: 2 } });
    const removed = nextPanelState(live.state, { type: "remove", live: false });
    expect(removed).toMatchObject({ ok: true, state: { removed: true, document: undefined } });
  });
});
