// Random top-contract rows and screener filters for the ranking property tests: few distinct
// values, so ties (equal keys, equal symbols) are frequent.
import fc from "fast-check";
import type { TopContractRow } from "../../lib/flow/rollups";

const small = fc.integer({ min: 0, max: 6 });
export const rowArb = fc.record({
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
  expiration: fc.constantFrom("2024-03-15", "2024-03-22"),
  strike: small.map((x) => 480 + 5 * x),
  dte: small,
});

export type RowIn = {
  sym: string;
  ticker: string;
  right: "C" | "P";
  premium: number;
  volume: number;
  oi: number;
  iv: number;
  sweep: boolean;
  multi: boolean;
  tag: number;
  expiration?: string;
  strike?: number;
  dte?: number;
};

export function row(r: RowIn): TopContractRow {
  return {
    symbol: `${r.ticker}${r.sym}`,
    ticker: r.ticker,
    expiration: r.expiration ?? "2024-03-15",
    strike: r.strike ?? 500,
    right: r.right,
    dte: r.dte ?? 0,
    totalPremium: r.premium,
    totalVolume: r.volume,
    openInterest: r.oi,
    oiChange: 0,
    volumeOiRatio: 0,
    bidVolume: 0,
    askVolume: 0,
    midVolume: 0,
    vwap: 0,
    lastPrice: r.tag,
    underlyingPrice: 0,
    iv: r.iv,
    tradeCount: 1,
    sweepVolume: r.sweep ? 1 : 0,
    sweepPremium: 0,
    multiLegVolume: r.multi ? 1 : 0,
    multiLegPremium: 0,
  };
}

export const filtersArb = fc.record({
  limit: fc.integer({ min: 1, max: 40 }),
  orderBy: fc.constantFrom("premium" as const, "volume" as const, "oi" as const, "iv" as const),
  order: fc.constantFrom("asc" as const, "desc" as const),
  ticker: fc.option(fc.constantFrom("SPY", "QQQ"), { nil: undefined }),
  right: fc.option(fc.constantFrom("C" as const, "P" as const), { nil: undefined }),
  minPremium: fc.option(
    small.map((x) => x * 250),
    { nil: undefined },
  ),
  maxVolume: fc.option(small, { nil: undefined }),
  onlySweeps: fc.boolean(),
  excludeMultiLeg: fc.boolean(),
});

/** Every screener filter (the only/exclude multi-leg pair never both set: that is a 400). */
export const allFiltersArb = fc
  .record({
    limit: fc.integer({ min: 1, max: 40 }),
    orderBy: fc.constantFrom("premium" as const, "volume" as const, "oi" as const, "iv" as const),
    order: fc.constantFrom("asc" as const, "desc" as const),
    ticker: fc.option(fc.constantFrom("SPY", "QQQ", "DIA"), { nil: undefined }),
    right: fc.option(fc.constantFrom("C" as const, "P" as const), { nil: undefined }),
    expiration: fc.option(fc.constantFrom("2024-03-15", "2024-03-22", "2024-04-19"), { nil: undefined }),
    minPremium: fc.option(
      small.map((x) => x * 250),
      { nil: undefined },
    ),
    maxPremium: fc.option(
      small.map((x) => x * 250),
      { nil: undefined },
    ),
    minVolume: fc.option(small, { nil: undefined }),
    maxVolume: fc.option(small, { nil: undefined }),
    minOi: fc.option(
      small.map((x) => x * 10),
      { nil: undefined },
    ),
    maxOi: fc.option(
      small.map((x) => x * 10),
      { nil: undefined },
    ),
    minDte: fc.option(small, { nil: undefined }),
    maxDte: fc.option(small, { nil: undefined }),
    minStrike: fc.option(
      small.map((x) => 480 + 5 * x),
      { nil: undefined },
    ),
    maxStrike: fc.option(
      small.map((x) => 480 + 5 * x),
      { nil: undefined },
    ),
    minIv: fc.option(
      small.map((x) => x / 10),
      { nil: undefined },
    ),
    maxIv: fc.option(
      small.map((x) => x / 10),
      { nil: undefined },
    ),
    onlySweeps: fc.boolean(),
    multiLeg: fc.constantFrom("any", "only", "exclude"),
  })
  .map(({ multiLeg, ...f }) => ({ ...f, onlyMultiLeg: multiLeg === "only", excludeMultiLeg: multiLeg === "exclude" }));
