/**
 * Strike-level flow concentration (the reference's `/v1/flow/{ticker}/strikes`).
 * @see docs/methodology.md#flow-strike-concentration
 */
import * as z from "zod";
import { directionSign } from "./direction";
import type { ScoredTrade } from "./flow-score";
import { SIDE_BUCKET, SIDE_CODE } from "./trade-side";

const num = z.number();

/** One strike and right of the breakdown. */
export const StrikeBreakdownSchema = z.object({
  strike: num,
  right: z.enum(["C", "P"]),
  dominantExpiration: z.string(),
  tradeCount: z.number().int(),
  volume: num,
  totalPremium: num,
  bullishPremium: num,
  bearishPremium: num,
  netPremium: num,
  /** Share (0-1) of premium in the ask bucket. */
  askPct: num,
  /** Share (0-1) of premium in the bid bucket. */
  bidPct: num,
  openInterest: num,
  volOiRatio: num,
});
/** One strike and right of the breakdown. */
export type StrikeBreakdown = z.output<typeof StrikeBreakdownSchema>;

/** The top-3 concentration summary. */
export const StrikesConcentrationSchema = z.object({ top3StrikesShare: num, top3StrikesNetPremium: num, interpretation: z.string() });
/** The top-3 concentration summary. */
export type StrikesConcentration = z.output<typeof StrikesConcentrationSchema>;

/** Trades the breakdown reads. */
export type StrikeTrade = Pick<ScoredTrade, "symbol" | "strike" | "right" | "expiry" | "size" | "premiumUsd" | "side" | "aggression">;

/**
 * Rolls trades up by (strike, right): premium, volume, bullish/bearish/net premium, ask and bid
 * premium shares, the expiration with the most premium, open interest summed over the traded
 * contracts (`openInterest` by symbol), `volOiRatio = volume / OI` (0 when OI is 0). Orders by
 * `|netPremium|` (`net_premium`, default), `totalPremium` or `volume`, descending, ties by strike
 * then right; keeps `topN`. `top3StrikesShare` is the premium of the first three rows over all
 * rows' premium (before `topN`).
 * @example
 * strikeBreakdown(scored, { topN: 20 }).byStrike[0].strike;
 * @see docs/methodology.md#flow-strike-concentration
 */
export function strikeBreakdown(
  trades: readonly StrikeTrade[],
  o: { topN?: number; orderBy?: "net_premium" | "total_premium" | "volume"; right?: "C" | "P"; minPremiumUsd?: number; openInterest?: ReadonlyMap<string, number> } = {},
): { byStrike: StrikeBreakdown[]; concentration: StrikesConcentration } {
  const rows = new Map<string, StrikeBreakdown & { askPrem: number; bidPrem: number; byExp: Map<string, number>; symbols: Set<string> }>();
  let total = 0;
  for (const t of trades) {
    if ((o.right && t.right !== o.right) || t.premiumUsd < (o.minPremiumUsd ?? 0)) continue;
    const key = `${t.strike}|${t.right}`;
    let r = rows.get(key);
    if (!r) {
      r = {
        strike: t.strike,
        right: t.right,
        dominantExpiration: t.expiry,
        tradeCount: 0,
        volume: 0,
        totalPremium: 0,
        bullishPremium: 0,
        bearishPremium: 0,
        netPremium: 0,
        askPct: 0,
        bidPct: 0,
        openInterest: 0,
        volOiRatio: 0,
        askPrem: 0,
        bidPrem: 0,
        byExp: new Map(),
        symbols: new Set(),
      };
      rows.set(key, r);
    }
    total += t.premiumUsd;
    r.tradeCount++;
    r.volume += t.size;
    r.totalPremium += t.premiumUsd;
    const d = directionSign(t);
    if (d > 0) r.bullishPremium += t.premiumUsd;
    else if (d < 0) r.bearishPremium += t.premiumUsd;
    const b = SIDE_BUCKET[SIDE_CODE[t.side]];
    if (b > 0) r.askPrem += t.premiumUsd;
    else if (b < 0) r.bidPrem += t.premiumUsd;
    r.byExp.set(t.expiry, (r.byExp.get(t.expiry) ?? 0) + t.premiumUsd);
    r.symbols.add(t.symbol);
  }
  const all: StrikeBreakdown[] = [];
  for (const { askPrem, bidPrem, byExp, symbols, ...r } of rows.values()) {
    r.netPremium = r.bullishPremium - r.bearishPremium;
    r.askPct = r.totalPremium > 0 ? askPrem / r.totalPremium : 0;
    r.bidPct = r.totalPremium > 0 ? bidPrem / r.totalPremium : 0;
    let best = -1;
    for (const [exp, p] of byExp)
      if (p > best || (p === best && exp < r.dominantExpiration)) {
        best = p;
        r.dominantExpiration = exp;
      }
    for (const s of symbols) r.openInterest += o.openInterest?.get(s) ?? 0;
    r.volOiRatio = r.openInterest > 0 ? r.volume / r.openInterest : 0;
    all.push(r);
  }
  const orderBy = o.orderBy ?? "net_premium";
  const key = (r: StrikeBreakdown) => (orderBy === "net_premium" ? Math.abs(r.netPremium) : orderBy === "total_premium" ? r.totalPremium : r.volume);
  all.sort((a, b) => key(b) - key(a) || a.strike - b.strike || (a.right < b.right ? -1 : a.right > b.right ? 1 : 0));
  const top3 = all.slice(0, 3);
  const share = total > 0 ? top3.reduce((a, r) => a + r.totalPremium, 0) / total : 0;
  const net3 = top3.reduce((a, r) => a + r.netPremium, 0);
  const interpretation =
    all.length === 0
      ? "No trades in the window."
      : `Top 3 strikes carry ${Math.round(100 * share)}% of premium, net ${net3 >= 0 ? "bullish" : "bearish"} ${Math.round(Math.abs(net3))} USD.`;
  return { byStrike: all.slice(0, o.topN ?? 20), concentration: { top3StrikesShare: share, top3StrikesNetPremium: net3, interpretation } };
}
