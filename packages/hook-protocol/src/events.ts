/** The seven hook events of raw.hook/2 (hooks.md §1), in specification order. */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SessionEnd",
] as const;

/** A hook event name. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The gate events: a hook can deny them or fail closed (hooks.md §1). */
export const GATE_EVENTS = ["UserPromptSubmit", "PreToolUse"] as const;

/** A gate event name. */
export type GateEvent = (typeof GATE_EVENTS)[number];

/** The tool events: they carry a `tool` object and may use `match`/`when` (hooks.md §1, §5). */
export const TOOL_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure"] as const;

/** A tool event name. */
export type ToolEvent = (typeof TOOL_EVENTS)[number];

const EVENT_SET: ReadonlySet<string> = new Set(HOOK_EVENTS);
const GATE_SET: ReadonlySet<string> = new Set(GATE_EVENTS);
const TOOL_SET: ReadonlySet<string> = new Set(TOOL_EVENTS);

/** True when `value` is one of the seven event names. */
export function isHookEvent(value: unknown): value is HookEvent {
  return typeof value === "string" && EVENT_SET.has(value);
}

/** True for the gate events `UserPromptSubmit` and `PreToolUse`. */
export function isGateEvent(event: string): event is GateEvent {
  return GATE_SET.has(event);
}

/** True for the tool events `PreToolUse`, `PostToolUse` and `PostToolUseFailure`. */
export function isToolEvent(event: string): event is ToolEvent {
  return TOOL_SET.has(event);
}
