import { isContractError, validateWith } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { prepareForm, validateFormAnswers } from "../src/host-entry.js";
import { FormAnswersSchema, type FormField } from "../src/index.js";

const FIELDS: FormField[] = [
  {
    id: "env",
    label: "Env",
    kind: "single_select",
    required: true,
    options: [
      { id: "staging", label: "Staging" },
      { id: "prod", label: "Production" },
    ],
  },
  {
    id: "tags",
    label: "Tags",
    kind: "multi_select",
    min_selected: 1,
    options: [
      { id: "a", label: "A" },
      { id: "bb", label: "B" },
      { id: "c", label: "C" },
    ],
  },
  { id: "notes", label: "Notes", kind: "text" },
];

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

function thrown(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isContractError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("did not throw");
}

describe("prepareForm", () => {
  it("caps the result at min(1 MiB, floor(budget))", () => {
    expect(prepareForm(FIELDS, 65_536).maxResultBytes).toBe(65_536);
    expect(prepareForm(FIELDS, 10_000_000).maxResultBytes).toBe(1_048_576);
    expect(prepareForm(FIELDS, 100.9).maxResultBytes).toBe(100);
  });

  it("keeps declared limits when the budget is large", () => {
    const form = prepareForm([...FIELDS, { id: "t", label: "T", kind: "text", max_bytes: 10 }], 65_536);
    expect(form.fields.map((f) => [f.id, f.max_bytes, f.max_selected])).toEqual([
      ["env", undefined, undefined],
      ["tags", undefined, 3],
      // available = 65536 − |{"status":"answered","answers":{"env":"prod","notes":""}}| = 65479 → min(65536, 32739)
      ["notes", 32_739, undefined],
      ["t", 10, undefined],
    ]);
    expect(65_536 - bytes('{"status":"answered","answers":{"env":"prod","notes":""}}')).toBe(65_479);
  });

  it.each([
    // budget, tags max_selected, notes max_bytes
    [100, 3, 21],
    [64, 2, 3],
    [60, 1, 1],
    [58, 1, 1],
    [46, 1, 1],
  ])(
    "with a budget of %i bytes lowers max_selected to %i and max_bytes to %i",
    (budget, maxSelected, maxBytes) => {
      const form = prepareForm(FIELDS, budget);
      expect(form.fields[1]?.max_selected).toBe(maxSelected);
      expect(form.fields[2]?.max_bytes).toBe(maxBytes);
    },
  );

  it("lets an optional multi-select reach 0", () => {
    const form = prepareForm(
      [{ id: "m", label: "M", kind: "multi_select", options: [{ id: "long-option-id", label: "L" }] }],
      34,
    );
    expect(form.fields[0]?.max_selected).toBe(0);
    expect(form.fields[0]?.min_selected).toBe(0);
  });

  it.each([45, 0, -5, Number.NaN])("fails with interaction_budget_too_small for a budget of %s", (budget) => {
    expect(thrown(() => prepareForm(FIELDS, budget))).toEqual({
      code: "interaction_budget_too_small",
      message: "interaction_budget_too_small: the minimum answer and result envelope cannot fit",
    });
  });

  it("builds the minimum answer from the shortest JSON-encoded options, first on ties", () => {
    const fields: FormField[] = [
      {
        id: "m",
        label: "M",
        kind: "multi_select",
        required: true,
        min_selected: 2,
        options: [
          { id: "ccc", label: "C" },
          { id: "a\n", label: "A" }, // encodes as "a\n" (4 bytes inside quotes)
          { id: "dd", label: "D" },
          { id: "ee", label: "E" },
        ],
      },
    ];
    // minimum: ["dd","ee"] → {"status":"answered","answers":{"m":["dd","ee"]}}
    const size = bytes('{"status":"answered","answers":{"m":["dd","ee"]}}');
    expect(() => prepareForm(fields, size)).not.toThrow();
    expect(thrown(() => prepareForm(fields, size - 1)).code).toBe("interaction_budget_too_small");
  });
});

describe("validateFormAnswers", () => {
  const form = prepareForm(
    [...FIELDS, { id: "name", label: "Name", kind: "text", required: false, max_bytes: 5 }],
    65_536,
  );
  const required = prepareForm([{ id: "name", label: "Name", kind: "text", required: true }], 65_536);
  const inherited = prepareForm([{ id: "constructor", label: "C", kind: "text", required: true }], 65_536);

  it.each<[string, typeof form, unknown, string]>([
    ["an array", form, [], "interaction_invalid: answers must be an object"],
    ["null", form, null, "interaction_invalid: answers must be an object"],
    ["a string", form, "x", "interaction_invalid: answers must be an object"],
    ["an unknown key", form, { env: "prod", zzz: 1 }, "interaction_invalid: unknown field zzz"],
    ["a missing required field", form, {}, "interaction_invalid: env is required"],
    ["an inherited value", inherited, {}, "interaction_invalid: constructor is required"],
    ["a non-string text", form, { env: "prod", notes: 5 }, "interaction_invalid: notes must be text"],
    ["a whitespace required text", required, { name: " \n\t" }, "interaction_invalid: name is required"],
    ["an empty required text", required, { name: "" }, "interaction_invalid: name is required"],
    [
      "a text over its byte limit",
      form,
      { env: "prod", name: "ééé" },
      "interaction_invalid: name exceeds its effective byte limit",
    ],
    ["an unknown single option", form, { env: "dev" }, "interaction_invalid: env has an unknown option"],
    ["a non-string single option", form, { env: 1 }, "interaction_invalid: env has an unknown option"],
    [
      "a multi-select string",
      form,
      { env: "prod", tags: "a" },
      "interaction_invalid: tags must be an array of option IDs",
    ],
    [
      "a multi-select non-string entry",
      form,
      { env: "prod", tags: ["a", 1] },
      "interaction_invalid: tags must be an array of option IDs",
    ],
    [
      "a repeated option",
      form,
      { env: "prod", tags: ["a", "a"] },
      "interaction_invalid: tags repeats an option",
    ],
    [
      "a repeated unknown option",
      form,
      { env: "prod", tags: ["zz", "zz"] },
      "interaction_invalid: tags repeats an option",
    ],
    [
      "an unknown multi option",
      form,
      { env: "prod", tags: ["zz"] },
      "interaction_invalid: tags has an unknown option",
    ],
    [
      "too few options",
      form,
      { env: "prod", tags: [] },
      "interaction_invalid: tags has an invalid selection count",
    ],
    [
      "the first failing field in declared order",
      form,
      { notes: 1, env: "nope" },
      "interaction_invalid: env has an unknown option",
    ],
  ])("rejects %s", (_name, f, answers, message) => {
    expect(validateFormAnswers(f, answers)).toEqual({
      ok: false,
      issues: [{ code: "interaction_invalid", message }],
    });
  });

  it("checks the effective max_selected", () => {
    const small = prepareForm(FIELDS, 64);
    expect(validateFormAnswers(small, { env: "prod", tags: ["a", "bb", "c"] })).toEqual({
      ok: false,
      issues: [
        { code: "interaction_invalid", message: "interaction_invalid: tags has an invalid selection count" },
      ],
    });
  });

  it("normalizes field order and multi-select option order", () => {
    const result = validateFormAnswers(form, { tags: ["c", "a"], name: "", env: "prod" });
    expect(result).toEqual({
      ok: true,
      answers: { env: "prod", tags: ["a", "c"], name: "" },
      canonicalResult: '{"status":"answered","answers":{"env":"prod","tags":["a","c"],"name":""}}',
    });
  });

  it("produces answers that FormAnswersSchema accepts", () => {
    const result = validateFormAnswers(form, { tags: ["c", "a"], name: "n", env: "prod" });
    expect(result.ok && validateWith(FormAnswersSchema, result.answers)).toEqual([]);
    expect(result.ok && validateWith(FormAnswersSchema, JSON.parse(result.canonicalResult).answers)).toEqual(
      [],
    );
  });

  it("treats __proto__ and constructor as ordinary field ids", () => {
    const f = prepareForm(
      [
        { id: "__proto__", label: "P", kind: "text", required: true },
        { id: "constructor", label: "C", kind: "text" },
      ],
      65_536,
    );
    const answers = JSON.parse('{"__proto__":"x","constructor":"y"}');
    const result = validateFormAnswers(f, answers);
    expect(result.ok && result.canonicalResult).toBe(
      '{"status":"answered","answers":{"__proto__":"x","constructor":"y"}}',
    );
    expect(validateFormAnswers(f, { constructor: "y" })).toMatchObject({
      ok: false,
      issues: [{ message: "interaction_invalid: __proto__ is required" }],
    });
  });

  it("reports interaction_budget_exceeded for a complete answer over the budget", () => {
    const small = prepareForm(FIELDS, 64); // notes: at most 3 bytes
    expect(validateFormAnswers(small, { env: "prod", tags: ["a", "c"], notes: "abc" })).toEqual({
      ok: false,
      issues: [
        {
          code: "interaction_budget_exceeded",
          message: "interaction_budget_exceeded: the complete encoded answer exceeds the result budget",
        },
      ],
    });
    expect(validateFormAnswers(small, { env: "prod", tags: ["a", "c"] }).ok).toBe(true);
  });
});
