/**
 * Scored-trade objects from the columnar batch: the fast path's result in `scoreFlow`'s shape.
 * @see docs/methodology.md#flow-score-batch-path
 */
import type { OptionPrint } from "../market/prints/schemas";
import type { FlowColumns, FlowScoreColumns } from "./flow-columns";
import { FLOW_FLAGS } from "./flow-columns";
import { flowBonusLabel, flowScoreLabel, type ScoredTrade } from "./flow-score";
import { DTE_CATEGORIES, MONEYNESS_CATEGORIES } from "./trade-facts";
import { TRADE_SIDES } from "./trade-side";

/**
 * Materialises rows `[from, to)` of a columnar batch as `ScoredTrade` objects (equal to what
 * `scoreFlow` returns for the same prints), so a feed can score a whole session fast and build
 * objects only for the page it returns.
 * @example
 * const page = scoredTradesFromColumns(prints, cols, scores, prints.length - 500, prints.length);
 * @see docs/methodology.md#flow-score-batch-path
 */
export function scoredTradesFromColumns(prints: readonly OptionPrint[], cols: FlowColumns, s: FlowScoreColumns, from = 0, to = cols.n): ScoredTrade[] {
  const out: ScoredTrade[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, cols.n); i++) {
    const p = prints[i];
    const oi = cols.contractOi[cols.contract[i]];
    const flags = cols.flags[i];
    out.push({
      // The print's fields written out, not spread from a helper: a spread literal of ~45 fields
      // built objects 30x slower (bench/README.md#flow-trade-objects).
      id: p.id,
      tsMs: p.tsMs,
      tsNs: p.tsNs,
      symbol: p.symbol,
      root: p.root,
      underlying: p.underlying,
      expiry: p.expiry,
      strike: p.strike,
      right: p.right,
      priceUsd: p.price,
      size: p.size,
      exchange: p.exchange,
      bidUsd: p.nbboBid,
      askUsd: p.nbboAsk,
      side: TRADE_SIDES[s.side[i]],
      aggression: s.aggression[i],
      premiumUsd: s.premiumUsd[i],
      underlyingPrice: p.underlyingPrice,
      iv: p.iv,
      moneynessPct: s.moneynessPct[i],
      moneyness: MONEYNESS_CATEGORIES[s.moneyness[i]],
      dte: cols.dte[i],
      dteCategory: DTE_CATEGORIES[s.dteCategory[i]],
      isSweep: s.sweepGroup[i] >= 0,
      sweepGroup: s.sweepGroup[i],
      isMultiLeg: (flags & FLOW_FLAGS.multiLeg) !== 0,
      isCross: (flags & FLOW_FLAGS.cross) !== 0,
      openInterest: Number.isNaN(oi) ? null : oi,
      dailyVolume: s.dailyVolume[i],
      volOiRatio: Number.isNaN(s.volOiRatio[i]) ? null : s.volOiRatio[i],
      sizeRatio: s.sizeRatio[i],
      repeatCount: s.repeatCount[i],
      components: {
        size: s.size[i],
        sweep: s.sweep[i],
        moneyness: s.moneynessC[i],
        dte: s.dteC[i],
        volOi: s.volOi[i],
        repeat: s.repeat[i],
      },
      baseDirection: s.baseDirection[i],
      conviction: s.conviction[i],
      convictionMultiplier: s.convictionMultiplier[i],
      flowScore: s.flowScore[i],
      flowScoreInterpretation: flowScoreLabel(s.flowScore[i]),
      flowBonus: s.flowBonus[i],
      flowBonusInterpretation: flowBonusLabel(s.flowBonus[i]),
    });
  }
  return out;
}
