/**
 * Premium and volume by strike (the reference's `StrikeDistributionResponse`) and, for one strike,
 * by expiration (`ExpirationDistributionResponse`). @see docs/methodology.md#flow-strike-distribution
 */
import type { ScoredTrade } from "./flow-score";
import { maxPain } from "./max-pain";

/** What the distribution reads of a trade. */
export type DistributionTrade = Pick<ScoredTrade, "right" | "size" | "premiumUsd" | "strike" | "expiry" | "dte">;

/** DTE buckets of `dte_filter` (calendar days, both ends included; `90+` is more than 90). */
export const DTE_FILTERS = ["all", "0-7", "8-30", "31-90", "90+"] as const;
export type DteFilter = (typeof DTE_FILTERS)[number];

/** True when `dte` falls in the bucket. */
export function inDteFilter(dte: number, filter: DteFilter): boolean {
  switch (filter) {
    case "all":
      return true;
    case "0-7":
      return dte >= 0 && dte <= 7;
    case "8-30":
      return dte >= 8 && dte <= 30;
    case "31-90":
      return dte >= 31 && dte <= 90;
    case "90+":
      return dte > 90;
  }
}

export interface StrikeBar {
  strike: number;
  callVolume: number;
  putVolume: number;
  callPremium: number;
  putPremium: number;
  callOi: number;
  putOi: number;
}

const cents = (x: number) => Math.round(x * 100) / 100;

/**
 * Bars per traded strike (ascending), with open interest per strike from `oi` (summed over the
 * expirations the caller selected), the totals, `pcRatio = put volume / call volume` (0 without
 * call volume), the strike with the most combined premium, and max pain over `oi`.
 * @see docs/methodology.md#flow-strike-distribution
 */
export function strikeDistribution(trades: readonly DistributionTrade[], oi: ReadonlyMap<number, { callOi: number; putOi: number }>) {
  const bars = new Map<number, StrikeBar>();
  for (const t of trades) {
    let b = bars.get(t.strike);
    if (!b) {
      const o = oi.get(t.strike);
      b = { strike: t.strike, callVolume: 0, putVolume: 0, callPremium: 0, putPremium: 0, callOi: o?.callOi ?? 0, putOi: o?.putOi ?? 0 };
      bars.set(t.strike, b);
    }
    if (t.right === "C") {
      b.callVolume += t.size;
      b.callPremium += t.premiumUsd;
    } else {
      b.putVolume += t.size;
      b.putPremium += t.premiumUsd;
    }
  }
  const list = [...bars.values()].sort((a, b) => a.strike - b.strike);
  let callP = 0,
    putP = 0,
    callV = 0,
    putV = 0;
  let top: StrikeBar | null = null;
  for (const b of list) {
    callP += b.callPremium;
    putP += b.putPremium;
    callV += b.callVolume;
    putV += b.putVolume;
    if (!top || b.callPremium + b.putPremium > top.callPremium + top.putPremium) top = b;
  }
  const oiRows = [...oi.entries()].map(([strike, o]) => ({ strike, callOi: o.callOi, putOi: o.putOi })).sort((a, b) => a.strike - b.strike);
  return {
    totalCallPremium: cents(callP),
    totalPutPremium: cents(putP),
    totalCallVolume: callV,
    totalPutVolume: putV,
    pcRatio: callV > 0 ? putV / callV : 0,
    topStrike: top?.strike ?? null,
    strikeCount: list.length,
    maxPain: maxPain(oiRows),
    bars: list.map((b) => ({ ...b, callPremium: cents(b.callPremium), putPremium: cents(b.putPremium) })),
  };
}

/**
 * One strike's trades by expiration (nearest first), its totals and the expiration with the most
 * combined premium. @see docs/methodology.md#flow-strike-distribution
 */
export function strikeExpirations(trades: readonly DistributionTrade[], strike: number) {
  const byExp = new Map<string, { expiration: string; dte: number; callVolume: number; putVolume: number; callPremium: number; putPremium: number }>();
  for (const t of trades) {
    if (t.strike !== strike) continue;
    let e = byExp.get(t.expiry);
    if (!e) {
      e = { expiration: t.expiry, dte: t.dte, callVolume: 0, putVolume: 0, callPremium: 0, putPremium: 0 };
      byExp.set(t.expiry, e);
    }
    e.dte = Math.min(e.dte, t.dte); // over several sessions: days left on the latest one
    if (t.right === "C") {
      e.callVolume += t.size;
      e.callPremium += t.premiumUsd;
    } else {
      e.putVolume += t.size;
      e.putPremium += t.premiumUsd;
    }
  }
  const bars = [...byExp.values()].sort((a, b) => (a.expiration < b.expiration ? -1 : 1));
  let top: (typeof bars)[number] | null = null;
  for (const b of bars) if (!top || b.callPremium + b.putPremium > top.callPremium + top.putPremium) top = b;
  return {
    totalCallPremium: cents(bars.reduce((s, b) => s + b.callPremium, 0)),
    totalPutPremium: cents(bars.reduce((s, b) => s + b.putPremium, 0)),
    topExpiration: top?.expiration ?? null,
    expirationCount: bars.length,
    bars: bars.map((b) => ({ ...b, callPremium: cents(b.callPremium), putPremium: cents(b.putPremium) })),
  };
}
