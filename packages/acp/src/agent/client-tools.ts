import { createSchemaBudgetChecker, type SchemaBudgetChecker } from "@raw/host";
import { parsePanelDeclarations } from "@raw/panel";
import { escapeDisplayText, isContractError, thrownMessage, utf8Bytes } from "@raw/schema";
import {
  type HandlerContentBlock,
  type HandlerResult,
  TOOL_NAME_PATTERN,
  type ToolHandlerContext,
  type ToolRegistration,
  type ToolRegistry,
} from "@raw/tool-api";
import { MAX_CLIENT_TOOL_NAME_CHARS, MAX_CLIENT_TOOL_SCHEMA_BYTES, MAX_CLIENT_TOOLS } from "../limits.js";
import type { AcpClientPort } from "./acp-session.js";

/** Longest `description` of a client-registered tool, in UTF-8 bytes. */
export const MAX_CLIENT_TOOL_DESCRIPTION_BYTES = 8_192;
/** Most content blocks of one `_raw/tool/call` answer that are kept (the rest are dropped and counted). */
export const MAX_CLIENT_TOOL_RESULT_BLOCKS = 64;
/** Longest error message of a failed `_raw/tool/call` that is repeated in the result, in UTF-8 bytes. */
export const MAX_CLIENT_TOOL_ERROR_BYTES = 1_024;

/** The identity prefix of client-registered tools (amendment A12: `acp:<name>`). */
export const CLIENT_TOOL_IDENTITY_PREFIX = "acp:";

/**
 * Stable codes of `_raw/tool/register` and of client tool calls. A registration's code names what was wrong with it;
 * a call's code says what Raw observed (the client never picks it, amendment A10).
 */
export const CLIENT_TOOL_CODES = Object.freeze({
  /** The client did not advertise `_meta.raw.tools` in `initialize`. */
  unsupported: "client_tools_unsupported",
  /** `tools` is not an array, or holds more than `MAX_CLIENT_TOOLS` entries. */
  invalidRequest: "client_tools_invalid",
  /** The session would hold more than `MAX_CLIENT_TOOLS` client tools. */
  limit: "client_tool_limit",
  /** An entry is not an object. */
  invalid: "client_tool_invalid",
  /** `name` is not a tool name (`TOOL_NAME_PATTERN`, at most `MAX_CLIENT_TOOL_NAME_CHARS`). */
  invalidName: "client_tool_invalid_name",
  /** `description` is not a string of at most `MAX_CLIENT_TOOL_DESCRIPTION_BYTES`. */
  invalidDescription: "client_tool_invalid_description",
  /** `input_schema` is not an object. */
  invalidSchema: "client_tool_invalid_schema",
  /** `input_schema` is larger than `MAX_CLIENT_TOOL_SCHEMA_BYTES` serialized. */
  schemaTooLarge: "client_tool_schema_too_large",
  /** The name is taken by a tool the client did not register, or twice in one request. */
  duplicate: "client_tool_duplicate",
  /** The `_raw/tool/call` request failed (an error answer, the client went away). */
  failed: "client_tool_failed",
  /** The client answered the call with `isError: true`. */
  error: "client_tool_error",
  /** The client's answer is not `{ content: [...], isError? }`. */
  invalidResult: "client_tool_invalid_result",
});

/** One tool of a `_raw/tool/register` request that was registered. */
export interface RegisteredClientTool {
  readonly name: string;
  readonly identity: string;
}

/** One tool of a `_raw/tool/register` request that was refused, with the code and the field it names. */
export interface RejectedClientTool {
  readonly index: number;
  readonly name?: string;
  readonly code: string;
  readonly message: string;
  /** JSON Pointer into the request's params (`/tools/<index>/<field>`). */
  readonly path: string;
}

/** The answer of `_raw/tool/register`: what was registered and what was refused. */
export interface ClientToolRegistration {
  readonly registered: RegisteredClientTool[];
  readonly rejected: RejectedClientTool[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function serializedBytes(value: unknown): number {
  try {
    return utf8Bytes(JSON.stringify(value) ?? "");
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function cutBytes(text: string, max: number): string {
  if (utf8Bytes(text) <= max) return text;
  return `${Buffer.from(text)
    .subarray(0, max)
    .toString("utf8")
    .replace(/\uFFFD+$/u, "")}…`;
}

const NAME = new RegExp(TOOL_NAME_PATTERN);

/**
 * The tools one ACP session's client registered over `_raw/tool/register` (amendment A12): each is validated like any
 * registration (name, description, schema size, the schema compiled off the event loop under the schema budget,
 * panels by `@raw/panel`'s declaration rules, the session's rules bound by the registry) and registered as
 * `acp:<name>`; a call runs through the session's rules, hooks and approval and is sent to the client as
 * `_raw/tool/call`.
 */
export class ClientTools {
  private readonly names = new Set<string>();

  constructor(
    private readonly sessionId: string,
    private readonly client: AcpClientPort,
    private readonly panels: boolean,
  ) {}

  /** How many client tools the session holds. */
  get size(): number {
    return this.names.size;
  }

  /** Registers what `tools` holds into `registry`; a refused entry never touches the registry. */
  async register(registry: ToolRegistry, tools: unknown): Promise<ClientToolRegistration> {
    const registered: RegisteredClientTool[] = [];
    const rejected: RejectedClientTool[] = [];
    if (!Array.isArray(tools) || tools.length > MAX_CLIENT_TOOLS) return { registered, rejected };
    const seen = new Set<string>();
    let checker: SchemaBudgetChecker | undefined;
    try {
      for (let index = 0; index < tools.length; index++) {
        const entry: unknown = tools[index];
        const at = `/tools/${index}`;
        const label = `tools[${index}]`;
        const name = isRecord(entry) && typeof entry.name === "string" ? entry.name : undefined;
        const reject = (code: string, field: string | undefined, reason: string): void => {
          rejected.push({
            index,
            ...(name === undefined ? {} : { name: cutBytes(name, MAX_CLIENT_TOOL_NAME_CHARS * 4) }),
            code,
            message: `${label}${field === undefined ? "" : `.${field}`}: ${reason}`,
            path: field === undefined ? at : `${at}/${field}`,
          });
        };
        if (!isRecord(entry)) {
          reject(CLIENT_TOOL_CODES.invalid, undefined, "must be an object");
          continue;
        }
        if (name === undefined || name.length > MAX_CLIENT_TOOL_NAME_CHARS || !NAME.test(name)) {
          reject(
            CLIENT_TOOL_CODES.invalidName,
            "name",
            `must match ${TOOL_NAME_PATTERN} (at most ${MAX_CLIENT_TOOL_NAME_CHARS} characters)`,
          );
          continue;
        }
        const mine = this.names.has(name);
        if (seen.has(name) || (!mine && registry.inspectionDefinition(name) !== undefined)) {
          reject(CLIENT_TOOL_CODES.duplicate, "name", `a tool named ${name} already exists`);
          continue;
        }
        seen.add(name);
        if (!mine && this.names.size >= MAX_CLIENT_TOOLS) {
          reject(
            CLIENT_TOOL_CODES.limit,
            undefined,
            `a session holds at most ${MAX_CLIENT_TOOLS} client tools`,
          );
          continue;
        }
        const description = entry.description ?? "";
        if (typeof description !== "string" || utf8Bytes(description) > MAX_CLIENT_TOOL_DESCRIPTION_BYTES) {
          reject(
            CLIENT_TOOL_CODES.invalidDescription,
            "description",
            `must be a string of at most ${MAX_CLIENT_TOOL_DESCRIPTION_BYTES} bytes`,
          );
          continue;
        }
        const schema = entry.input_schema;
        if (!isRecord(schema)) {
          reject(CLIENT_TOOL_CODES.invalidSchema, "input_schema", "must be a JSON Schema object");
          continue;
        }
        if (serializedBytes(schema) > MAX_CLIENT_TOOL_SCHEMA_BYTES) {
          reject(
            CLIENT_TOOL_CODES.schemaTooLarge,
            "input_schema",
            `must be at most ${MAX_CLIENT_TOOL_SCHEMA_BYTES} bytes serialized`,
          );
          continue;
        }
        let declarations: ToolRegistration["panels"];
        if (entry.panels !== undefined) {
          const parsed = parsePanelDeclarations(entry.panels, { pointer: `${at}/panels` });
          if (!parsed.ok) {
            const issue = parsed.issues[0];
            reject(issue?.code ?? "panel_invalid", "panels", issue?.message ?? "invalid panels");
            continue;
          }
          declarations = parsed.declarations;
        }
        checker ??= createSchemaBudgetChecker();
        const checked = await checker.check(schema, `arguments of ${name}`);
        if (!checked.ok) {
          reject(checked.code, "input_schema", checked.message);
          continue;
        }
        const registration: ToolRegistration = {
          name,
          identity: `${CLIENT_TOOL_IDENTITY_PREFIX}${name}`,
          description,
          inputSchema: schema,
          handler: (args, context) => this.call(name, args, context),
          schemaProfile: "foreign",
          ...(declarations === undefined ? { implicitPanels: true } : { panels: declarations }),
        };
        // Checked again after the compile: another request of the same session may have registered meanwhile.
        if (!this.names.has(name) && this.names.size >= MAX_CLIENT_TOOLS) {
          reject(
            CLIENT_TOOL_CODES.limit,
            undefined,
            `a session holds at most ${MAX_CLIENT_TOOLS} client tools`,
          );
          continue;
        }
        if (mine) registry.unregister(name);
        try {
          registry.register(registration);
        } catch (error) {
          if (mine) this.names.delete(name);
          const issue = isContractError(error) ? error.issues[0] : undefined;
          reject(issue?.code ?? "registration_invalid", undefined, issue?.message ?? thrownMessage(error));
          continue;
        }
        this.names.add(name);
        registered.push({ name, identity: registration.identity as string });
      }
    } finally {
      await checker?.close();
    }
    return { registered, rejected };
  }

  /** Removes every client tool from `registry` (the session is closing). */
  unregisterAll(registry: ToolRegistry): void {
    for (const name of this.names) registry.unregister(name);
    this.names.clear();
  }

  /** A call of a client tool: `_raw/tool/call` to the client, withdrawn when the call's signal aborts. */
  private async call(name: string, args: unknown, context: ToolHandlerContext): Promise<HandlerResult> {
    let answer: unknown;
    try {
      answer = await this.client.request(
        "_raw/tool/call",
        { sessionId: this.sessionId, toolCallId: context.toolCallId ?? null, name, arguments: args },
        context.signal === undefined ? {} : { cancellationSignal: context.signal, stopWaitingOnCancel: true },
      );
    } catch (error) {
      const reason = escapeDisplayText(cutBytes(thrownMessage(error), MAX_CLIENT_TOOL_ERROR_BYTES));
      return {
        isError: true,
        code: CLIENT_TOOL_CODES.failed,
        content: [{ type: "text", text: `client tool ${name} failed: ${reason}` }],
      };
    }
    return clientResultOf(name, answer, this.panels);
  }
}

/**
 * A client's `_raw/tool/call` answer as a handler result: `text`, `json` and `image` blocks as they came,
 * `{type:"panel"}` blocks only when the client advertised `_raw/panels` (else dropped), anything else dropped; at
 * most `MAX_CLIENT_TOOL_RESULT_BLOCKS` blocks. `isError: true` ends the call `client_tool_error`.
 */
export function clientResultOf(name: string, answer: unknown, panels: boolean): HandlerResult {
  if (!isRecord(answer) || !Array.isArray(answer.content)) {
    return {
      isError: true,
      code: CLIENT_TOOL_CODES.invalidResult,
      content: [{ type: "text", text: `client tool ${name} answered without a content array` }],
    };
  }
  const content: HandlerContentBlock[] = [];
  let dropped = 0;
  for (const block of answer.content as unknown[]) {
    if (content.length >= MAX_CLIENT_TOOL_RESULT_BLOCKS || !isRecord(block)) {
      dropped++;
      continue;
    }
    if (block.type === "text" && typeof block.text === "string")
      content.push({ type: "text", text: block.text });
    else if (block.type === "json" && "value" in block) content.push({ type: "json", value: block.value });
    else if (
      block.type === "image" &&
      (block.mimeType === "image/png" || block.mimeType === "image/jpeg") &&
      typeof block.data === "string"
    )
      content.push({ type: "image", mimeType: block.mimeType, data: block.data });
    else if (block.type === "panel" && panels) content.push({ ...block, type: "panel" });
    else dropped++;
  }
  if (dropped > 0) content.push({ type: "text", text: `[${dropped} content blocks dropped]` });
  return answer.isError === true
    ? { isError: true, code: CLIENT_TOOL_CODES.error, content }
    : { isError: false, content };
}
