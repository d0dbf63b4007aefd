/**
 * Time as the panel host and the interaction service see it: the current time in epoch milliseconds and one-shot
 * timers. Tests inject a fake clock so coalescing and deadlines are deterministic.
 */
export interface Clock {
  /** The current time in epoch milliseconds. */
  now(): number;
  /** Runs `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer created by `setTimeout` (a handle that already fired is ignored). */
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now()` and the global timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
