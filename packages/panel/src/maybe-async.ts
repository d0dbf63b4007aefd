/** A value that a store may return at once or as a promise (the async store contract, `panels.md` §13.5). */
export type MaybePromise<T> = T | PromiseLike<T>;

/** Whether `value` is a promise-like (has a callable `then`). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Applies `next` to `value`: synchronously when `value` is a plain value (so a synchronous store keeps the
 * service synchronous), after it resolves when it is a promise. A synchronous throw of `next` stays synchronous.
 */
export function chain<T, U>(value: MaybePromise<T>, next: (resolved: T) => MaybePromise<U>): MaybePromise<U> {
  if (isThenable(value)) return Promise.resolve(value).then(next);
  return next(value as T);
}

/** Like `chain`, with `recover` called instead of `next` on a synchronous throw or a rejection of `run`. */
export function attempt<T, U>(
  run: () => MaybePromise<T>,
  next: (resolved: T) => MaybePromise<U>,
  recover: (error: unknown) => MaybePromise<U>,
): MaybePromise<U> {
  let value: MaybePromise<T>;
  try {
    value = run();
  } catch (error) {
    return recover(error);
  }
  if (isThenable(value)) return Promise.resolve(value).then(next, recover);
  return next(value as T);
}
