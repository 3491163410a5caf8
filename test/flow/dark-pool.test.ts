// The pure dark-pool pieces: cursor text round trip and its refusal of anything else, time paging
// on a hand-built tape (no gap or repeat either way), ranking, and the level buckets.
import { describe, expect, it } from "vitest";
import { autoLevelBucket, bucketFloor, bucketLevels, darkPoolLevels, levelTotals, rankedLevels, type LevelBook } from "../../lib/flow/dark-pool-levels";
import { dailyPctAvgVol, darkPoolDailyRows } from "../../lib/flow/dark-pool-daily";
import { decodeDarkPoolCursor, encodeDarkPoolCursor, pageByRank, pageByTime, pctOfAvgVolume, printNotionalUsd, type DarkPoolRow } from "../../lib/flow/dark-pool-trades";
import { FlowError } from "../../lib/flow";

const row = (i: number, price = 10, size = 100): DarkPoolRow => ({
  id: `r${String(i).padStart(3, "0")}`,
  tsMs: 1_700_000_000_000 + Math.floor(i / 2),
  tsNs: String(1_700_000_000_000_000_000n + BigInt(Math.floor(i / 2)) * 1_000_000n),
  ticker: "AAA",
  price,
  size,
  notionalUsd: price * size,
  venue: "FINN",
  sector: "Energy",
  industry: "Oil",
});
const tape = Array.from({ length: 25 }, (_, i) => row(i, 10 + (i % 7), 100 * (((i * 3) % 11) + 1)));

describe("printNotionalUsd", () => {
  it("rounds the decimal notional to the cent, half a cent up, whatever the binary product reads", () => {
    // 145.545 x 131 is 19066.394999... in binary: a rounding of the product gave .39.
    expect(printNotionalUsd(145.545, 131)).toBe(19066.4);
    expect(printNotionalUsd(72.7725, 262)).toBe(19066.4);
    expect(printNotionalUsd(100.0851, 150)).toBe(15012.77);
    expect(printNotionalUsd(3002.553, 5)).toBe(15012.77);
    expect(printNotionalUsd(10.004, 1)).toBe(10);
    expect(printNotionalUsd(10.005, 1)).toBe(10.01);
    expect(printNotionalUsd(50_000.1235, 10_000_000)).toBe(500_001_235_000);
  });
  it("equals exact decimal half-up rounding for 4-decimal prices and whole sizes", () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 20_000; i++) {
      const priceE4 = 1 + (next() % 5_000_000);
      const size = 1 + (next() % 50_000);
      const exact = (BigInt(priceE4) * BigInt(size) * 100n + 5_000n) / 10_000n; // cents, half up
      expect(printNotionalUsd(priceE4 / 1e4, size)).toBe(Number(exact) / 100);
    }
  });
});

describe("cursors", () => {
  it("round-trip and refuse made-up text", () => {
    const c = { order: "desc" as const, tsNs: "1700000000000000000", id: "SPY-d-1-2" };
    expect(decodeDarkPoolCursor(encodeDarkPoolCursor(c))).toEqual(c);
    for (const bad of ["", "abc", btoa("dp1|up|1|x"), btoa("dp2|asc|1|x")]) expect(() => decodeDarkPoolCursor(bad)).toThrow(FlowError);
  });
});

describe("pageByTime", () => {
  it("walks every row once, in order, either way (rows sharing a millisecond ordered by id)", () => {
    for (const order of ["asc", "desc"] as const) {
      const seen: string[] = [];
      let cursor: ReturnType<typeof decodeDarkPoolCursor> | undefined;
      for (let n = 0; n < 10; n++) {
        const p = pageByTime(tape, { order, limit: 4, offset: 0, cursor });
        seen.push(...p.rows.map((r) => r.id));
        if (!p.nextCursor) break;
        cursor = decodeDarkPoolCursor(p.nextCursor);
      }
      const ids = tape.map((r) => r.id);
      expect(seen).toEqual(order === "asc" ? ids : [...ids].reverse());
    }
  });
  it("asc always returns a cursor and later rows extend the walk; a wrong-order cursor is refused", () => {
    const first = pageByTime(tape.slice(0, 10), { order: "asc", limit: 50, offset: 0 });
    const next = pageByTime(tape, { order: "asc", limit: 50, offset: 0, cursor: decodeDarkPoolCursor(first.nextCursor!) });
    expect(next.rows.map((r) => r.id)).toEqual(tape.slice(10).map((r) => r.id));
    expect(pageByTime([], { order: "asc", limit: 5, offset: 0 }).nextCursor).not.toBeNull();
    expect(() => pageByTime(tape, { order: "desc", limit: 5, offset: 0, cursor: decodeDarkPoolCursor(first.nextCursor!) })).toThrow(FlowError);
  });
});

describe("ranking, percent of ADV, levels, daily rows", () => {
  it("pageByRank orders by notional then pages by offset", () => {
    const all = pageByRank(tape, { sort: "notional", order: "desc", limit: 100, offset: 0 });
    for (let i = 1; i < all.length; i++) expect(all[i - 1].notionalUsd).toBeGreaterThanOrEqual(all[i].notionalUsd);
    expect(pageByRank(tape, { sort: "notional", order: "desc", limit: 5, offset: 5 })).toEqual(all.slice(5, 10));
  });
  it("pctOfAvgVolume and dailyPctAvgVol", () => {
    expect(pctOfAvgVolume(15_530, 100_000)).toBe(15.53);
    expect(pctOfAvgVolume(10, null)).toBeNull();
    expect(dailyPctAvgVol({ shares: 3_000_000, days: 2 }, 10_000_000)).toBe(15);
  });
  it("bucket edges and the automatic width", () => {
    expect(autoLevelBucket(500)).toBe(1);
    expect(autoLevelBucket(50)).toBe(0.1);
    expect(autoLevelBucket(5)).toBe(0.01);
    expect(bucketFloor(12.3, 0.1)).toBe(12.3);
    expect(bucketFloor(12.39, 0.1)).toBe(12.3);
    const lv = darkPoolLevels(
      [
        { price: 10.04, size: 100, notionalUsd: 1004 },
        { price: 10.09, size: 200, notionalUsd: 2018 },
        { price: 10.1, size: 1, notionalUsd: 10.1 },
      ],
      0.1,
      "notional",
    );
    expect(lv.levels.map((l) => [l.price, l.prints, l.shares])).toEqual([
      [10, 2, 300],
      [10.1, 1, 1],
    ]);
    expect(lv.totalShares).toBe(301);
  });
  it("levels built a part (a day) at a time equal the levels of the whole window, to the bit", () => {
    // The route buckets a window day by day with the loop's other work in between (dark-pool-levels.ts).
    const cuts = [0, 3, 3, Math.floor(tape.length / 2), tape.length - 1, tape.length];
    const parts = cuts.slice(1).map((c, i) => tape.slice(cuts[i], c));
    for (const bucket of [null, 0.05]) {
      const whole = darkPoolLevels(tape, bucket, "block_notional");
      const totals = levelTotals(parts);
      const width = bucket ?? autoLevelBucket(totals.vwap);
      const book: LevelBook = new Map();
      for (const part of parts) bucketLevels(book, part, width);
      expect(rankedLevels(book, totals, width, "block_notional")).toEqual(whole);
      expect(whole.levels.length).toBeGreaterThan(1);
    }
  });
  it("daily rows sum per ticker and day, or per ticker over the range", () => {
    const p = (ticker: string, price: number, size: number) => ({ ticker, price, size, notionalUsd: price * size });
    const days = [
      ["2024-03-04", [p("A", 10, 200_000), p("B", 5, 10)]],
      ["2024-03-05", [p("A", 20, 10)]],
    ] as const;
    const describe_ = () => ({ sector: "S", industry: "I" });
    const byDay = darkPoolDailyRows(days, "day", describe_);
    expect(byDay).toHaveLength(3);
    const byTicker = darkPoolDailyRows(days, "ticker", describe_).find((r) => r.ticker === "A")!;
    expect(byTicker).toMatchObject({ date: null, prints: 2, shares: 200_010, notional: 2_000_200, blockPrints: 1, largestPrint: 2_000_000, days: 2 });
    expect(byTicker.vwap).toBeCloseTo(2_000_200 / 200_010, 4);
  });
});
