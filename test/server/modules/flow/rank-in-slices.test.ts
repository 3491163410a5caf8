// The market-wide top-contract ranking a chunk at a time (the loop's other work between chunks)
// returns exactly the rows of one ranking over all of them, for every order and filter.
import { describe, expect, it } from "vitest";
import { scoreFlow } from "../../../../lib/flow/flow-score";
import { contractDailyRollups, rankTopContracts, type TopContractFiltersInput } from "../../../../lib/flow/rollups";
import { rankInSlices } from "../../../../server/modules/flow/contracts/rank-in-slices";
import { mulberry32 } from "../../../../bench/_mulberry32";
import { print } from "../../../flow/_prints";

const base = contractDailyRollups(
  "2024-03-15",
  scoreFlow([print({ nbboBid: 1, nbboAsk: 1.1, price: 1.1, size: 10 })], { normPremiumUsd: 1_000, openInterest: new Map() }),
)[0];
const rand = mulberry32(7);
// Coarse values so ties on the ranking key are common (ties break by symbol).
const rows = Array.from({ length: 5_003 }, (_, i) => ({
  ...base,
  symbol: `S${String(i).padStart(5, "0")}`,
  totalPremium: 100 * Math.floor(rand() * 50),
  totalVolume: Math.floor(rand() * 20),
  openInterest: Math.floor(rand() * 30),
  iv: Math.round(rand() * 10) / 10,
  right: rand() < 0.5 ? ("C" as const) : ("P" as const),
  sweepVolume: rand() < 0.3 ? 1 : 0,
}));

describe("rankInSlices", () => {
  const cases: TopContractFiltersInput[] = [
    {},
    { orderBy: "volume", order: "asc", limit: 7 },
    { orderBy: "oi", right: "P", minVolume: 2, limit: 500 },
    { orderBy: "iv", onlySweeps: true },
    { minPremium: 1_000, maxPremium: 2_000, limit: 1 },
  ];
  it.each(cases)("equals one ranking over every row: %o", async (filters) => {
    const whole = rankTopContracts(rows, filters);
    expect(whole.length).toBeGreaterThan(0);
    // Parts of uneven sizes (one ticker's contracts each; an empty one), pieces of at most 1,000 rows.
    const cuts = [0, 2_500, 2_500, 2_501, 4_000, rows.length];
    const parts = cuts.slice(1).map((c, i) => rows.slice(cuts[i], c));
    expect(await rankInSlices(parts, filters, 1_000)).toEqual(whole);
    expect(await rankInSlices([rows], filters)).toEqual(whole);
  });
});
