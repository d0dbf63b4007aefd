import { createToolRegistry, defineTool } from "@raw/tool-api";

const repeat = defineTool({
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["text"],
    properties: {
      text: { type: "string", minLength: 1 },
      times: { type: "integer", minimum: 1, maximum: 3 },
    },
  } as const,
  // `args` is { text: string; times?: number }: the schema already checked types, required fields and ranges.
  validateArgs: (args) => (args.text.includes("\u0000") ? "text must not contain NUL" : undefined),
  handler: (args) => ({
    isError: false,
    content: [{ type: "text", text: args.text.repeat(args.times ?? 1) }],
  }),
});

const registry = createToolRegistry();
registry.register({ ...repeat, name: "repeat", description: "Repeats a text up to 3 times." });
const cwd = process.cwd();
console.log(await registry.dispatch({ name: "repeat", arguments: { text: "ab", times: 2 } }, { cwd }));
// { isError: false, content: [ { type: 'text', text: 'abab' } ] }
console.log(await registry.dispatch({ name: "repeat", arguments: { text: "ab", times: 9 } }, { cwd }));
// { isError: true, code: 'invalid_arguments', content: [ { type: 'text', text: '/times: must be <= 3' } ] }
