import { describe, expect, it } from "vitest";
import { LruCache } from "../../../server/cache/lru-cache";

describe("LruCache", () => {
  it("evicts the least recently used entry first; a read refreshes recency", () => {
    const c = new LruCache<string, number>(2);
    c.set("a", 1);
    c.set("b", 2);
    expect(c.get("a")).toBe(1); // "b" is now the oldest
    c.set("c", 3);
    expect(c.has("b")).toBe(false);
    expect([c.get("a"), c.get("c"), c.size]).toEqual([1, 3, 2]);
  });

  it("expires an entry at exactly its lifetime", () => {
    const c = new LruCache<string, number>(10, 1000);
    c.set("k", 7, 5000);
    expect(c.get("k", 5999)).toBe(7);
    expect(c.get("k", 6000)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it("delete forgets one key and says whether it was there", () => {
    const c = new LruCache<string, number>(10);
    c.set("x", 1);
    c.set("y", 2);
    expect(c.delete("x")).toBe(true);
    expect(c.delete("x")).toBe(false);
    expect([c.has("x"), c.get("y"), c.size]).toEqual([false, 2, 1]);
  });
});
