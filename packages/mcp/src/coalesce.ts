/**
 * A task that many notices may ask for, run at most once at a time with at most one run queued: a notice while a
 * run is in flight queues one more run (which sees everything the notices announced); further notices join that
 * queued run. However many notices a peer sends, the work is two runs, never one per notice. Calling it asks for a
 * run and resolves when a run that started after the call has finished; it never rejects.
 */
export type CoalescedTask = () => Promise<void>;

/** Coalesces `task` (see `CoalescedTask`); a failure of `task` is its own to report: it never rejects the callers. */
export function coalesce(task: () => Promise<void> | void): CoalescedTask {
  let inFlight: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const run = (async () => {
      try {
        await task();
      } catch {
        // The task reports its own failures.
      }
    })();
    inFlight = run.finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
  return () => {
    if (queued !== undefined) return queued;
    if (inFlight === undefined) return start();
    queued = inFlight.then(() => {
      queued = undefined;
      return start();
    });
    return queued;
  };
}
