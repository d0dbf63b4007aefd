import { bindPredicate, type CompiledGlob, type PredicateJson, type RegexEngine } from "@raw/predicate";
import {
  ContractError,
  type Issue,
  isContractError,
  isPlainObject,
  type ObjectValidator,
  safeCompileObjectSchema,
  thrownMessage,
} from "@raw/schema";
import { type CwdMemo, dispatchCall, type RegisteredTool } from "./dispatch.js";
import { isValidConditionSources } from "./manifest.js";
import { type CompiledPolicy, compilePolicy } from "./policy.js";
import type { RuleEffect, ToolRule } from "./rules.js";
import type {
  ApprovalCallback,
  ConditionSource,
  DispatchContext,
  PanelSink,
  PreToolUseGate,
  ToolCall,
  ToolDefinition,
  ToolInspection,
  ToolNotification,
  ToolRegistration,
  ToolResult,
} from "./types.js";

/** What is wired once per registry (tool-api.md §7.1, DESIGN.md): rules, the three ports, and call defaults. */
export interface ToolRegistryOptions {
  /** Policy rules, parsed by `parseRules` or as JSON (JSON rules are parsed; invalid rules throw a `ContractError`). */
  rules?: ToolRulesInput | undefined;
  /** The `PreToolUseGate` port (§7.7). */
  preToolUse?: PreToolUseGate | undefined;
  /** The `ToolNotification` port (§7.7). */
  notify?: ToolNotification | undefined;
  /** The `PanelSink` port (§7.8). */
  panelSink?: PanelSink | undefined;
  /** Default approval callback (§7.5); a call may override it. */
  approve?: ApprovalCallback | undefined;
  /** Default `autoApprove` (true); `false` forces approval for every call. */
  autoApprove?: boolean | undefined;
  /** Default approval deadline in milliseconds (none). */
  approvalTimeoutMs?: number | undefined;
  /** Default output budget in bytes (65536). */
  maxOutputBytes?: number | undefined;
  /**
   * Default abort grace in milliseconds (`HANDLER_ABORT_GRACE_MS`, 1500): how long dispatch still waits for a
   * running handler once the call's signal aborted (amendment A5); `0` returns `aborted` at once.
   */
  handlerAbortGraceMs?: number | undefined;
  /** The RE2 engine raw rules are compiled with (default re2js). */
  engine?: RegexEngine | undefined;
}

/** A policy rule as JSON (tool-api.md §9.1): `when` is a predicate document, compiled when the rules are parsed. */
export interface ToolRuleJson {
  readonly match: string;
  readonly effect: RuleEffect;
  readonly when?: PredicateJson;
}

/** The registry's `rules`: rules from `parseRules`, or rules as JSON (parsed by the registry). */
export type ToolRulesInput = readonly (ToolRule | ToolRuleJson)[];

/** A tool registry: registration (§6), what the model sees (§6.3) and dispatch (§7). */
export interface ToolRegistry {
  /**
   * Registers one registration or a batch, all-or-nothing (§6.2); throws a `ContractError` carrying every issue.
   * `Args` is inferred from the handler, `validateArgs` or `describeEffects`; a batch may mix argument types.
   */
  register<Args = unknown>(registration: ToolRegistration<Args> | readonly AnyToolRegistration[]): void;
  /** `name`, `description` and a copy of `inputSchema` of each exposed tool (§6.3); hidden tools are left out. */
  definitions(whitelist?: readonly string[] | ReadonlySet<string>): ToolDefinition[];
  /** What a host reads about a registered tool (identity, effects schema, panels, ...), or undefined. */
  inspectionDefinition(name: string): ToolInspection | undefined;
  /** Runs one call through the pipeline of §7.2. Never throws: every failure is an error result with a `code`. */
  dispatch(call: ToolCall, context: DispatchContext): Promise<ToolResult>;
  /**
   * Removes a registered tool (an adapter whose source withdrew it, such as an MCP server's `list_changed`); true
   * when it was registered. Calls already dispatched keep running.
   */
  unregister(name: string): boolean;
}

/** A registration of any argument type (what a batch holds): its functions accept whatever its schema admits. */
export type AnyToolRegistration = ToolRegistration<never>;

/** Code of a registration that lacks the basic shape of §6.1 (a name, a description, a handler). */
export const REGISTRATION_INVALID = "registration_invalid";

function isBatch<Args>(
  value: ToolRegistration<Args> | readonly AnyToolRegistration[],
): value is readonly AnyToolRegistration[] {
  return Array.isArray(value);
}

/** Deepest tree `plainTreeClone` copies itself; deeper values go to `structuredClone`. */
const PLAIN_CLONE_MAX_DEPTH = 64;

/** Marks a value `plainTreeClone` leaves to `structuredClone`. */
const NOT_PLAIN: unique symbol = Symbol("not plain");

/**
 * A copy of a tree of plain objects, dense arrays and primitives (what parsed JSON is), equal to the one
 * `structuredClone` makes, without its serializer round trip (`inspectionDefinition` clones a schema per call).
 * Anything else (another prototype, a function, a sparse array or one with extra keys, a shared or cyclic reference,
 * an own `__proto__` key, a tree past `PLAIN_CLONE_MAX_DEPTH`) gives `NOT_PLAIN`.
 */
function plainTreeClone(value: unknown, seen: Set<object>, depth: number): unknown {
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" ? NOT_PLAIN : value;
  }
  if (depth > PLAIN_CLONE_MAX_DEPTH || seen.has(value)) return NOT_PLAIN;
  seen.add(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || Object.keys(value).length !== value.length)
      return NOT_PLAIN;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = plainTreeClone(value[i], seen, depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype || Object.hasOwn(value, "__proto__"))
    return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = plainTreeClone((value as Record<string, unknown>)[key], seen, depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    out[key] = item;
  }
  return out;
}

/** A structured clone of a JSON value (a schema, a declaration), or the value itself when it cannot be cloned. */
function cloneJson<T>(value: T): T {
  const plain = plainTreeClone(value, new Set(), 0);
  if (plain !== NOT_PLAIN) return plain as T;
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

function cloneSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return cloneJson(schema);
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/** The basic shape of §6.1 that the checks of §6.2 rely on. */
function hasBasicShape(reg: AnyToolRegistration): boolean {
  return (
    typeof reg.name === "string" &&
    reg.name !== "" &&
    (reg.identity === undefined || (typeof reg.identity === "string" && reg.identity !== "")) &&
    typeof reg.description === "string" &&
    typeof reg.handler === "function" &&
    (reg.validateArgs === undefined || typeof reg.validateArgs === "function") &&
    (reg.outputLimit === undefined || isPositiveInteger(reg.outputLimit)) &&
    (reg.panels === undefined || Array.isArray(reg.panels)) &&
    (reg.implicitPanels === undefined || typeof reg.implicitPanels === "boolean") &&
    (reg.schemaProfile === undefined || reg.schemaProfile === "strict" || reg.schemaProfile === "foreign")
  );
}

/** Checks 1–6 of §6.2 for one registration; returns its first failure's issues, or the prepared tool. */
function prepare(
  reg: AnyToolRegistration,
  taken: (name: string) => boolean,
  policy: CompiledPolicy,
): { issues: Issue[] } | { tool: RegisteredTool } {
  if (typeof reg !== "object" || reg === null || !hasBasicShape(reg)) {
    const name = typeof reg === "object" && reg !== null ? String(reg.name) : String(reg);
    return { issues: [{ code: REGISTRATION_INVALID, message: `invalid registration: ${name}` }] };
  }
  const name = reg.name;
  const identity = reg.identity ?? name;
  // 1. Unique name.
  if (taken(name))
    return { issues: [{ code: "registration_duplicate_name", message: `duplicate tool: ${name}` }] };
  // 2. Condition sources.
  const sources = reg.conditionSources;
  if (sources !== undefined && !isValidConditionSources(sources)) {
    return {
      issues: [
        {
          code: "registration_invalid_condition_sources",
          message: `invalid condition sources for ${name}`,
        },
      ],
    };
  }
  const conditionSources: ConditionSource[] = sources ? [...sources] : ["arguments"];
  // 3. The effects contract.
  const effectsSchema = reg.effectsSchema;
  const describeEffects = reg.describeEffects;
  if (effectsSchema !== undefined || describeEffects !== undefined) {
    if (
      typeof effectsSchema !== "object" ||
      effectsSchema === null ||
      Array.isArray(effectsSchema) ||
      effectsSchema.type !== "object" ||
      typeof describeEffects !== "function"
    ) {
      return {
        issues: [
          { code: "registration_invalid_effects_contract", message: `invalid effects contract for ${name}` },
        ],
      };
    }
  }
  // 4. Effects predicates need an effects schema.
  if (conditionSources.includes("effects") && effectsSchema === undefined) {
    return {
      issues: [
        { code: "registration_missing_effects_schema", message: `missing effects schema for ${name}` },
      ],
    };
  }
  // 5. Every conditional rule whose glob matches the identity binds.
  const inputSchema = isPlainObject(reg.inputSchema) ? cloneSchema(reg.inputSchema) : reg.inputSchema;
  const effects = effectsSchema === undefined ? undefined : cloneSchema(effectsSchema);
  const rules = policy.rules;
  for (let i = 0; i < rules.length; i++) {
    const when = rules[i]?.when;
    if (when === undefined || !(policy.globs[i] as CompiledGlob).test(identity)) continue;
    try {
      bindPredicate(when, {
        toolName: name,
        conditionSources,
        schemas: effects === undefined ? { arguments: inputSchema } : { arguments: inputSchema, effects },
      });
    } catch (error) {
      if (isContractError(error) && error.issues.length > 0) return { issues: error.issues };
      return { issues: [{ code: "predicate_unbound", message: thrownMessage(error) }] };
    }
  }
  // 6. The schemas compile.
  const input = safeCompileObjectSchema(inputSchema, {
    name: `arguments of ${name}`,
    profile: reg.schemaProfile ?? "strict",
  });
  if (!input.ok) return { issues: input.issues };
  let effectsValidator: ObjectValidator | undefined;
  if (effects !== undefined) {
    const compiled = safeCompileObjectSchema(effects, { name: `effects of ${name}` });
    if (!compiled.ok) return { issues: compiled.issues };
    effectsValidator = compiled.validator;
  }
  return {
    tool: {
      name,
      identity,
      description: reg.description,
      inputSchema: inputSchema as Record<string, unknown>,
      validator: input.validator,
      handler: reg.handler,
      validateArgs: reg.validateArgs,
      conditionSources,
      effectsSchema: effects,
      effectsValidator,
      describeEffects: effectsValidator === undefined ? undefined : describeEffects,
      panels: reg.panels === undefined ? undefined : [...reg.panels],
      implicitPanels: reg.implicitPanels,
      outputLimit: reg.outputLimit,
      plan: policy.plan(identity),
    },
  };
}

/**
 * Creates a tool registry (tool-api.md §6–§8). The rules and the ports are wired here once; the approval and
 * output settings are defaults that a call's context may override.
 */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const policy = compilePolicy(options.rules ?? [], { engine: options.engine });
  const tools = new Map<string, RegisteredTool>();
  const cwdMemo: CwdMemo = {};
  const settings = Object.freeze({ ...options });

  const isExposed = (tool: RegisteredTool | undefined): tool is RegisteredTool =>
    tool !== undefined && !tool.plan.hidden;

  return Object.freeze({
    register<Args>(registration: ToolRegistration<Args> | readonly AnyToolRegistration[]): void {
      const batch: readonly AnyToolRegistration[] = isBatch(registration) ? registration : [registration];
      const issues: Issue[] = [];
      const prepared: RegisteredTool[] = [];
      const batchNames = new Set<string>();
      const taken = (name: string): boolean => tools.has(name) || batchNames.has(name);
      for (const reg of batch) {
        const result = prepare(reg, taken, policy);
        if (typeof reg === "object" && reg !== null && typeof reg.name === "string") batchNames.add(reg.name);
        if ("issues" in result) issues.push(...result.issues);
        else prepared.push(result.tool);
      }
      if (issues.length > 0) throw ContractError.fromIssues(issues);
      for (const tool of prepared) tools.set(tool.name, tool);
    },

    definitions(whitelist?: readonly string[] | ReadonlySet<string>): ToolDefinition[] {
      const out: ToolDefinition[] = [];
      const add = (tool: RegisteredTool): void => {
        out.push({
          name: tool.name,
          description: tool.description,
          inputSchema: cloneSchema(tool.inputSchema),
        });
      };
      if (whitelist === undefined) {
        for (const tool of tools.values()) if (isExposed(tool)) add(tool);
        return out;
      }
      const seen = new Set<string>();
      for (const name of whitelist) {
        if (seen.has(name)) continue;
        seen.add(name);
        const tool = tools.get(name);
        if (isExposed(tool)) add(tool);
      }
      return out;
    },

    inspectionDefinition(name: string): ToolInspection | undefined {
      const tool = tools.get(name);
      if (tool === undefined) return undefined;
      const out: ToolInspection = {
        name: tool.name,
        identity: tool.identity,
        description: tool.description,
        inputSchema: cloneSchema(tool.inputSchema),
        conditionSources: [...tool.conditionSources],
        hasValidateArgs: tool.validateArgs !== undefined,
        hasDescribeEffects: tool.describeEffects !== undefined,
      };
      if (tool.effectsSchema !== undefined) out.effectsSchema = cloneSchema(tool.effectsSchema);
      if (tool.panels !== undefined) out.panels = tool.panels.map((p) => cloneJson(p));
      if (tool.implicitPanels !== undefined) out.implicitPanels = tool.implicitPanels;
      if (tool.outputLimit !== undefined) out.outputLimit = tool.outputLimit;
      return out;
    },

    dispatch(call: ToolCall, context: DispatchContext): Promise<ToolResult> {
      return dispatchCall(tools, settings, call, context, cwdMemo);
    },

    unregister(name: string): boolean {
      return tools.delete(name);
    },
  });
}
