import { AsyncLocalStorage } from "node:async_hooks";
import type { AnyToolRegistration } from "@raw/tool-api";
import { ACP_TOOL_KINDS, type GatedMethod, gateIdentity } from "./identity.js";
import { type GatedCall, gateToolName } from "./requests.js";

/** The gated call a dispatch of the gate's tools is deciding (its effects come from here, not from the arguments). */
export const currentGatedCall = new AsyncLocalStorage<GatedCall>();

const FILES_EFFECTS_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    files: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "operation"],
        properties: {
          path: { type: "string" },
          operation: { enum: ["write", "delete", "rename_source", "rename_destination"] },
        },
      },
    },
  },
} as const;

const SCHEMAS: Record<Exclude<GatedMethod, "session/request_permission">, Record<string, unknown>> = {
  "fs/write_text_file": {
    type: "object",
    required: ["path", "content"],
    properties: { path: { type: "string" }, content: { type: "string" } },
  },
  "fs/read_text_file": {
    type: "object",
    required: ["path"],
    properties: { path: { type: "string" }, line: { type: "integer" }, limit: { type: "integer" } },
  },
  "terminal/create": {
    type: "object",
    required: ["command"],
    properties: {
      command: { type: "string" },
      args: { type: "array", items: { type: "string" } },
      cwd: { type: "string" },
      env: { type: "array" },
    },
  },
};

/**
 * The arguments schema of the permission kinds: any JSON object (the agent's `rawInput`), written so that a rule's or
 * hook's argument predicate on any path (`command`, `paths[*]`) binds; it matches only where a string is there.
 */
const ANY_OBJECT_SCHEMA = {
  type: "object",
  additionalProperties: { $ref: "#/$defs/value" },
  $defs: {
    value: {
      anyOf: [
        { type: "string" },
        { type: ["number", "boolean", "null"] },
        { type: "array", items: { $ref: "#/$defs/value" } },
        { type: "object", additionalProperties: { $ref: "#/$defs/value" } },
      ],
    },
  },
} as const;

function effectsOfCurrent(): unknown {
  const call = currentGatedCall.getStore();
  if (call === undefined) throw new Error("no gated request");
  return call.effects;
}

/** Every decision is the dispatch's; the handler only says "go on" (the gate forwards or answers afterwards). */
const GO_ON = () => ({ isError: false, content: [{ type: "text" as const, text: "allowed" }] });

/**
 * The registrations through which a host session decides the gated requests of one agent (A13). Every one declares
 * the `files` effects schema, so a rule or hook subscription may test `files[*].path` on any gated identity (binding
 * never fails on `acp/*`) and, without a rules file, every gated request is asked (A10). `fs/write_text_file` and the
 * permission kinds list their files; `fs/read_text_file` and `terminal/create` have no effects: an empty object.
 */
export function gateTools(agent: string): AnyToolRegistration[] {
  const effects = {
    effectsSchema: FILES_EFFECTS_SCHEMA as unknown as Record<string, unknown>,
    describeEffects: effectsOfCurrent,
    conditionSources: ["arguments", "effects"] as const,
  };
  const tools: AnyToolRegistration[] = [
    {
      name: gateToolName("fs/write_text_file"),
      identity: gateIdentity(agent, "fs/write_text_file"),
      description: "An ACP agent writes a text file through the client.",
      inputSchema: SCHEMAS["fs/write_text_file"],
      schemaProfile: "foreign",
      ...effects,
      handler: GO_ON,
    },
    {
      name: gateToolName("fs/read_text_file"),
      identity: gateIdentity(agent, "fs/read_text_file"),
      description: "An ACP agent reads a text file through the client.",
      inputSchema: SCHEMAS["fs/read_text_file"],
      schemaProfile: "foreign",
      ...effects,
      handler: GO_ON,
    },
    {
      name: gateToolName("terminal/create"),
      identity: gateIdentity(agent, "terminal/create"),
      description: "An ACP agent runs a command in a client terminal.",
      inputSchema: SCHEMAS["terminal/create"],
      schemaProfile: "foreign",
      ...effects,
      handler: GO_ON,
    },
  ];
  for (const kind of ACP_TOOL_KINDS) {
    tools.push({
      name: gateToolName("session/request_permission", kind),
      identity: gateIdentity(agent, "session/request_permission", kind),
      description: `An ACP agent asks permission for a tool call of kind ${kind}.`,
      inputSchema: ANY_OBJECT_SCHEMA as unknown as Record<string, unknown>,
      schemaProfile: "foreign",
      ...effects,
      handler: GO_ON,
    });
  }
  return tools;
}
