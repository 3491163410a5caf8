/**
 * One ticker's session totals (the reference's `UnderlyingStats`) and its per-expiration totals
 * (`ExpirationItem`), from scored trades. @see docs/methodology.md#flow-ticker-stats-and-expirations
 */
import type { ScoredTrade } from "./flow-score";

/** What the totals read of a trade. */
export type StatsTrade = Pick<ScoredTrade, "right" | "size" | "premiumUsd" | "strike" | "expiry" | "symbol" | "dte">;

/** Session totals of a ticker. Premiums USD rounded to the cent; volumes in contracts. */
export interface TickerStats {
  totalPremium: number;
  totalVolume: number;
  callPremium: number;
  putPremium: number;
  callVolume: number;
  putVolume: number;
  /** `callPremium - putPremium`. */
  netPremium: number;
  /** `callPremium / putPremium`, 0 when there is no put premium. */
  callPutRatio: number;
  tradeCount: number;
  uniqueStrikes: number;
  uniqueExpirations: number;
}

const cents = (x: number) => Math.round(x * 100) / 100;

/**
 * Totals of a ticker's trades.
 * @example tickerStats([]).callPutRatio // 0
 * @see docs/methodology.md#flow-ticker-stats-and-expirations
 */
export function tickerStats(trades: readonly StatsTrade[]): TickerStats {
  let callPremium = 0,
    putPremium = 0,
    callVolume = 0,
    putVolume = 0;
  const strikes = new Set<number>();
  const expirations = new Set<string>();
  for (const t of trades) {
    if (t.right === "C") {
      callPremium += t.premiumUsd;
      callVolume += t.size;
    } else {
      putPremium += t.premiumUsd;
      putVolume += t.size;
    }
    strikes.add(t.strike);
    expirations.add(t.expiry);
  }
  return {
    totalPremium: cents(callPremium + putPremium),
    totalVolume: callVolume + putVolume,
    callPremium: cents(callPremium),
    putPremium: cents(putPremium),
    callVolume,
    putVolume,
    netPremium: cents(callPremium - putPremium),
    callPutRatio: putPremium > 0 ? callPremium / putPremium : 0,
    tradeCount: trades.length,
    uniqueStrikes: strikes.size,
    uniqueExpirations: expirations.size,
  };
}

/** One expiration's totals. */
export interface ExpirationTotals {
  expiration: string;
  /** Calendar days from the session date to the expiration. */
  dte: number;
  callVolume: number;
  putVolume: number;
  callPremium: number;
  putPremium: number;
  /** Distinct contracts traded. */
  contractCount: number;
}

/**
 * Totals per traded expiration, nearest first.
 * @see docs/methodology.md#flow-ticker-stats-and-expirations
 */
export function expirationTotals(trades: readonly StatsTrade[]): ExpirationTotals[] {
  const byExp = new Map<string, ExpirationTotals & { contracts: Set<string> }>();
  for (const t of trades) {
    let e = byExp.get(t.expiry);
    if (!e) {
      e = { expiration: t.expiry, dte: t.dte, callVolume: 0, putVolume: 0, callPremium: 0, putPremium: 0, contractCount: 0, contracts: new Set() };
      byExp.set(t.expiry, e);
    }
    if (t.right === "C") {
      e.callVolume += t.size;
      e.callPremium += t.premiumUsd;
    } else {
      e.putVolume += t.size;
      e.putPremium += t.premiumUsd;
    }
    e.contracts.add(t.symbol);
  }
  return [...byExp.values()]
    .sort((a, b) => (a.expiration < b.expiration ? -1 : 1))
    .map(({ contracts, ...e }) => ({ ...e, callPremium: cents(e.callPremium), putPremium: cents(e.putPremium), contractCount: contracts.size }));
}
