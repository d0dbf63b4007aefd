import {
  bindInteractionContext,
  createInteractionService,
  type InteractionAdapter,
  type InteractionServiceOptions,
} from "@raw/panel/host";
import type { ToolHandlerContext } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import { handler, validateArgs } from "../src/ask-user/index.js";
import { ASK_USER_INPUT_SCHEMA, ASK_USER_MANIFEST } from "../src/ask-user/manifest.js";
import { schemaChecked, schemaRejects } from "./helpers.js";
import { panelSession } from "./panel-context.js";

const questions = {
  title: "Deploy",
  questions: [
    {
      id: "env",
      label: "Which environment?",
      kind: "single_select",
      options: [
        { id: "staging", label: "Staging" },
        { id: "prod", label: "Production" },
      ],
      free_text: { id: "why", label: "Why?" },
    },
    {
      id: "checks",
      label: "Checks to run",
      kind: "multi_select",
      required: false,
      options: [
        { id: "unit", label: "Unit" },
        { id: "e2e", label: "End to end" },
      ],
    },
  ],
} as const;

function askContext(
  options: InteractionServiceOptions,
  extra: { maxOutputBytes?: number; signal?: AbortSignal } = {},
): { context: ToolHandlerContext; settle: () => void } {
  const session = panelSession("builtin/ask_user", ASK_USER_MANIFEST);
  const { call, context } = session.begin("/work");
  const service = createInteractionService(options);
  const maxOutputBytes = extra.maxOutputBytes ?? 65_536;
  const interactions = bindInteractionContext(service, call, {
    maxOutputBytes,
    ...(extra.signal ? { signal: extra.signal } : {}),
  });
  return {
    context: { ...context, maxOutputBytes, interactions, ...(extra.signal ? { signal: extra.signal } : {}) },
    settle: () => call.closeContext(),
  };
}

const submit =
  (answers: Record<string, unknown>): InteractionAdapter =>
  (request) => ({
    requestId: request.identity.requestId,
    expectedRevision: 1,
    idempotencyKey: crypto.randomUUID(),
    response: "submit",
    answers,
  });

describe("ask_user: answers", () => {
  it("publishes one form in the chat panel and returns the canonical answer as one json block", async () => {
    const seen: unknown[] = [];
    const adapter: InteractionAdapter = (request, signal, retry) => {
      seen.push({
        document: request.document,
        panel: request.identity.panelId,
        view: request.identity.viewInstanceId,
      });
      return submit({ checks: ["e2e", "unit"], env: "prod", why: "hotfix" })(request, signal, retry);
    };
    const { context } = askContext({ adapter });
    const result = await handler(questions, context);
    expect(result).toEqual({
      isError: false,
      content: [
        {
          type: "json",
          value: { status: "answered", answers: { env: "prod", why: "hotfix", checks: ["unit", "e2e"] } },
        },
      ],
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      panel: "questions",
      view: expect.any(String),
      document: {
        title: "Deploy",
        blocks: [
          {
            id: "form",
            kind: "form",
            fields: [
              { id: "env", kind: "single_select", required: true },
              { id: "why", label: "Why?", kind: "text", required: false },
              { id: "checks", kind: "multi_select", required: false },
            ],
          },
        ],
      },
    });
  });

  it("an invalid answer keeps the request pending; the next valid one answers it", async () => {
    const retries: unknown[] = [];
    const adapter: InteractionAdapter = (request, signal, retry) => {
      retries.push(retry?.error.code);
      return submit(retry ? { env: "staging" } : { env: "moon" })(request, signal, retry);
    };
    const { context } = askContext({ adapter });
    const result = await handler(questions, context);
    expect(result).toMatchObject({
      isError: false,
      content: [{ value: { status: "answered", answers: { env: "staging" } } }],
    });
    expect(retries).toEqual([undefined, "interaction_invalid"]);
  });
});

describe("ask_user: terminal non-answers and errors", () => {
  it("without context.interactions: interaction_unavailable at once", async () => {
    const result = await handler(questions, { cwd: "/work", maxOutputBytes: 65_536 });
    expect(result).toEqual({
      isError: true,
      code: "interaction_unavailable",
      content: [{ type: "text", text: "interaction_unavailable: this host has no response adapter" }],
    });
  });

  it("a host with neither adapter nor interactive surface: interaction_unavailable", async () => {
    const { context } = askContext({});
    const result = await handler(questions, context);
    expect(result).toMatchObject({ isError: true, code: "interaction_unavailable" });
  });

  it("cancel → interaction_cancelled with the canonical result", async () => {
    const { context } = askContext({
      adapter: (request) => ({
        requestId: request.identity.requestId,
        expectedRevision: 1,
        idempotencyKey: "k1",
        response: "cancel",
      }),
    });
    const result = await handler(questions, context);
    expect(result).toEqual({
      isError: true,
      code: "interaction_cancelled",
      content: [{ type: "json", value: { status: "cancelled" } }],
    });
  });

  it("no answer before timeout_ms → interaction_expired", async () => {
    const { context } = askContext({ interactive: true });
    const result = await handler({ ...questions, timeout_ms: 30 }, context);
    expect(result).toEqual({
      isError: true,
      code: "interaction_expired",
      content: [{ type: "json", value: { status: "expired" } }],
    });
  });

  it("the call's abort signal cancels the request", async () => {
    const controller = new AbortController();
    const { context } = askContext({ interactive: true }, { signal: controller.signal });
    const pending = handler(questions, context);
    setTimeout(() => controller.abort(), 10);
    expect(await pending).toMatchObject({ isError: true, code: "interaction_cancelled" });
  });

  it("a closed service interrupts the request → interaction_interrupted", async () => {
    const session = panelSession("builtin/ask_user", ASK_USER_MANIFEST);
    const { call, context } = session.begin("/work");
    const service = createInteractionService({ interactive: true });
    const interactions = bindInteractionContext(service, call, { maxOutputBytes: 65_536 });
    const pending = handler(questions, { ...context, interactions });
    setTimeout(() => service.close(), 10);
    expect(await pending).toEqual({
      isError: true,
      code: "interaction_interrupted",
      content: [{ type: "json", value: { status: "interrupted" } }],
    });
  });

  it("thrown errors keep an interaction_ code, others become interaction_error", async () => {
    const small = askContext({ interactive: true }, { maxOutputBytes: 20 });
    expect(await handler(questions, small.context)).toMatchObject({
      isError: true,
      code: "interaction_budget_too_small",
      content: [
        {
          type: "text",
          text: "interaction_budget_too_small: the minimum answer and result envelope cannot fit",
        },
      ],
    });
    const settled = askContext({ interactive: true });
    settled.settle();
    expect(await handler(questions, settled.context)).toMatchObject({
      isError: true,
      code: "interaction_error",
      content: [{ type: "text", text: "interaction requested after the handler settled" }],
    });
  });
});

describe("ask_user: arguments", () => {
  const choice = { id: "c", label: "Pick", kind: "single_select", options: [{ id: "a", label: "A" }] };
  // What the input schema guarantees; dispatch checks it first, so validateArgs no longer repeats it.
  it.each([
    ["x", ""],
    [{ questions: [choice], color: 1 }, ""],
    [{ questions: [] }, "/questions"],
    [{ questions: [choice, choice, choice, choice] }, "/questions"],
    [{ questions: [choice], title: "" }, "/title"],
    [{ questions: [choice], title: "t".repeat(81) }, "/title"],
    [{ questions: [choice], timeout_ms: 0 }, "/timeout_ms"],
    [{ questions: [choice], timeout_ms: 86_400_001 }, "/timeout_ms"],
    [{ questions: [{ id: "q", label: "", kind: "text" }] }, "/questions/0/label"],
    [{ questions: [{ ...choice, options: [] }] }, "/questions/0/options"],
    [
      { questions: [{ ...choice, free_text: { id: "f", label: "F", kind: "text" } }] },
      "/questions/0/free_text",
    ],
    [
      { questions: [{ ...choice, free_text: { id: "f", label: "F", max_bytes: 70_000 } }] },
      "/questions/0/free_text/max_bytes",
    ],
  ])("the input schema rejects %j at %j", (args, path) => {
    expect(schemaRejects(ASK_USER_INPUT_SCHEMA, args)).toContain(path);
  });

  // What only validateArgs checks (each question as a form field, ids across the call): the schema accepts these.
  it.each([
    [{ questions: [choice], title: "a\u001bb" }, "/title: contains a control character"],
    [
      { questions: [{ id: "q", label: "Q", kind: "text", options: [{ id: "a", label: "A" }] }] },
      "/questions/0/options: unknown field",
    ],
    [
      { questions: [{ id: "q", label: "Q", kind: "text", free_text: { id: "f", label: "F" } }] },
      "/questions/0/free_text: free_text is only supported on choice questions",
    ],
    [{ questions: [choice, { ...choice }] }, "/questions/1/id: duplicate field id"],
    [
      { questions: [{ ...choice, free_text: { id: "c", label: "F" } }] },
      "/questions/0/free_text/id: duplicate field id",
    ],
  ])("validateArgs(%j) → %s", (args, message) => {
    expect(validateArgs(schemaChecked(ASK_USER_INPUT_SCHEMA, args))).toBe(message);
  });

  it("accepts the example questions", () => {
    expect(validateArgs(questions)).toBeUndefined();
  });
});
