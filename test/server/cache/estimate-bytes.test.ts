// The byte estimate behind every server cache's bound (docs/operations.md#cache-budget).
import { describe, expect, it } from "vitest";
import { estimateBytes, HEAP_BYTES } from "../../../server/cache/estimate-bytes";

describe("estimateBytes", () => {
  it("counts a typed array's bytes exactly, plus its header", () => {
    expect(estimateBytes(new Float64Array(1000))).toBe(HEAP_BYTES.typedArray + 8000);
    expect(estimateBytes(new Uint16Array(10))).toBe(HEAP_BYTES.typedArray + 20);
  });

  it("adds objects' headers, slots, strings' characters and nested values", () => {
    const row = { a: 1, b: "xyz", c: new Float64Array(2) };
    const expected = HEAP_BYTES.object + 3 * HEAP_BYTES.slot + HEAP_BYTES.slot + (HEAP_BYTES.string + 3) + (HEAP_BYTES.typedArray + 16);
    expect(estimateBytes(row)).toBe(expected);
  });

  it("scales a sample of a large array or map to its length (linear in the length)", () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `t${i % 10}`, size: i }));
    const a = estimateBytes(rows(10_000));
    const b = estimateBytes(rows(20_000));
    expect(b / a).toBeCloseTo(2, 1);
    const map = new Map(rows(10_000).map((r, i) => [i, r]));
    expect(estimateBytes(map)).toBeGreaterThan(a);
  });

  it("survives cycles and counts a promise as one slot", () => {
    const o: Record<string, unknown> = { x: 1 };
    o.self = o;
    expect(Number.isFinite(estimateBytes(o))).toBe(true);
    expect(estimateBytes(Promise.resolve(new Float64Array(1e5)))).toBe(HEAP_BYTES.slot);
  });

  it("adds what `extra` says each object holds outside itself", () => {
    const inner = { v: 1 };
    const base = estimateBytes({ inner });
    expect(estimateBytes({ inner }, (obj) => (obj === inner ? 500 : 0))).toBe(base + 500);
  });
});
