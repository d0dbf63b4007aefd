import {
  type CompiledGlob,
  compileGlob,
  isValidGlob,
  type Predicate,
  safeCompilePredicate,
} from "@raw/predicate";
import {
  ContractError,
  deepFreeze,
  type Issue,
  isObjectRecord,
  nearestName,
  pointer,
  utf8Bytes,
} from "@raw/schema";
import { HOOK_EVENTS, type HookEvent, isHookEvent, isToolEvent } from "./events.js";
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_NAME_PATTERN,
  HOOK_PROTOCOL_VERSION,
  MAX_HOOK_ARG_BYTES,
  MAX_HOOK_ARGS,
  MAX_HOOK_COMMAND_BYTES,
  MAX_HOOK_EVENTS,
  MAX_HOOK_NAME_BYTES,
  MAX_HOOK_TIMEOUT_MS,
} from "./limits.js";

/** The JSON form of a subscription's predicate: `{ source, any, regex }` (predicate.md §1). */
export interface HookPredicateJson {
  readonly source: "arguments" | "effects";
  readonly any: string;
  readonly regex: string;
}

/** One parsed event subscription `{ name, match?, when? }` (hooks.md §5). */
export interface HookSubscription {
  /** The event. */
  readonly name: HookEvent;
  /** The identity glob (tool events only). */
  readonly match?: string;
  /** The predicate (tool events only). */
  readonly when?: HookPredicateJson;
}

/** The parsed manifest `{ protocol_version: 2, name, events, command, args, timeoutMs }` (hooks.md §3.2). */
export interface HookManifest {
  readonly protocol_version: 2;
  readonly name: string;
  readonly events: readonly HookSubscription[];
  readonly command: string;
  readonly args: readonly string[];
  readonly timeoutMs: number;
}

/** Options of `parseHookManifest`. */
export interface ParseHookManifestOptions {
  /** The name the manifest must have (the folder name, or the package export name). */
  expectedName?: string | undefined;
  /** The hook's selection ID used in messages (default: `expectedName`, else the manifest's valid name, else `hook`). */
  id?: string | undefined;
}

/** Result of `parseHookManifest`: the frozen manifest, or every issue found. */
export type HookManifestResult = { ok: true; manifest: HookManifest } | { ok: false; issues: Issue[] };

/** A subscription's glob and predicate, compiled once. */
export interface CompiledSubscription {
  readonly name: HookEvent;
  readonly glob: CompiledGlob | undefined;
  readonly predicate: Predicate | undefined;
}

/** The allowed top-level fields of `hook.json`, in validation order. */
export const HOOK_MANIFEST_FIELDS = [
  "protocol_version",
  "name",
  "events",
  "command",
  "args",
  "timeout_ms",
] as const;

const FIELDS: ReadonlySet<string> = new Set(HOOK_MANIFEST_FIELDS);
const EVENT_FIELDS: ReadonlySet<string> = new Set(["name", "match", "when"]);
const compiled = new WeakMap<HookSubscription, CompiledSubscription>();

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Amendment A9: the top-level `$schema` of `hook.json`, when it is a string, is an editor hint and is ignored. */
function isSchemaHint(object: Record<string, unknown>, key: string): boolean {
  return key === "$schema" && typeof Object.getOwnPropertyDescriptor(object, key)?.value === "string";
}

/** The "did you mean" hint for an unknown field `key`, when a known field is near it. */
function didYouMean(key: string, known: Iterable<string>): string | undefined {
  const near = nearestName(key, known);
  return near === undefined ? undefined : `did you mean \`${near}\`?`;
}

/** The hint of an invalid event name: the nearest event when there is one, and the valid list. */
function eventHint(name: unknown): string {
  const near = typeof name === "string" ? nearestName(name, HOOK_EVENTS) : undefined;
  const list = `the events are ${HOOK_EVENTS.join(", ")}`;
  return near === undefined ? `${list}.` : `did you mean \`${near}\`? ${list}.`;
}

function isBoundedString(value: unknown, maxBytes: number): value is string {
  return typeof value === "string" && value.length > 0 && utf8Bytes(value) <= maxBytes;
}

function defaultId(value: unknown): string {
  if (isObjectRecord(value)) {
    const name = own(value, "name");
    if (isBoundedString(name, MAX_HOOK_NAME_BYTES) && HOOK_NAME_PATTERN.test(name)) return name;
  }
  return "hook";
}

function parseSubscription(
  item: unknown,
  i: number,
  id: string,
  issues: Issue[],
): HookSubscription | undefined {
  const at = `/events/${i}`;
  const label = `${id}.events[${i}]`;
  const fail = (path: string, message: string, hint?: string): undefined => {
    issues.push(
      hint === undefined
        ? { code: "hook_event_invalid", message, path }
        : { code: "hook_event_invalid", message, path, hint },
    );
    return undefined;
  };
  if (!isObjectRecord(item)) return fail(at, `${label} must be an object`);
  let unknown = false;
  for (const key of Object.keys(item)) {
    if (!EVENT_FIELDS.has(key)) {
      fail(`${at}${pointer(key)}`, `unknown ${label} field: ${key}`, didYouMean(key, EVENT_FIELDS));
      unknown = true;
    }
  }
  if (unknown) return undefined;
  const name = own(item, "name");
  if (!isHookEvent(name)) return fail(`${at}/name`, `invalid hook event: ${label}`, eventHint(name));
  const match = own(item, "match");
  const when = own(item, "when");
  if ((match !== undefined || when !== undefined) && !isToolEvent(name)) {
    return fail(at, `${label} match/when requires a tool event`);
  }
  if (match !== undefined && !isValidGlob(match))
    return fail(`${at}/match`, `${label}.match must be a bounded string`);
  let predicate: Predicate | undefined;
  if (when !== undefined) {
    const result = safeCompilePredicate(when);
    if (!result.ok) {
      for (const issue of result.issues) issues.push({ ...issue, path: `${at}/when${issue.path ?? ""}` });
      return undefined;
    }
    predicate = result.predicate;
  }
  const subscription: { name: HookEvent; match?: string; when?: HookPredicateJson } = { name };
  if (match !== undefined) subscription.match = match;
  if (predicate) subscription.when = { source: predicate.source, any: predicate.any, regex: predicate.regex };
  compiled.set(subscription, {
    name,
    glob: match === undefined ? undefined : compileGlob(match),
    predicate,
  });
  return subscription;
}

/**
 * Validates a parsed `hook.json` value (hooks.md §3, §5) and reports **all** issues, each with a JSON Pointer:
 * the root check, unknown fields in key order, then `protocol_version`, `name`, `events` (the array, then each
 * item), `command`, `args` and `timeout_ms`. Subscription globs and predicates are compiled here, once.
 * Never throws for invalid input.
 */
export function parseHookManifest(
  value: unknown,
  options: ParseHookManifestOptions = {},
): HookManifestResult {
  const id = options.id ?? options.expectedName ?? defaultId(value);
  // Presence is own-property based (hooks.md §3.1 as tool-api.md §2.1): any non-array object gets field issues.
  if (!isObjectRecord(value)) {
    return {
      ok: false,
      issues: [{ code: "hook_manifest_not_object", message: `hook ${id} must be an object`, path: "" }],
    };
  }
  const issues: Issue[] = [];
  for (const key of Object.keys(value)) {
    // Amendment A9: a string `$schema` is an editor hint, accepted and ignored; any other value is unknown.
    if (!FIELDS.has(key) && !isSchemaHint(value, key)) {
      const hint = didYouMean(key, HOOK_MANIFEST_FIELDS);
      issues.push({
        code: "hook_manifest_unknown_field",
        message: `unknown hook ${id} field: ${key}`,
        path: pointer(key),
        ...(hint === undefined ? {} : { hint }),
      });
    }
  }

  if (own(value, "protocol_version") !== HOOK_PROTOCOL_VERSION) {
    issues.push({
      code: "hook_protocol_version_unsupported",
      message: `hook ${id} requires protocol_version 2`,
      path: "/protocol_version",
    });
  }

  const name = own(value, "name");
  if (!isBoundedString(name, MAX_HOOK_NAME_BYTES)) {
    issues.push({ code: "hook_invalid_name", message: `${id}.name must be a bounded string`, path: "/name" });
  } else if (
    !HOOK_NAME_PATTERN.test(name) ||
    (options.expectedName !== undefined && name !== options.expectedName)
  ) {
    issues.push({ code: "hook_invalid_name", message: `invalid hook name: ${id}`, path: "/name" });
  }

  const events = own(value, "events");
  const subscriptions: HookSubscription[] = [];
  if (!Array.isArray(events) || events.length < 1 || events.length > MAX_HOOK_EVENTS) {
    issues.push({
      code: "hook_invalid_events",
      message: `${id}.events must be a nonempty bounded array`,
      path: "/events",
    });
  } else {
    for (let i = 0; i < events.length; i++) {
      const subscription = parseSubscription(events[i], i, id, issues);
      if (subscription) subscriptions.push(subscription);
    }
  }

  const command = own(value, "command");
  if (!isBoundedString(command, MAX_HOOK_COMMAND_BYTES)) {
    issues.push({
      code: "hook_invalid_command",
      message: `${id}.command must be a bounded string`,
      path: "/command",
    });
  } else if (command.startsWith(".") && !command.startsWith("./")) {
    issues.push({ code: "hook_invalid_command", message: `invalid hook command: ${id}`, path: "/command" });
  } else if (!command.startsWith("./") && (command.includes("/") || command.includes("\\"))) {
    issues.push({
      code: "hook_invalid_command",
      message: `hook command must be on PATH or inside folder: ${id}`,
      path: "/command",
    });
  }

  const args = own(value, "args");
  if (
    args !== undefined &&
    (!Array.isArray(args) ||
      args.length > MAX_HOOK_ARGS ||
      !args.every((arg) => typeof arg === "string" && utf8Bytes(arg) <= MAX_HOOK_ARG_BYTES))
  ) {
    issues.push({ code: "hook_invalid_args", message: `invalid hook args: ${id}`, path: "/args" });
  }

  const timeout = own(value, "timeout_ms");
  if (
    timeout !== undefined &&
    !(Number.isSafeInteger(timeout) && (timeout as number) >= 1 && (timeout as number) <= MAX_HOOK_TIMEOUT_MS)
  ) {
    issues.push({
      code: "hook_invalid_timeout",
      message: `invalid hook timeout_ms: ${id}`,
      path: "/timeout_ms",
      hint: `timeout_ms must be an integer from 1 to ${MAX_HOOK_TIMEOUT_MS} (milliseconds).`,
    });
  }

  if (issues.length > 0) return { ok: false, issues };
  const manifest: HookManifest = {
    protocol_version: HOOK_PROTOCOL_VERSION,
    name: name as string,
    events: subscriptions,
    command: command as string,
    args: args === undefined ? [] : [...(args as string[])],
    timeoutMs: timeout === undefined ? DEFAULT_HOOK_TIMEOUT_MS : (timeout as number),
  };
  return { ok: true, manifest: deepFreeze(manifest) };
}

/**
 * The compiled glob and predicate of a subscription. Subscriptions produced by `parseHookManifest` were compiled
 * at parse time; any other (for example a copy) is compiled now. Throws `ContractError` for an invalid predicate.
 */
export function compileSubscription(subscription: HookSubscription): CompiledSubscription {
  const known = compiled.get(subscription);
  if (known) return known;
  const issues: Issue[] = [];
  const parsed = parseSubscription(subscription, 0, "hook", issues);
  const result = parsed ? compiled.get(parsed) : undefined;
  if (!result) throw ContractError.fromIssues(issues);
  compiled.set(subscription, result);
  return result;
}
