import { type ObjectValidator, snapshotJson, thrownMessage } from "@raw/schema";
import { MAX_EFFECTS_BYTES } from "./limits.js";

/** An effects descriptor: `describeEffects(args, { cwd })` (effects.md §3). */
export type EffectsDescriptor = (args: any, context: Readonly<{ cwd: string }>) => unknown;

/** Validates an effects snapshot: a compiled `ObjectValidator` (its `test` is used) or a predicate. */
export type EffectsValidator = Pick<ObjectValidator, "test"> | ((value: unknown) => boolean);

/** Input of `prepareEffects`. */
export interface PrepareEffectsInput {
  /** The tool's model-facing name, used in messages. */
  toolName: string;
  /** The registration's descriptor; called exactly once. */
  describeEffects: EffectsDescriptor;
  /** The frozen, validated argument snapshot. */
  arguments: unknown;
  /** The absolute, lexically normalized session working directory. */
  cwd: string;
  /** The compiled effects schema. A predicate must return `true` for a valid snapshot. */
  validate: EffectsValidator;
}

/** Codes of a failed preparation (effects.md §4). */
export type PrepareEffectsCode = "invalid_effects" | "effects_error";

/** Outcome of `prepareEffects`: the deep-frozen snapshot, or a code and message. */
export type PrepareEffectsResult =
  | { ok: true; effects: unknown }
  | { ok: false; code: PrepareEffectsCode; message: string };

function noop(): void {}

/**
 * The effects preparation step of the dispatcher (effects.md §4): calls the descriptor once with
 * `(args, Object.freeze({ cwd }))`, refuses thenables (observing their rejection), takes the JSON round-trip
 * snapshot (at most `MAX_EFFECTS_BYTES`), validates it and deep-freezes it. Never throws.
 */
export function prepareEffects(input: PrepareEffectsInput): PrepareEffectsResult {
  const name = input.toolName;
  try {
    // 1. One call, with no `this` (the host's input object is not the descriptor's business).
    const describe = input.describeEffects;
    const value: unknown = describe(input.arguments, Object.freeze({ cwd: input.cwd }));

    // 2. Thenables: never awaited, but their rejection is observed.
    if ((typeof value === "object" && value !== null) || typeof value === "function") {
      const then = (value as { then?: unknown }).then;
      if (typeof then === "function") {
        Reflect.apply(then, value, [undefined, noop]);
        return {
          ok: false,
          code: "invalid_effects",
          message: "effects descriptors must return synchronously",
        };
      }
    }

    // 3–5 and 7. Serialize, measure, parse back (one direct copy for plain data), frozen as it is built.
    const snapshot = snapshotJson(value, { maxBytes: MAX_EFFECTS_BYTES, freeze: true });
    if (!snapshot.ok) {
      if (snapshot.reason === "unserializable") throw snapshot.error;
      if (snapshot.reason === "too_large") {
        return { ok: false, code: "invalid_effects", message: "effects exceed 64 KiB" };
      }
      return { ok: false, code: "invalid_effects", message: `invalid intended effects for ${name}` };
    }

    // 6. Validate the parsed snapshot.
    const validate = input.validate;
    const valid = typeof validate === "function" ? validate(snapshot.value) : validate.test(snapshot.value);
    if (valid !== true) {
      return { ok: false, code: "invalid_effects", message: `invalid intended effects for ${name}` };
    }

    // 7. The snapshot is already deep-frozen.
    return { ok: true, effects: snapshot.value };
  } catch (error) {
    return { ok: false, code: "effects_error", message: `cannot describe ${name}: ${thrownMessage(error)}` };
  }
}
