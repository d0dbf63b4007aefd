import { describe, expect, it } from "vitest";
import { derivePanelProgress, derivePanelSummary, panelTitle } from "../src/index.js";
import { accept } from "./helpers.js";

const checklist = (id: string, items: unknown[], extra = {}) => ({ id, kind: "checklist", items, ...extra });
const steps = (id: string, items: unknown[]) => ({ id, kind: "steps", items });

describe("derivePanelProgress", () => {
  it("counts the leaves of every checklist; done and skipped count as done", () => {
    const document = accept({
      blocks: [
        checklist("a", [
          { id: "1", label: "1", status: "done" },
          {
            id: "2",
            label: "2",
            status: "done",
            children: [
              { id: "3", label: "3", status: "skipped" },
              { id: "4", label: "4" },
            ],
          },
          { id: "5", label: "5", children: [] },
        ]),
        steps("s", [{ id: "x", label: "x", status: "done" }]),
        checklist("b", [{ id: "6", label: "6", status: "failed" }]),
      ],
    });
    expect(derivePanelProgress(document)).toEqual({ done: 2, total: 5 });
  });

  it("lets an empty checklist take over from steps", () => {
    const document = accept({
      blocks: [steps("s", [{ id: "x", label: "x", status: "done" }]), checklist("c", [])],
    });
    expect(derivePanelProgress(document)).toEqual({ done: 0, total: 0 });
  });

  it("counts steps when there is no checklist, and nothing otherwise", () => {
    const document = accept({
      blocks: [
        steps("s", [
          { id: "x", label: "x", status: "done" },
          { id: "y", label: "y", status: "skipped" },
          { id: "z", label: "z", status: "blocked" },
        ]),
      ],
    });
    expect(derivePanelProgress(document)).toEqual({ done: 2, total: 3 });
    expect(
      derivePanelProgress(accept({ blocks: [{ id: "m", kind: "markdown", text: "" }] })),
    ).toBeUndefined();
  });

  it("prefers the explicit progress", () => {
    const document = accept({ progress: { done: 7, total: 9 }, blocks: [checklist("c", [])] });
    expect(derivePanelProgress(document)).toEqual({ done: 7, total: 9 });
  });
});

describe("derivePanelSummary", () => {
  it("uses an explicit summary as is, even empty", () => {
    expect(derivePanelSummary(accept({ summary: "", blocks: [checklist("c", [])] }))).toBe("");
    expect(derivePanelSummary(accept({ summary: "Hi", blocks: [] }))).toBe("Hi");
  });

  it("gives progress and the first in_progress label, parents before children, across checklist and steps", () => {
    const document = accept({
      blocks: [
        steps("s", [{ id: "x", label: "Step", status: "in_progress" }]),
        checklist("c", [
          {
            id: "1",
            label: "Parent",
            status: "in_progress",
            children: [{ id: "2", label: "Child", status: "in_progress" }],
          },
        ]),
      ],
    });
    expect(derivePanelSummary(document)).toBe("0/1 · Step");
    const nested = accept({
      blocks: [
        checklist("c", [
          { id: "1", label: "P", children: [{ id: "2", label: "Child", status: "in_progress" }] },
          { id: "3", label: "Later", status: "in_progress" },
        ]),
      ],
    });
    expect(derivePanelSummary(nested)).toBe("0/2 · Child");
    expect(derivePanelSummary(accept({ progress: { done: 1, total: 2 }, blocks: [] }))).toBe("1/2");
  });

  it("falls back to the first non-empty block title, the document title, then the declared title", () => {
    const md = (id: string, title?: string) => ({
      id,
      kind: "markdown",
      text: "",
      ...(title === undefined ? {} : { title }),
    });
    expect(
      derivePanelSummary(accept({ title: "Doc", blocks: [md("a", ""), md("b", "Second")] }), "Decl"),
    ).toBe("Second");
    expect(derivePanelSummary(accept({ title: "Doc", blocks: [md("a")] }), "Decl")).toBe("Doc");
    expect(derivePanelSummary(accept({ blocks: [md("a")] }), "Decl")).toBe("Decl");
    expect(derivePanelSummary(accept({ title: "", blocks: [] }), "Decl")).toBe("Decl");
    expect(derivePanelSummary(accept({ blocks: [] }))).toBe("");
  });

  it("cuts a derived summary longer than 120 characters to 119 and an ellipsis", () => {
    const label = "é".repeat(115);
    const document = accept({ blocks: [checklist("c", [{ id: "1", label, status: "in_progress" }])] });
    const summary = derivePanelSummary(document);
    expect(Array.from(summary)).toHaveLength(120);
    expect(summary).toBe(`0/1 · ${"é".repeat(113)}…`);
    const exact = accept({
      blocks: [checklist("c", [{ id: "1", label: "😀".repeat(114), status: "in_progress" }])],
    });
    expect(derivePanelSummary(exact)).toBe(`0/1 · ${"😀".repeat(114)}`);
  });

  it("reproduces the spec's example", () => {
    const document = accept({
      title: "Ship",
      blocks: [
        checklist(
          "tasks",
          [
            { id: "t1", label: "Write the failing test", status: "done" },
            {
              id: "t2",
              label: "Fix the API",
              status: "in_progress",
              children: [{ id: "t5", label: "Validate input", status: "blocked" }],
            },
            { id: "t3", label: "Update docs" },
          ],
          { title: "Tasks" },
        ),
      ],
    });
    expect(derivePanelProgress(document)).toEqual({ done: 1, total: 3 });
    expect(derivePanelSummary(document)).toBe("1/3 · Fix the API");
  });
});

it("panelTitle prefers a non-empty document title", () => {
  expect(panelTitle(accept({ title: "Doc", blocks: [] }), "Decl")).toBe("Doc");
  expect(panelTitle(accept({ title: "", blocks: [] }), "Decl")).toBe("Decl");
  expect(panelTitle(undefined, "Decl")).toBe("Decl");
});
