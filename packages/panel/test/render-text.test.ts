import { describe, expect, it } from "vitest";
import { renderReceiptLine } from "../src/host-entry.js";
import { derivePanelSummary, renderPanelText } from "../src/index.js";
import { accept } from "./helpers.js";

const render = (document: unknown, declared = "Panel") => renderPanelText(declared, accept(document));
const lines = (...l: string[]) => l.join("\n");

describe("renderPanelText", () => {
  it("renders the spec's example", () => {
    const document = accept({
      title: "Ship",
      blocks: [
        {
          id: "tasks",
          kind: "checklist",
          title: "Tasks",
          items: [
            { id: "t1", label: "Write the failing test", status: "done" },
            {
              id: "t2",
              label: "Fix the API",
              status: "in_progress",
              note: "wait",
              ref: { path: "a.ts", line: 4 },
              children: [{ id: "t5", label: "Validate input", status: "blocked" }],
            },
            { id: "t3", label: "Update docs" },
          ],
        },
        {
          id: "q",
          kind: "form",
          title: "Questions",
          fields: [
            {
              id: "env",
              label: "Which environment?",
              kind: "single_select",
              required: true,
              options: [
                { id: "staging", label: "Staging" },
                { id: "prod", label: "Production" },
              ],
            },
            { id: "notes", label: "Notes", kind: "text", multiline: true },
          ],
        },
        {
          id: "flow",
          kind: "mermaid",
          title: "Flow",
          source: "flowchart LR\nA-->B",
          fallback: "A leads to B",
        },
      ],
    });
    expect(renderPanelText("Declared", document)).toBe(
      lines(
        "Ship (1/3)",
        "## Tasks",
        "[x] Write the failing test",
        "[~] Fix the API — wait (a.ts:4)",
        "  [!] Validate input",
        "[ ] Update docs",
        "## Questions",
        "- Which environment? (single_select, required)",
        "  - Staging [staging]",
        "  - Production [prod]",
        "- Notes (text, optional)",
        "## Flow",
        "A leads to B",
        "```mermaid",
        "flowchart LR",
        "A-->B",
        "```",
      ),
    );
    expect(renderReceiptLine({ title: "Ship", revision: 3, summary: derivePanelSummary(document) })).toBe(
      "  ▸ Ship r3 · 1/3 · Fix the API",
    );
  });

  it("builds the header from the declared title, progress and subtitle", () => {
    expect(render({ blocks: [] }, "Todo")).toBe("Todo");
    expect(render({ title: "", subtitle: "", blocks: [] }, "Todo")).toBe("Todo");
    expect(render({ title: "Build", subtitle: "main", progress: { done: 2, total: 5 }, blocks: [] })).toBe(
      "Build (2/5) — main",
    );
  });

  it("renders a checklist with every glyph, nesting, notes and refs", () => {
    const document = {
      blocks: [
        {
          id: "c",
          kind: "checklist",
          items: [
            { id: "a", label: "Pending" },
            { id: "b", label: "Skipped", status: "skipped", ref: { path: "src/x.ts" } },
            {
              id: "c",
              label: "Failed",
              status: "failed",
              note: "boom",
              children: [
                {
                  id: "d",
                  label: "Done",
                  status: "done",
                  children: [{ id: "e", label: "Deep", status: "pending", children: [] }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(render(document)).toBe(
      lines(
        "Panel (1/3)",
        "[ ] Pending",
        "[-] Skipped (src/x.ts)",
        "[✗] Failed — boom",
        "  [x] Done",
        "    [ ] Deep",
      ),
    );
  });

  it("renders steps with details and durations", () => {
    const step = (id: string, started: number, ended: number, extra = {}) => ({
      id,
      label: id,
      started_at: started,
      ended_at: ended,
      ...extra,
    });
    const document = {
      blocks: [
        {
          id: "s",
          kind: "steps",
          title: "Deploy",
          items: [
            step("build", 1000, 1400, { status: "done", detail: "cached" }),
            step("test", 0, 59_499, { status: "done" }),
            step("pack", 0, 59_500, { status: "in_progress" }),
            step("ship", 0, 3_569_000, { status: "blocked" }),
            step("wait", 0, 3_570_000),
            step("back", 5000, 4000, { status: "failed" }),
            { id: "open", label: "open", started_at: 5 },
          ],
        },
      ],
    };
    expect(render(document)).toBe(
      lines(
        "Panel (2/7)",
        "## Deploy",
        "1. [x] build — cached (0s)",
        "2. [x] test (59s)",
        "3. [~] pack (1m)",
        "4. [!] ship (59m)",
        "5. [ ] wait (1h)",
        "6. [✗] back",
        "7. [ ] open",
      ),
    );
  });

  it("renders progress bars as percentages, or an ellipsis when indeterminate", () => {
    const document = {
      blocks: [
        { id: "a", kind: "progress", label: "Upload", value: 1, max: 3 },
        { id: "b", kind: "progress", value: 2.5, max: 4 },
        { id: "c", kind: "progress", label: "", indeterminate: true },
        { id: "d", kind: "progress", label: "Scan", indeterminate: true },
      ],
    };
    expect(render(document)).toBe(lines("Panel", "Upload 33%", "Progress 63%", "Progress …", "Scan …"));
  });

  it("renders key/value entries with refs", () => {
    const document = {
      blocks: [
        {
          id: "kv",
          kind: "key_value",
          title: "Env",
          entries: [
            { key: "region", value: "eu-west-1" },
            { key: "config", value: "", ref: { path: "deploy.yml", line: 12 } },
          ],
        },
      ],
    };
    expect(render(document)).toBe(lines("Panel", "## Env", "region: eu-west-1", "config:  (deploy.yml:12)"));
  });

  it("renders an aligned table with a status column and missing cells", () => {
    const document: Record<string, unknown> = {
      blocks: [
        {
          id: "t",
          kind: "table",
          columns: [
            { id: "name", label: "Name" },
            { id: "size", label: "Size", align: "end" },
            { id: "constructor", label: "C" },
          ],
          rows: [
            { id: "r1", status: "done", cells: { name: "alpha.ts", size: "12 KB" } },
            { id: "r2", cells: { name: "b", constructor: "x" } },
            { id: "r3", status: "failed", cells: { name: "日本語" } },
          ],
        },
      ],
    };
    expect(render(document)).toBe(
      lines(
        "Panel",
        "     Name      Size   C",
        "[x]  alpha.ts  12 KB",
        "     b                x",
        "[✗]  日本語",
      ),
    );
  });

  it("starts a table without statuses with an empty status cell and shows the first 50 rows", () => {
    const rows = Array.from({ length: 53 }, (_, i) => ({ id: `r${i}`, cells: { n: String(i) } }));
    const text = render({ blocks: [{ id: "t", kind: "table", columns: [{ id: "n", label: "N" }], rows }] });
    const out = text.split("\n");
    expect(out.slice(0, 4)).toEqual(["Panel", "  N", "  0", "  1"]);
    expect(out).toHaveLength(1 + 1 + 50 + 1);
    expect(out.at(-2)).toBe("  49");
    expect(out.at(-1)).toBe("… 3 more rows");
  });

  it("renders markdown as its raw text", () => {
    expect(
      render({ blocks: [{ id: "m", kind: "markdown", title: "Notes", text: "# Head\n\n```diff\n+a\n```" }] }),
    ).toBe(lines("Panel", "## Notes", "# Head", "", "```diff", "+a", "```"));
  });

  it("renders a timeline newest first", () => {
    const document = {
      blocks: [
        {
          id: "l",
          kind: "timeline",
          events: [
            { id: "1", at: 1, level: "info", label: "Started" },
            { id: "2", at: 2, level: "warning", label: "Slow", detail: "3s" },
            { id: "3", at: 3, level: "error", label: "Failed" },
          ],
        },
      ],
    };
    expect(render(document)).toBe(lines("Panel", "[error] Failed", "[warning] Slow — 3s", "[info] Started"));
  });

  it("renders files with a status letter, line and label", () => {
    const document = {
      blocks: [
        {
          id: "f",
          kind: "files",
          entries: [
            { path: "src/a.ts", status: "modified", line: 42, label: "handler" },
            { path: "src/b.ts", status: "added" },
            { path: "old.ts", status: "deleted", label: "gone" },
            { path: "README.md", line: 1 },
            { path: "x", status: "referenced" },
          ],
        },
      ],
    };
    expect(render(document)).toBe(
      lines("Panel", "M src/a.ts:42 handler", "A src/b.ts", "D old.ts gone", "R README.md:1", "R x"),
    );
  });

  it("renders a form's fields, descriptions and options", () => {
    const document = {
      blocks: [
        {
          id: "q",
          kind: "form",
          fields: [
            { id: "name", label: "Name", kind: "text", required: true, description: "Your full name" },
            {
              id: "tags",
              label: "Tags",
              kind: "multi_select",
              options: [
                { id: "a", label: "Alpha" },
                { id: "b", label: "Beta" },
              ],
            },
          ],
        },
      ],
    };
    expect(render(document)).toBe(
      lines(
        "Panel",
        "- Name (text, required)",
        "  Your full name",
        "- Tags (multi_select, optional)",
        "  - Alpha [a]",
        "  - Beta [b]",
      ),
    );
  });

  it("renders a mermaid block as a fenced source block, without an empty fallback", () => {
    expect(render({ blocks: [{ id: "g", kind: "mermaid", source: "graph TD\nA-->B", fallback: "" }] })).toBe(
      lines("Panel", "```mermaid", "graph TD", "A-->B", "```"),
    );
  });

  it("renders unknown kinds by their fallback, even empty, else as unsupported", () => {
    const document = {
      blocks: [
        { id: "a", kind: "chart", title: "Chart", fallback: "A chart of 3 values", data: [1, 2, 3] },
        { id: "b", kind: "image", fallback: "" },
        { id: "c", kind: "log" },
      ],
    };
    expect(render(document)).toBe(
      lines("Panel", "## Chart", "A chart of 3 values", "", 'Unsupported block "log"'),
    );
  });
});

describe("renderReceiptLine", () => {
  it.each([
    [{ title: "Todo", revision: 2, summary: "1/3" }, "  ▸ Todo r2 · 1/3"],
    [{ title: "Todo", revision: 7, summary: "" }, "  ▸ Todo r7"],
    [
      {
        title: "Todo",
        revision: 0,
        summary: "",
        error: { code: "panel_invalid", message: "/x: unknown field" },
      },
      "  ▸ Todo update rejected: panel_invalid",
    ],
  ])("renders %j", (receipt, line) => {
    expect(renderReceiptLine(receipt)).toBe(line);
  });
});
