/**
 * Time as the panel host and the interaction service see it: the current time in epoch milliseconds and one-shot
 * timers. Tests inject a fake clock so coalescing and deadlines are deterministic.
 *
 * `now()` is wall-clock time: it stamps `createdAt` and the persisted `deadline` of a request, which is all that
 * outlives a process. `setTimeout` measures a duration and must not follow wall-clock jumps (Node's timers run on a
 * monotonic clock): the interaction service ends a request it waits for when its own timer fires, so a wall clock
 * set forward never ends a live request early and one set back never keeps it open past its `timeout_ms`.
 */
export interface Clock {
  /** The current wall-clock time in epoch milliseconds (it may jump when the system clock is set). */
  now(): number;
  /** Runs `callback` once after `ms` milliseconds of elapsed (monotonic) time; returns a handle for `clearTimeout`. */
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
