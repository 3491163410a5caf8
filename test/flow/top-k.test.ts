import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankTopContracts, type TopContractFiltersInput, type TopContractRow } from "../../lib/flow/rollups";
import { topK } from "../../lib/flow/top-k";
import { filtersArb, row, rowArb } from "./_contract-rows";

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
  const key = (r: TopContractRow) => (f.orderBy === "premium" ? r.totalPremium : f.orderBy === "volume" ? r.totalVolume : f.orderBy === "oi" ? r.openInterest : r.iv);
  const sign = f.order === "asc" ? 1 : -1;
  kept.sort((a, b) => sign * (key(a) - key(b)) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return kept.slice(0, f.limit);
}

describe("top-k selection", () => {
  it("equals filter + stable sort + slice on random numbers (ties kept in input order)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 200 }), fc.integer({ min: 0, max: 220 }), (xs, k) => {
        const tagged = xs.map((v, i) => ({ v, i }));
        const keep = (x: { v: number }) => x.v !== 0;
        const expected = tagged
          .filter(keep)
          .sort((a, b) => a.v - b.v)
          .slice(0, k);
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
    const rows = Array.from({ length: 1000 }, (_, i) =>
      row({ sym: String(i), ticker: "SPY", right: "C", premium: (i * 7919) % 1000, volume: 1, oi: 0, iv: 0, sweep: false, multi: false, tag: i }),
    );
    const top = rankTopContracts(rows, { limit: 5 });
    expect(top.map((r) => r.totalPremium)).toEqual([999, 998, 997, 996, 995]);
    expect(rankTopContracts(rows.slice(0, 3), { limit: 5 })).toHaveLength(3);
  });
});
