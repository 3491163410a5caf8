/**
 * A small least-recently-used memo for pure results (per market instance, never global).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  /** The cached value, if any, without touching its recency. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** The cached value, or `make()` stored and returned. */
  get(key: K, make: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make();
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
    return value;
  }
}
