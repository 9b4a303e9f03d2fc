/**
 * A value now, or a promise of it when getting it needs I/O. For the few hot paths where a
 * promise and a microtask on every call would cost more than the work: callers test
 * `instanceof Promise` and go on synchronously otherwise.
 */
export type MaybePromise<T> = T | Promise<T>;

/** Calls `then` with the value, at once when it is one; `fail` when its promise rejects. */
export function settle<T>(
  value: MaybePromise<T>,
  then: (value: T) => void,
  fail: (error: unknown) => void,
): void {
  if (value instanceof Promise) value.then(then, fail);
  else then(value);
}
