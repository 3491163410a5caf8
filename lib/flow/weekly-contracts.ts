/**
 * The top-contract rows of a trailing window of sessions: each contract's daily rows folded into
 * one, in the daily row's shape, for the same screener.
 * @see docs/methodology.md#flow-market-wide-screens
 */
import type { IsoDate } from "../time";
import type { TopContractRow } from "./rollups";
import { dteDays } from "./trade-facts";

/**
 * One row per contract over the sessions given (oldest first, each a session's daily rows):
 * premium, volume, trade count, bid/ask/mid, sweep and multi-leg figures summed; `vwap` the
 * volume-weighted mean of the daily VWAPs; `lastPrice`, `underlyingPrice`, `iv` and `openInterest`
 * from the latest session the contract traded; `oiChange` = that OI minus the OI before the first
 * session it traded (its `openInterest - oiChange`); `volumeOiRatio = totalVolume / openInterest`
 * (0 when OI is 0); `dte` from `endDate`.
 * @example
 * weeklyContractRows("2024-03-08", [mon, tue, wed, thu, fri]);
 * @see docs/methodology.md#flow-market-wide-screens
 */
export function weeklyContractRows(endDate: IsoDate, sessions: ReadonlyArray<readonly TopContractRow[]>): TopContractRow[] {
  const rows = new Map<string, { row: TopContractRow; notional: number; priorOi: number }>();
  for (const day of sessions) {
    for (const d of day) {
      const acc = rows.get(d.symbol);
      if (!acc) {
        rows.set(d.symbol, { row: { ...d }, notional: d.vwap * d.totalVolume, priorOi: d.openInterest - d.oiChange });
        continue;
      }
      const r = acc.row;
      acc.notional += d.vwap * d.totalVolume;
      r.totalPremium += d.totalPremium;
      r.totalVolume += d.totalVolume;
      r.tradeCount += d.tradeCount;
      r.bidVolume += d.bidVolume;
      r.askVolume += d.askVolume;
      r.midVolume += d.midVolume;
      r.sweepVolume += d.sweepVolume;
      r.sweepPremium += d.sweepPremium;
      r.multiLegVolume += d.multiLegVolume;
      r.multiLegPremium += d.multiLegPremium;
      r.lastPrice = d.lastPrice;
      r.underlyingPrice = d.underlyingPrice;
      if (d.iv !== 0) r.iv = d.iv;
      r.openInterest = d.openInterest;
    }
  }
  const out: TopContractRow[] = [];
  for (const { row, notional, priorOi } of rows.values()) {
    row.dte = dteDays(endDate, row.expiration);
    row.oiChange = row.openInterest - priorOi;
    row.volumeOiRatio = row.openInterest > 0 ? row.totalVolume / row.openInterest : 0;
    row.vwap = row.totalVolume > 0 ? notional / row.totalVolume : 0;
    out.push(row);
  }
  return out;
}
