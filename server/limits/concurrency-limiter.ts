/**
 * In-process concurrency slots per account and kind (historical replays in flight, streamed
 * symbols). A slot is held from acquire to release; release is idempotent so the pipeline can
 * call it from both the finish and the abort paths. See docs/api.md#limits.
 */
import { SLOT_STREAM_SYMBOLS, type ConcurrencyLimiter, type SlotRelease } from "../accounts/types";

/** The in-process limiter answers synchronously. */
export interface InProcessConcurrencyLimiter extends ConcurrencyLimiter {
  tryAcquire(accountId: string, kind: string, max: number, units?: number): SlotRelease | null;
  inUse(accountId: string, kind: string): number;
}

/**
 * Create a limiter.
 * @example
 * const slots = createConcurrencyLimiter();
 * const release = slots.tryAcquire("acct_1", "historical", 2); // null when 2 are in flight
 * release?.(); release?.(); // the second call does nothing
 */
export function createConcurrencyLimiter(): InProcessConcurrencyLimiter {
  const held = new Map<string, number>();
  const slot = (accountId: string, kind: string) => `${kind}\u0000${accountId}`;

  return {
    tryAcquire(accountId, kind, max, units = 1) {
      const k = slot(accountId, kind);
      const n = Math.max(1, Math.floor(units));
      const current = held.get(k) ?? 0;
      if (current + n > max) return null;
      held.set(k, current + n);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(k) ?? 0) - n;
        if (left > 0) held.set(k, left);
        else held.delete(k);
      };
    },
    inUse: (accountId, kind) => held.get(slot(accountId, kind)) ?? 0,
  };
}

/**
 * Symbols an account currently streams (for `streamSymbolsConcurrent`).
 * @example streamSymbolsInUse(slots, "acct_1") // 0
 */
export function streamSymbolsInUse(limiter: ConcurrencyLimiter, accountId: string): number | Promise<number> {
  return limiter.inUse(accountId, SLOT_STREAM_SYMBOLS);
}
