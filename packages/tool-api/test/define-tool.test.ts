import Type from "typebox";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createToolRegistry,
  type DefinedTool,
  defineTool,
  type HandlerResult,
  type ToolArgs,
  type ToolRegistration,
} from "../src/index.js";

const GREET_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1 },
    times: { type: "integer", minimum: 1, maximum: 3 },
    tone: { type: "string", enum: ["warm", "dry"] },
  },
} as const;

function text(value: string): HandlerResult {
  return { isError: false, content: [{ type: "text", text: value }] };
}

describe("defineTool: the argument type is inferred from the input schema", () => {
  it("a plain JSON Schema written `as const`", () => {
    const tool = defineTool({
      inputSchema: GREET_SCHEMA,
      validateArgs: (args) => {
        expectTypeOf(args).toEqualTypeOf<{
          readonly name: string;
          readonly times?: number;
          readonly tone?: "warm" | "dry";
        }>();
        return args.name.trim() === "" ? "name must not be blank" : undefined;
      },
      describeEffects: (args, { cwd }) => {
        expectTypeOf(args.times).toEqualTypeOf<number | undefined>();
        return { cwd, times: args.times ?? 1 };
      },
      handler: (args, context) => {
        expectTypeOf(args.name).toBeString();
        expectTypeOf(context.cwd).toBeString();
        return text(`hello ${args.name}`);
      },
    });
    expectTypeOf(tool).toExtend<
      DefinedTool<{ readonly name: string; readonly times?: number; readonly tone?: "warm" | "dry" }>
    >();
    // A `validateArgs` that was given is not optional on the result.
    expectTypeOf(tool.validateArgs).toBeFunction();
    expectTypeOf<ToolArgs<typeof tool>>().toEqualTypeOf<{
      readonly name: string;
      readonly times?: number;
      readonly tone?: "warm" | "dry";
    }>();
    // What the schema does not allow is a type error in the handler.
    defineTool({
      inputSchema: GREET_SCHEMA,
      // @ts-expect-error `age` is not an argument of this schema
      handler: (args) => text(String(args.age)),
    });
  });

  it("a TypeBox schema", () => {
    const tool = defineTool({
      name: "sum",
      description: "Adds numbers.",
      inputSchema: Type.Object(
        { values: Type.Array(Type.Number(), { minItems: 1 }), label: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
      handler: (args) => text(`${args.label ?? "sum"} = ${args.values.reduce((a, b) => a + b, 0)}`),
    });
    // With a name and a description it is a registration of its own.
    expectTypeOf(tool).toExtend<
      ToolRegistration<{ readonly values: readonly number[]; readonly label?: string }>
    >();
    expectTypeOf<Parameters<typeof tool.handler>[0]>().toEqualTypeOf<{
      readonly values: readonly number[];
      readonly label?: string;
    }>();
  });
});

describe("defineTool at run time", () => {
  it("returns the definition itself, and the registry runs it with the schema first", async () => {
    const definition = {
      inputSchema: GREET_SCHEMA,
      validateArgs: (args: { name: string }) => (args.name === "root" ? "name must not be root" : undefined),
      handler: (args: { name: string; times?: number }) => text(`hello ${args.name} ×${args.times ?? 1}`),
    };
    const tool = defineTool(definition);
    expect(tool).toBe(definition);
    const registry = createToolRegistry();
    registry.register({ ...tool, name: "greet", description: "Greets someone." });
    const cwd = process.cwd();
    expect(await registry.dispatch({ name: "greet", arguments: { name: "ada", times: 2 } }, { cwd })).toEqual(
      text("hello ada ×2"),
    );
    // The schema guarantees the type the handler reads: a wrong type never reaches validateArgs or the handler.
    const wrong = await registry.dispatch({ name: "greet", arguments: { name: 7 } }, { cwd });
    expect(wrong).toMatchObject({ isError: true, code: "invalid_arguments" });
    expect(await registry.dispatch({ name: "greet", arguments: { name: "root" } }, { cwd })).toMatchObject({
      isError: true,
      code: "invalid_arguments",
      content: [{ type: "text", text: expect.stringContaining("name must not be root") }],
    });
  });
});
