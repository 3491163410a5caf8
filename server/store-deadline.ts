/**
 * The deadline of one store call: a store that does not answer (a stopped or unreachable
 * PostgreSQL whose driver keeps the call queued while it reconnects, a connection left half-open)
 * must not hold a request. Past the deadline the caller gets a `StoreTimeoutError`, an outage for
 * `isStoreOutage` (503 with `Retry-After`); the call itself is not stopped, so a caller that
 * wrote must settle what it may have written (the PostgreSQL group commit compensates).
 * See docs/operations.md#store-deadline.
 */

/** Default deadline of one accounts-store call, ms (`--store-timeout-ms`; docs/operations.md#store-deadline). */
export const DEFAULT_STORE_TIMEOUT_MS = 5000;

/** A store call passed its deadline (code `STORE_TIMEOUT`). */
export class StoreTimeoutError extends Error {
  readonly code = "STORE_TIMEOUT";
  constructor(readonly timeoutMs: number) {
    super(`The store did not answer within ${timeoutMs} ms.`);
    this.name = "StoreTimeoutError";
  }
}

/**
 * `work`'s outcome, or a `StoreTimeoutError` once `timeoutMs` have passed first. A deadline that
 * is not a positive finite number waits for `work` as it is.
 * @example const rows = await withDeadline(sql`SELECT 1`, 5000);
 */
export function withDeadline<T>(work: PromiseLike<T>, timeoutMs: number): Promise<T> {
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) return Promise.resolve(work);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreTimeoutError(timeoutMs)), timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
