/**
 * A contract's history row: its screener row for one session plus volume shares and the relative
 * open-interest change. @see docs/methodology.md#flow-contract-history
 */
import type { TopContractRow } from "./rollups";

/** `100 * part / whole`, 0 when `whole` is not positive. */
const pct = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : 0);

/**
 * @example contractHistoryRow("2024-03-05", row).askPct; // percent of the session's volume at the ask
 * @see docs/methodology.md#flow-contract-history
 */
export function contractHistoryRow(date: string, r: TopContractRow) {
  const v = r.totalVolume;
  return {
    date,
    totalPremium: r.totalPremium,
    totalVolume: v,
    openInterest: r.openInterest,
    oiChange: r.oiChange,
    oiChangePct: pct(r.oiChange, r.openInterest - r.oiChange),
    bidVolume: r.bidVolume,
    askVolume: r.askVolume,
    midVolume: r.midVolume,
    bidPct: pct(r.bidVolume, v),
    askPct: pct(r.askVolume, v),
    sweepVolume: r.sweepVolume,
    multiLegVolume: r.multiLegVolume,
    sweepPct: pct(r.sweepVolume, v),
    multiLegPct: pct(r.multiLegVolume, v),
    vwap: r.vwap,
    lastPrice: r.lastPrice,
    underlyingPrice: r.underlyingPrice,
    iv: r.iv,
    tradeCount: r.tradeCount,
  };
}
