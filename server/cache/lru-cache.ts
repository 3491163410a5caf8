/**
 * A map bounded by the bytes its values hold (npm `lru-cache`'s `maxSize`): the least recently
 * used entries go first once the estimated total would pass `maxBytes`, and a value larger than
 * `maxBytes` is not kept at all. Optionally also bounded by entry count and a lifetime per entry
 * (against the caller's clock). Server-side memo only: every server cache is one of these, with
 * its share of the app's cache budget (`cache-budget.ts`).
 *
 * A value's size is `sizeOf(value)`, by default `estimateBytes`. A promise (or a size function that
 * answers one) is kept at `PENDING_ENTRY_BYTES` until it settles, then sized by what it resolved
 * to (and dropped if that is over `maxBytes`), so concurrent callers still share one build.
 * @see docs/operations.md#cache-budget
 * @example const c = new LruCache<string, number>({ maxBytes: 1 << 20, ttlMs: 5000 }); c.set("k", 1, nowMs); c.get("k", nowMs)
 */
import { LRUCache } from "lru-cache";
import { memoizedJsonBytes } from "../http/json-body";
import { estimateBytes } from "./estimate-bytes";

/** Bytes counted for a value still being built (a pending promise). */
export const PENDING_ENTRY_BYTES = 1024;
/** Bytes of the entry itself besides its value and key (lru-cache's slots, our wrapper). */
const ENTRY_OVERHEAD_BYTES = 96;

/** Settings of one cache. */
export interface LruCacheOptions<V> {
  /** The bytes its values may hold together (estimated); at least 1. */
  maxBytes: number;
  /** Also at most this many entries (default: bytes only). */
  maxEntries?: number;
  /** Lifetime of an entry in the caller's clock, ms (default: until evicted). */
  ttlMs?: number;
  /** Bytes a value holds, or a promise of them (default: `estimateBytes` of the value, or of what it resolves to). */
  sizeOf?: (value: V) => number | Promise<number>;
}

interface Entry<V> {
  value: V;
  expiresMs: number;
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
}

/** `estimateBytes` of a settled value, with the JSON text memoized for its parts. */
function settledBytes(value: unknown): number {
  return estimateBytes(value, memoizedJsonBytes);
}

/** `estimateBytes` of the value, or (a promise) of what it resolves to, with its memoized JSON texts. */
function defaultSizeOf(value: unknown): number | Promise<number> {
  return isThenable(value) ? Promise.resolve(value).then(settledBytes) : settledBytes(value);
}

function whole(bytes: number): number {
  return Number.isFinite(bytes) ? Math.max(1, Math.ceil(bytes)) : Number.MAX_SAFE_INTEGER;
}

export class LruCache<K extends {}, V> {
  readonly maxBytes: number;
  readonly #ttlMs: number;
  readonly #sizeOf: (value: V) => number | Promise<number>;
  readonly #maxEntries: number;
  readonly #lru: LRUCache<K, Entry<V>>;

  constructor(options: LruCacheOptions<V>) {
    this.maxBytes = whole(options.maxBytes);
    this.#ttlMs = options.ttlMs ?? Infinity;
    this.#sizeOf = options.sizeOf ?? defaultSizeOf;
    this.#maxEntries = options.maxEntries !== undefined ? Math.max(1, options.maxEntries) : Infinity;
    // The entry count is enforced in `set`, not by lru-cache's `max`: with `max` it allocates its
    // slots for every entry up front (200,000 of them cost 100 ms per app), without it they grow.
    this.#lru = new LRUCache<K, Entry<V>>({ maxSize: this.maxBytes });
  }

  /** Entries held. */
  get size(): number {
    return this.#lru.size;
  }

  /** Estimated bytes held (never above `maxBytes`). */
  get bytes(): number {
    return this.#lru.calculatedSize;
  }

  /** The value, if present and not expired at `nowMs`. */
  get(key: K, nowMs = 0): V | undefined {
    const e = this.#lru.get(key);
    if (!e) return undefined;
    if (e.expiresMs <= nowMs) {
      this.#lru.delete(key);
      return undefined;
    }
    return e.value;
  }

  has(key: K, nowMs = 0): boolean {
    return this.get(key, nowMs) !== undefined;
  }

  /** Forgets `key` (e.g. a memoised promise that failed, so the next call retries). */
  delete(key: K): boolean {
    return this.#lru.delete(key);
  }

  /** Keeps `value` (most recently used), evicting the least recently used entries to stay within `maxBytes`. */
  set(key: K, value: V, nowMs = 0): void {
    const entry: Entry<V> = { value, expiresMs: nowMs + this.#ttlMs };
    const keyBytes = typeof key === "string" ? key.length + 16 : 8;
    const size = this.#sizeOf(value);
    if (!isThenable(size)) {
      this.#lru.set(key, entry, { size: whole(size + keyBytes + ENTRY_OVERHEAD_BYTES) });
      this.#trimToMaxEntries();
      return;
    }
    this.#lru.set(key, entry, { size: PENDING_ENTRY_BYTES + keyBytes });
    this.#trimToMaxEntries();
    size.then(
      (bytes) => {
        // Resize only the entry this call made (a later set or a delete wins); over maxBytes it is dropped.
        // (lru-cache re-sizes only on a new value object, hence the copy.)
        if (this.#lru.peek(key) !== entry) return;
        this.#lru.set(key, { ...entry }, { size: whole(bytes + keyBytes + ENTRY_OVERHEAD_BYTES) });
      },
      () => {
        // A failed value: its owner deletes it (or not); nothing to size.
      },
    );
  }

  /** Evicts the least recently used entries past `maxEntries`. */
  #trimToMaxEntries(): void {
    while (this.#lru.size > this.#maxEntries) this.#lru.pop();
  }
}
