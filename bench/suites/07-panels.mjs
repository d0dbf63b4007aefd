// Panel patch-apply-and-revalidate and a call of 200 updates against a JSON copy of the same document (issue 7 §7).
import { applyPanelUpdate, validatePanelDocument } from "@raw/panel";
import { createPanelHost } from "@raw/panel/host";
import { compare, info, row } from "../lib/harness.mjs";

const SUITE = "panels";

/** A valid document of about 60 KiB: a checklist of 150 items, a table, a markdown block and a timeline. */
function bigDocument() {
  const items = [];
  for (let i = 0; i < 150; i++) {
    items.push({
      id: `t${i}`,
      label: `Task ${i}: ${"refactor the module and update its tests ".repeat(3)}`,
      status: i % 3 ? "pending" : "done",
    });
  }
  const rows = [];
  for (let i = 0; i < 100; i++)
    rows.push({
      id: `r${i}`,
      cells: {
        file: `src/module${i}/index.ts`,
        lines: String(i * 7),
        note: "reviewed, no findings; follow-up next sprint",
      },
    });
  const events = [];
  for (let i = 0; i < 60; i++)
    events.push({ id: `e${i}`, at: 1_700_000_000_000 + i, level: "info", label: `step ${i} finished` });
  return {
    title: "Refactor",
    blocks: [
      { id: "tasks", kind: "checklist", title: "Tasks", items },
      {
        id: "files",
        kind: "table",
        columns: [
          { id: "file", label: "File" },
          { id: "lines", label: "Lines", align: "end" },
          { id: "note", label: "Note" },
        ],
        rows,
      },
      {
        id: "notes",
        kind: "markdown",
        text: "## Notes\n\n" + "- a line of notes about the change\n".repeat(460),
      },
      { id: "log", kind: "timeline", max: 100, events },
    ],
  };
}

export async function run() {
  const checked = validatePanelDocument(bigDocument());
  if (!checked.ok) throw new Error(`bench document invalid: ${checked.issues[0].message}`);
  const doc = checked.document;
  const bytes = Buffer.byteLength(JSON.stringify(doc));
  const patch = {
    panel: "work",
    op: "patch",
    patches: [
      {
        op: "upsert_items",
        block: "tasks",
        items: [{ id: "t75", label: "Task 75: done now", status: "done" }],
      },
    ],
  };
  const first = applyPanelUpdate(doc, patch);
  if (!first.ok) throw new Error(`bench patch invalid: ${first.issues[0].message}`);
  const t = compare(
    { apply: () => applyPanelUpdate(doc, patch), clone: () => JSON.parse(JSON.stringify(doc)) },
    { rounds: 7, ms: 100 },
  );

  // 200 updates in one call through the host: replace once, then 199 patches, then settle.
  const declarations = [
    {
      id: "work",
      title: "Work",
      placement: "sidebar",
      open: "never",
      context: "none",
      acp_plan: false,
      actions: [],
    },
  ];
  const host = createPanelHost();
  let n = 0;
  const oneCall = () => {
    const call = host.beginCall({ owner: "bench", declarations, toolCallId: `c${n++}`, source: "model" });
    const blocks = [{ type: "panel", panel: "work", op: "replace", document: doc }];
    for (let i = 1; i < 200; i++) {
      blocks.push({
        type: "panel",
        panel: "work",
        op: "patch",
        patches: [
          {
            op: "upsert_items",
            block: "tasks",
            items: [{ id: `t${i % 150}`, label: `Task ${i}`, status: "in_progress" }],
          },
        ],
      });
    }
    call.applyResultBlocks(blocks);
    const settled = call.settle({ hasOtherContent: true });
    if (settled.receipts.some((r) => r.error))
      throw new Error(
        `bench call rejected an update: ${JSON.stringify(settled.receipts.find((r) => r.error))}`,
      );
  };
  oneCall();
  const c = compare(
    {
      call: oneCall,
      clones: () => {
        for (let i = 0; i < 200; i++) JSON.parse(JSON.stringify(doc));
      },
    },
    { rounds: 5, ms: 300 },
  );
  return [
    row(
      SUITE,
      "patch apply + revalidate / JSON copy (~60 KiB)",
      t.apply / t.clone,
      { max: 5 },
      `${bytes.toLocaleString("en")} bytes; apply ${(t.apply / 1000).toFixed(0)} us, copy ${(t.clone / 1000).toFixed(0)} us`,
    ),
    row(
      SUITE,
      "200 updates in one call / 200 JSON copies",
      c.call / c.clones,
      { max: 5 },
      `call ${(c.call / 1e6).toFixed(1)} ms, copies ${(c.clones / 1e6).toFixed(1)} ms`,
    ),
    info(SUITE, "document size", `${bytes} bytes`),
  ];
}
