import { createToolRegistry } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES, effectsAskRules, identityGlob, sessionRules } from "../src/index.js";

const schema = { type: "object", additionalProperties: false, properties: {} } as const;
const effectsSchema = { type: "object", properties: { files: { type: "array" } } } as const;

function tool(identity: string, withEffects: boolean) {
  const name = identity.replace(/[^a-z_]/g, "_");
  return {
    name,
    identity,
    description: "A test tool that says ok.",
    inputSchema: schema,
    ...(withEffects ? { effectsSchema, describeEffects: () => ({ files: [] }) } : {}),
    handler: () => ({ isError: false, content: [{ type: "text" as const, text: "ok" }] }),
  };
}

async function decide(
  rules: ReturnType<typeof sessionRules>["rules"],
  identity: string,
  withEffects: boolean,
) {
  const registry = createToolRegistry({ rules: rules as never, approve: () => false });
  const registration = tool(identity, withEffects);
  registry.register(registration);
  const result = await registry.dispatch({ name: registration.name, arguments: {} }, { cwd: "/tmp" });
  return result.code ?? "ok";
}

describe("default rules (A10)", () => {
  it("DEFAULT_RULES asks before builtin/write_file and builtin/bash", () => {
    expect(DEFAULT_RULES).toEqual([
      { match: "builtin/write_file", effect: "ask" },
      { match: "builtin/bash", effect: "ask" },
    ]);
    expect(Object.isFrozen(DEFAULT_RULES)).toBe(true);
  });

  it("asks before every loaded tool with an effects schema and runs the others", async () => {
    const tools = [{ identity: "local/touch", effectsSchema }, { identity: "local/echo" }];
    const { rules, defaults } = sessionRules(undefined, tools);
    expect(defaults).toBe(3);
    expect(await decide(rules, "local/touch", true)).toBe("approval_denied");
    expect(await decide(rules, "local/echo", false)).toBe("ok");
    expect(await decide(rules, "builtin/bash", false)).toBe("approval_denied");
  });

  it("lets the user's own rules decide: allow runs unasked, deny refuses, silence still asks", async () => {
    const tools = [{ identity: "local/touch", effectsSchema }];
    const allow = sessionRules([{ match: "local/*", effect: "allow" as const }], tools).rules;
    expect(await decide(allow, "local/touch", true)).toBe("ok");
    const deny = sessionRules([{ match: "local/touch", effect: "deny" as const }], tools).rules;
    expect(await decide(deny, "local/touch", true)).toBe("tool_denied");
    const other = sessionRules([{ match: "local/other", effect: "allow" as const }], tools).rules;
    expect(await decide(other, "local/touch", true)).toBe("approval_denied");
  });

  it("adds one rule per identity, and a glob for an identity over 256 bytes still matches it", () => {
    expect(
      effectsAskRules([
        { identity: "a", effectsSchema },
        { identity: "a", effectsSchema },
      ]),
    ).toHaveLength(1);
    const long = `mcp/s/${"é".repeat(200)}`;
    const glob = identityGlob(long);
    expect(Buffer.byteLength(glob)).toBeLessThanOrEqual(256);
    expect(glob.endsWith("*")).toBe(true);
    expect(long.startsWith(glob.slice(0, -1))).toBe(true);
  });
});
