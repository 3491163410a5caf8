/**
 * "Last used" for the console's key list without a write on the request path: successful
 * authentications are remembered in memory and written to the store in one small transaction
 * every `flushEveryMs` (and on `flush()`). A failed write keeps the times for the next flush.
 * See docs/operations.md#console-keys.
 */
import type { AccountService } from "../accounts/types";

export interface KeyUseTracker {
  /** The service with `authenticate` recording each key it accepts. */
  wrap<S extends Pick<AccountService, "authenticate">>(service: S): S;
  /** Write what is pending now (resolves once written or kept for the next flush). */
  flush(): Promise<void>;
  /** Stop the timer after a last flush. */
  stop(): Promise<void>;
}

export function createKeyUseTracker(
  write: (uses: ReadonlyMap<string, number>) => void | Promise<void>,
  options: { now?: () => number; flushEveryMs?: number } = {},
): KeyUseTracker {
  const now = options.now ?? Date.now;
  let pending = new Map<string, number>();
  /** Store busy, closed or unreachable: keep the newest times for the next attempt. */
  const keep = (batch: ReadonlyMap<string, number>) => {
    for (const [k, t] of batch) if ((pending.get(k) ?? 0) < t) pending.set(k, t);
  };
  const flush = (): Promise<void> => {
    if (pending.size === 0) return Promise.resolve();
    const batch = pending;
    pending = new Map();
    try {
      const written = write(batch);
      // A networked store answers later; its failure is kept the same way.
      return written instanceof Promise
        ? written.then(
            () => {},
            () => keep(batch),
          )
        : Promise.resolve();
    } catch {
      keep(batch);
      return Promise.resolve();
    }
  };
  const timer = setInterval(() => void flush(), options.flushEveryMs ?? 30_000);
  timer.unref?.();
  return {
    wrap(service) {
      return {
        ...service,
        authenticate(header: string | null | undefined) {
          const principal = service.authenticate(header);
          if (principal instanceof Promise) {
            return principal.then((p) => {
              pending.set(p.keyId, now());
              return p;
            });
          }
          pending.set(principal.keyId, now());
          return principal;
        },
      };
    },
    flush,
    stop() {
      clearInterval(timer);
      return flush();
    },
  };
}
