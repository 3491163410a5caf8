/**
 * A bounded map that forgets the least recently used entry first, with an optional lifetime per
 * entry. Server-side memo only (heatmap frames, finished daily-statistics sessions).
 * @example const c = new LruCache<string, number>(1000, 5000); c.set("k", 1, nowMs); c.get("k", nowMs)
 */
export class LruCache<K, V> {
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #map = new Map<K, { value: V; expiresMs: number }>();

  /** @param maxEntries capacity; @param ttlMs lifetime in ms (Infinity: until evicted) */
  constructor(maxEntries: number, ttlMs = Infinity) {
    this.#max = Math.max(1, maxEntries);
    this.#ttlMs = ttlMs;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The value, if present and not expired at `nowMs`. */
  get(key: K, nowMs = 0): V | undefined {
    const e = this.#map.get(key);
    if (!e) return undefined;
    if (e.expiresMs <= nowMs) {
      this.#map.delete(key);
      return undefined;
    }
    this.#map.delete(key);
    this.#map.set(key, e);
    return e.value;
  }

  has(key: K, nowMs = 0): boolean {
    return this.get(key, nowMs) !== undefined;
  }

  /** Forgets `key` (e.g. a memoised promise that failed, so the next call retries). */
  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  set(key: K, value: V, nowMs = 0): void {
    this.#map.delete(key);
    this.#map.set(key, { value, expiresMs: nowMs + this.#ttlMs });
    while (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next().value as K;
      this.#map.delete(oldest);
    }
  }
}
