import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankTopContracts, type TopContractFiltersInput, type TopContractRow } from "../../lib/flow/rollups";
import { topK } from "../../lib/flow/top-k";

/** The screener as it was before the bounded selection: filter, full stable sort, slice. */
function fullSortRank(rows: readonly TopContractRow[], f: Required<Pick<TopContractFiltersInput, "limit" | "orderBy" | "order">> & TopContractFiltersInput) {
  const inRange = (x: number, lo?: number, hi?: number) => (lo === undefined || x >= lo) && (hi === undefined || x <= hi);
  const kept = rows.filter(
    (r) =>
      (f.ticker === undefined || r.ticker === f.ticker) &&
      inRange(r.totalPremium, f.minPremium, f.maxPremium) &&
      inRange(r.totalVolume, f.minVolume, f.maxVolume) &&
      (f.right === undefined || r.right === f.right) &&
      (!f.onlySweeps || r.sweepVolume > 0) &&
      (!f.excludeMultiLeg || r.multiLegVolume === 0),
  );
  const key = (r: TopContractRow) =>
    f.orderBy === "premium" ? r.totalPremium : f.orderBy === "volume" ? r.totalVolume : f.orderBy === "oi" ? r.openInterest : r.iv;
  const sign = f.order === "asc" ? 1 : -1;
  kept.sort((a, b) => sign * (key(a) - key(b)) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return kept.slice(0, f.limit);
}

// Few distinct values so ties (equal keys, equal symbols) are frequent.
const small = fc.integer({ min: 0, max: 6 });
const rowArb = fc.record({
  sym: fc.constantFrom("A", "B", "C", "D", "E", "F", "G", "H"),
  ticker: fc.constantFrom("SPY", "QQQ", "IWM"),
  right: fc.constantFrom("C" as const, "P" as const),
  premium: small.map((x) => x * 250),
  volume: small,
  oi: small.map((x) => x * 10),
  iv: small.map((x) => x / 10),
  sweep: fc.boolean(),
  multi: fc.boolean(),
  tag: fc.nat(),
});

type RowIn = { sym: string; ticker: string; right: "C" | "P"; premium: number; volume: number; oi: number; iv: number; sweep: boolean; multi: boolean; tag: number };

function row(r: RowIn): TopContractRow {
  return {
    symbol: `${r.ticker}${r.sym}`, ticker: r.ticker, expiration: "2024-03-15", strike: 500, right: r.right, dte: 0,
    totalPremium: r.premium, totalVolume: r.volume, openInterest: r.oi, oiChange: 0, volumeOiRatio: 0, bidVolume: 0,
    askVolume: 0, midVolume: 0, vwap: 0, lastPrice: r.tag, underlyingPrice: 0, iv: r.iv, tradeCount: 1,
    sweepVolume: r.sweep ? 1 : 0, sweepPremium: 0, multiLegVolume: r.multi ? 1 : 0, multiLegPremium: 0,
  };
}

const filtersArb = fc.record({
  limit: fc.integer({ min: 1, max: 40 }),
  orderBy: fc.constantFrom("premium" as const, "volume" as const, "oi" as const, "iv" as const),
  order: fc.constantFrom("asc" as const, "desc" as const),
  ticker: fc.option(fc.constantFrom("SPY", "QQQ"), { nil: undefined }),
  right: fc.option(fc.constantFrom("C" as const, "P" as const), { nil: undefined }),
  minPremium: fc.option(small.map((x) => x * 250), { nil: undefined }),
  maxVolume: fc.option(small, { nil: undefined }),
  onlySweeps: fc.boolean(),
  excludeMultiLeg: fc.boolean(),
});

describe("top-k selection", () => {
  it("equals filter + stable sort + slice on random numbers (ties kept in input order)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 200 }), fc.integer({ min: 0, max: 220 }), (xs, k) => {
        const tagged = xs.map((v, i) => ({ v, i }));
        const keep = (x: { v: number }) => x.v !== 0;
        const expected = tagged.filter(keep).sort((a, b) => a.v - b.v).slice(0, k);
        expect(topK(tagged, k, (a, b) => a.v - b.v, keep)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("rankTopContracts gives the same rows in the same order as the full sort it replaced", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 300 }), filtersArb, (raw, f) => {
        const rows = raw.map(row);
        // Same object identities: duplicates of a symbol with equal keys must come out in input order.
        expect(rankTopContracts(rows, f)).toStrictEqual(fullSortRank(rows, f));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps exactly min(limit, matching rows) rows, best first", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row({ sym: String(i), ticker: "SPY", right: "C", premium: (i * 7919) % 1000, volume: 1, oi: 0, iv: 0, sweep: false, multi: false, tag: i }));
    const top = rankTopContracts(rows, { limit: 5 });
    expect(top.map((r) => r.totalPremium)).toEqual([999, 998, 997, 996, 995]);
    expect(rankTopContracts(rows.slice(0, 3), { limit: 5 })).toHaveLength(3);
  });
});
