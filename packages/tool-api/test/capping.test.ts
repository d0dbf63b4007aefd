import { describe, expect, it } from "vitest";
import {
  createToolRegistry,
  DEFAULT_MAX_OUTPUT_BYTES,
  type HandlerContentBlock,
  type HandlerResult,
  MAX_IMAGE_BYTES,
} from "../src/index.js";

const text = (t: string, channel?: "stdout" | "stderr") =>
  channel === undefined ? { type: "text" as const, text: t } : { type: "text" as const, text: t, channel };

async function run(
  content: HandlerContentBlock[],
  maxOutputBytes?: number,
  extra: Partial<HandlerResult> = {},
  outputLimit?: number,
) {
  const registry = createToolRegistry();
  let budget: number | undefined;
  registry.register({
    name: "t",
    description: "d",
    inputSchema: { type: "object" },
    handler: (_args, context) => {
      // The budget the handler received, reported next to the result (a result field would count toward it, A4).
      budget = context.maxOutputBytes;
      return { isError: false, content, ...extra };
    },
    ...(outputLimit === undefined ? {} : { outputLimit }),
  });
  const result = await registry.dispatch(
    { name: "t", arguments: {} },
    maxOutputBytes === undefined ? { cwd: "/" } : { cwd: "/", maxOutputBytes },
  );
  return result.isError ? result : { ...result, budget };
}

/** Base64 data whose decoded size is exactly `bytes`. */
function base64Of(bytes: number): string {
  const groups = Math.floor(bytes / 3);
  const rest = bytes % 3;
  return "A".repeat(groups * 4) + (rest === 0 ? "" : rest === 1 ? "AA==" : "AAA=");
}

describe("output capping (tool-api.md §8.3)", () => {
  it("defaults the budget to 65536 and gives it to the handler", async () => {
    expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(65536);
    const result = await run([text("x".repeat(65536))]);
    expect(result.truncated).toBeUndefined();
    expect(result.budget).toBe(65536);
    const over = await run([text("x".repeat(65537))]);
    expect(over).toMatchObject({ truncated: true, retainedBytes: 65536, observedBytes: 65537 });
  });

  it("keeps text of exactly the budget and cuts one byte more", async () => {
    expect(await run([text("abcde")], 5)).toEqual({ isError: false, content: [text("abcde")], budget: 5 });
    expect(await run([text("abcdef", "stderr")], 5)).toEqual({
      isError: false,
      content: [text("abcde", "stderr")],
      budget: 5,
      truncated: true,
      retainedBytes: 5,
      observedBytes: 6,
    });
  });

  it("cuts at whole code points and keeps an empty block", async () => {
    expect((await run([text("aé")], 2)).content).toEqual([text("a")]);
    expect((await run([text("😀")], 3)).content).toEqual([text("")]);
    expect(await run([text("ab"), text("cd"), text("ef")], 3)).toMatchObject({
      content: [text("ab"), text("c"), text("")],
      truncated: true,
      retainedBytes: 3,
      observedBytes: 6,
    });
  });

  it("keeps a json block that fits the remaining budget and previews one that does not", async () => {
    const value = { a: [1, 2] };
    const s = JSON.stringify(value);
    expect(await run([{ type: "json", value }], s.length)).toEqual({
      isError: false,
      content: [{ type: "json", value }],
      budget: s.length,
    });
    const cap = s.length + 5;
    expect(await run([text("12345"), { type: "json", value }, text("z")], cap - 1)).toEqual({
      isError: false,
      content: [text("12345"), text(`[JSON preview] ${s}`.slice(0, s.length - 1)), text("")],
      budget: cap - 1,
      truncated: true,
      retainedBytes: cap - 1,
      observedBytes: 5 + s.length + 1,
    });
    expect((await run([{ type: "json", value: "é".repeat(20) }], 17)).content).toEqual([
      text('[JSON preview] "'),
    ]);
  });

  it("does not count images against the budget but reports their base64 in retainedBytes", async () => {
    const image = { type: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=" };
    expect(await run([image, text("abc")], 3)).toEqual({
      isError: false,
      content: [image, text("abc")],
      budget: 3,
    });
    expect(await run([image, text("abcd")], 3)).toMatchObject({
      content: [image, text("abc")],
      truncated: true,
      retainedBytes: 3 + image.data.length,
      observedBytes: 4 + image.data.length,
    });
  });

  it("accepts images of exactly 16 MiB in total and replaces the result above that", async () => {
    const half = MAX_IMAGE_BYTES / 2;
    const a = { type: "image" as const, mimeType: "image/png" as const, data: base64Of(half) };
    const b = { type: "image" as const, mimeType: "image/jpeg" as const, data: base64Of(half) };
    expect((await run([a, b])).isError).toBe(false);
    const c = { type: "image" as const, mimeType: "image/jpeg" as const, data: base64Of(half + 1) };
    expect(await run([a, c, text("x")])).toEqual({
      isError: true,
      code: "image_too_large",
      content: [text("tool images exceed 16 MiB")],
    });
    expect(
      await run([{ type: "image", mimeType: "image/png", data: base64Of(MAX_IMAGE_BYTES + 1) }], 10),
    ).toEqual({
      isError: true,
      code: "image_too_large",
      content: [text("tool image")],
      truncated: true,
      retainedBytes: 10,
      observedBytes: 25,
    });
  });

  it("caps dispatcher errors too", async () => {
    const registry = createToolRegistry({ maxOutputBytes: 8 });
    expect(await registry.dispatch({ name: "missing", arguments: {} }, { cwd: "/" })).toEqual({
      isError: true,
      code: "tool_not_exposed",
      content: [text("tool una")],
      truncated: true,
      retainedBytes: 8,
      observedBytes: 25,
    });
  });

  it("uses max(maxOutputBytes, outputLimit)", async () => {
    const result = await run([text("x".repeat(10))], 4, {}, 8);
    expect(result).toMatchObject({ content: [text("x".repeat(8))], budget: 8, retainedBytes: 8 });
    expect((await run([text("x".repeat(10))], 9, {}, 8)).budget).toBe(9);
  });

  it("replaces an indexed batch result whose rows do not fit by output_budget_too_small", async () => {
    const value = {
      results: [
        { index: 0, status: "ok" },
        { index: 1, status: "error", error: "x" },
      ],
    };
    const size = JSON.stringify(value).length;
    expect((await run([{ type: "json", value }], size)).content).toEqual([{ type: "json", value }]);
    expect(await run([{ type: "json", value }], size - 1)).toEqual({
      isError: true,
      code: "output_budget_too_small",
      content: [text("batch status exceeds output budget")],
    });
    const notBatch = { results: [{ index: 0 }], more: 1 };
    expect((await run([{ type: "json", value: notBatch }], 10)).content[0]).toMatchObject({ type: "text" });
  });
});
