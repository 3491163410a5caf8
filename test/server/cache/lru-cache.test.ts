// The server's one cache: least recently used out first, bounded by the bytes its values hold
// (issue 38 item 2: a count bound let 64 tapes of 60-140 MB each take a server to 3.95 GB).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LruCache, PENDING_ENTRY_BYTES } from "../../../server/cache/lru-cache";

/** A cache whose values are their own size in bytes (plus the entry's fixed overhead). */
const sized = (maxBytes: number, maxEntries?: number) => new LruCache<string, number>({ maxBytes, maxEntries, sizeOf: (v) => v });

describe("LruCache", () => {
  it("evicts the least recently used entry first; a read refreshes recency", () => {
    const c = new LruCache<string, number>({ maxBytes: 1 << 20, maxEntries: 2 });
    c.set("a", 1);
    c.set("b", 2);
    expect(c.get("a")).toBe(1); // "b" is now the oldest
    c.set("c", 3);
    expect(c.has("b")).toBe(false);
    expect([c.get("a"), c.get("c"), c.size]).toEqual([1, 3, 2]);
  });

  it("expires an entry at exactly its lifetime", () => {
    const c = new LruCache<string, number>({ maxBytes: 1 << 20, ttlMs: 1000 });
    c.set("k", 7, 5000);
    expect(c.get("k", 5999)).toBe(7);
    expect(c.get("k", 6000)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it("delete forgets one key and says whether it was there", () => {
    const c = new LruCache<string, number>({ maxBytes: 1 << 20 });
    c.set("x", 1);
    c.set("y", 2);
    expect(c.delete("x")).toBe(true);
    expect(c.delete("x")).toBe(false);
    expect([c.has("x"), c.get("y"), c.size]).toEqual([false, 2, 1]);
  });

  it("evicts by bytes, least recently used first, whatever the count", () => {
    const c = sized(10_000);
    c.set("a", 4_000);
    c.set("b", 4_000);
    c.get("a"); // "b" is now the oldest
    c.set("c", 4_000); // 12,000+ > 10,000: one must go
    expect([c.has("a"), c.has("b"), c.has("c")]).toEqual([true, false, true]);
    expect(c.bytes).toBeLessThanOrEqual(10_000);
    expect(c.bytes).toBeGreaterThan(8_000);
  });

  it("does not keep a value larger than the whole budget (and drops the key it replaces)", () => {
    const c = sized(10_000);
    c.set("small", 100);
    c.set("huge", 20_000);
    expect(c.has("huge")).toBe(false);
    expect(c.has("small")).toBe(true);
    c.set("small", 50_000);
    expect([c.has("small"), c.size, c.bytes]).toEqual([false, 0, 0]);
  });

  it("on any sequence of sets, gets and deletes the tracked bytes never exceed the budget", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 50_000 }),
        fc.array(fc.tuple(fc.constantFrom("set", "get", "delete"), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 80_000 })), { maxLength: 200 }),
        (maxBytes, ops) => {
          const c = sized(maxBytes);
          for (const [op, k, bytes] of ops) {
            if (op === "set") c.set(`k${k}`, bytes);
            else if (op === "get") c.get(`k${k}`);
            else c.delete(`k${k}`);
            expect(c.bytes).toBeLessThanOrEqual(maxBytes);
          }
          // An entry larger than the budget is never held.
          for (let k = 0; k <= 30; k++) {
            const v = c.get(`k${k}`);
            if (v !== undefined) expect(v).toBeLessThan(maxBytes);
          }
        },
      ),
    );
  });

  it("sizes a promise by what it resolves to, and drops it then when it is over the budget", async () => {
    const c = new LruCache<string, Promise<Float64Array>>({ maxBytes: 100_000 });
    let resolveBig!: (v: Float64Array) => void;
    const big = new Promise<Float64Array>((r) => (resolveBig = r));
    const small = Promise.resolve(new Float64Array(1000)); // 8,000 bytes
    c.set("big", big);
    c.set("small", small);
    // Pending: shared by concurrent callers, counted at a fixed small size.
    expect(c.get("big")).toBe(big);
    expect(c.bytes).toBeLessThan(3 * PENDING_ENTRY_BYTES);
    await small;
    await new Promise((r) => setTimeout(r, 0));
    expect(c.bytes).toBeGreaterThan(8_000);
    resolveBig(new Float64Array(20_000)); // 160,000 bytes: over the budget
    await big;
    await new Promise((r) => setTimeout(r, 0));
    expect(c.has("big")).toBe(false);
    expect(c.has("small")).toBe(true);
    expect(c.bytes).toBeLessThanOrEqual(100_000);
  });

  it("a size that arrives after the key was replaced does not touch the new entry", async () => {
    const c = new LruCache<string, unknown>({ maxBytes: 50_000 });
    let resolveOld!: (v: Float64Array) => void;
    c.set("k", new Promise<Float64Array>((r) => (resolveOld = r)));
    c.set("k", "fresh");
    resolveOld(new Float64Array(100_000));
    await new Promise((r) => setTimeout(r, 0));
    expect(c.get("k")).toBe("fresh");
  });
});
