/**
 * Top underlyings of one session or of a trailing week: per-ticker premium and volume split by
 * right, net premium and the call/put premium ratio, filtered and ranked.
 * @see docs/methodology.md#flow-market-wide-screens
 */
import * as z from "zod";
import type { TickerDailyRow } from "./rollups";

/** One ranked ticker (reference `TopUnderlyingItem`). */
export const TopUnderlyingRowSchema = z.object({
  ticker: z.string(),
  totalPremium: z.number(),
  totalVolume: z.number().int().min(0),
  callPremium: z.number(),
  putPremium: z.number(),
  callVolume: z.number().int().min(0),
  putVolume: z.number().int().min(0),
  netPremium: z.number().meta({ description: "callPremium - putPremium, USD." }),
  callPutRatio: z.number().meta({ description: "callPremium / putPremium (0 when there is no put premium)." }),
});
/** One ranked ticker. */
export type TopUnderlyingRow = z.output<typeof TopUnderlyingRowSchema>;

/** The per-session numbers a top-underlying row sums. */
export type TickerSessionTotals = Pick<TickerDailyRow, "totalPremium" | "totalVolume" | "callPremium" | "putPremium" | "callVolume" | "putVolume">;

/**
 * One ticker's row over one or more sessions: sums of premium and volume by right;
 * `netPremium = callPremium - putPremium`; `callPutRatio = callPremium / putPremium`, 0 without put
 * premium. Null when no session has a trade.
 * @example
 * topUnderlyingRow("SPY", [monday, tuesday])?.netPremium;
 * @see docs/methodology.md#flow-market-wide-screens
 */
export function topUnderlyingRow(ticker: string, sessions: ReadonlyArray<TickerSessionTotals | null>): TopUnderlyingRow | null {
  let seen = false;
  const r: TopUnderlyingRow = { ticker, totalPremium: 0, totalVolume: 0, callPremium: 0, putPremium: 0, callVolume: 0, putVolume: 0, netPremium: 0, callPutRatio: 0 };
  for (const s of sessions) {
    if (!s) continue;
    seen = true;
    r.totalPremium += s.totalPremium;
    r.totalVolume += s.totalVolume;
    r.callPremium += s.callPremium;
    r.putPremium += s.putPremium;
    r.callVolume += s.callVolume;
    r.putVolume += s.putVolume;
  }
  if (!seen) return null;
  r.netPremium = r.callPremium - r.putPremium;
  r.callPutRatio = r.putPremium > 0 ? r.callPremium / r.putPremium : 0;
  return r;
}

/** Filters and order of the top-underlying screen (the reference's parameters). */
export interface TopUnderlyingFilters {
  limit: number;
  minPremium?: number;
  minVolume?: number;
  orderBy: "premium" | "volume" | "net_premium" | "call_put_ratio";
  order: "asc" | "desc";
}

const KEY: Record<TopUnderlyingFilters["orderBy"], (r: TopUnderlyingRow) => number> = {
  premium: (r) => r.totalPremium,
  volume: (r) => r.totalVolume,
  net_premium: (r) => r.netPremium,
  call_put_ratio: (r) => r.callPutRatio,
};

/**
 * Rows with `totalPremium >= minPremium` and `totalVolume >= minVolume`, ordered by the key
 * (`net_premium` by its signed value), ties by ticker ascending, cut to `limit`.
 * @example
 * rankTopUnderlyings(rows, { limit: 10, orderBy: "net_premium", order: "asc" }); // most bearish first
 * @see docs/methodology.md#flow-market-wide-screens
 */
export function rankTopUnderlyings(rows: readonly TopUnderlyingRow[], f: TopUnderlyingFilters): TopUnderlyingRow[] {
  const key = KEY[f.orderBy];
  const sign = f.order === "asc" ? 1 : -1;
  return rows
    .filter((r) => (f.minPremium === undefined || r.totalPremium >= f.minPremium) && (f.minVolume === undefined || r.totalVolume >= f.minVolume))
    .sort((a, b) => sign * (key(a) - key(b)) || (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0))
    .slice(0, f.limit);
}
