/**
 * Max pain and the per-expiration chain snapshot.
 * @see docs/methodology.md#flow-chain-snapshot-and-max-pain
 */
import type { ChainSnapshot } from "../market/market-data";
import type { IsoDate } from "../time";
import type { ScoredTrade } from "./flow-score";
import type * as z from "zod";
import type { ChainStrikeRowSchema, ExpirationChainSchema } from "./schemas";

/** One strike of the chain snapshot. */
export type ChainStrikeRow = z.output<typeof ChainStrikeRowSchema>;
/** The chain snapshot record. */
export type ExpirationChain = z.output<typeof ExpirationChainSchema>;

/**
 * The strike at which option holders are owed the least at expiry: the candidate `S` among the
 * strikes minimising `sum(callOi * max(0, S - K) + putOi * max(0, K - S))`; ties go to the lower
 * strike; null when there is no open interest.
 * @example
 * maxPain([{ strike: 90, callOi: 0, putOi: 100 }, { strike: 100, callOi: 50, putOi: 50 }, { strike: 110, callOi: 100, putOi: 0 }]); // 100
 * @see docs/methodology.md#flow-chain-snapshot-and-max-pain
 */
export function maxPain(rows: ReadonlyArray<{ strike: number; callOi: number; putOi: number }>): number | null {
  let total = 0;
  for (const r of rows) total += r.callOi + r.putOi;
  if (!(total > 0)) return null;
  const sorted = [...rows].sort((a, b) => a.strike - b.strike);
  let best: number | null = null;
  let bestPain = Number.POSITIVE_INFINITY;
  for (const c of sorted) {
    const s = c.strike;
    let pain = 0;
    for (const r of sorted) pain += r.callOi * Math.max(0, s - r.strike) + r.putOi * Math.max(0, r.strike - s);
    if (pain < bestPain) {
      bestPain = pain;
      best = s;
    }
  }
  return best;
}

/** Trades the chain snapshot reads. */
export type ChainTrade = Pick<ScoredTrade, "expiry" | "strike" | "right" | "size" | "premiumUsd" | "priceUsd" | "underlyingPrice" | "iv" | "root">;

/**
 * One expiration's strikes: volume and premium from the day's trades; IV from the last trade (else the
 * board); open interest and (for
 * contracts that did not trade) last price from the board; last price from the last trade when
 * there is one. Strikes are the board's for the expiration plus any traded strike; `minVolume`
 * hides strikes whose call plus put volume is below it. Max pain and the OI totals cover the
 * returned strikes.
 * @example
 * expirationChain(trades, board, { ticker: "SPY", expiration: "2024-03-22" }).maxPain;
 * @see docs/methodology.md#flow-chain-snapshot-and-max-pain
 */
export function expirationChain(
  trades: readonly ChainTrade[],
  board: ChainSnapshot | null,
  o: { ticker: string; expiration: IsoDate; minVolume?: number; root?: string },
): ExpirationChain {
  const rows = new Map<number, ChainStrikeRow>();
  const rowOf = (strike: number) => {
    let r = rows.get(strike);
    if (!r) {
      r = {
        strike,
        callVolume: 0,
        callPremium: 0,
        callOi: 0,
        callIv: null,
        callLastPrice: 0,
        putVolume: 0,
        putPremium: 0,
        putOi: 0,
        putIv: null,
        putLastPrice: 0,
      };
      rows.set(strike, r);
    }
    return r;
  };
  const e = board ? board.expirations.indexOf(o.expiration) : -1;
  if (board && e >= 0 && (o.root === undefined || board.expiryRoot[e] === o.root)) {
    for (let i = 0; i < board.right.length; i++) {
      if (board.expIndex[i] !== e) continue;
      const r = rowOf(board.strikes[board.strikeIndex[i]]);
      const iv = board.iv[i] > 0 ? board.iv[i] : null;
      if (board.right[i] === 1) {
        r.callOi = board.oi[i];
        r.callIv = iv;
        r.callLastPrice = board.last[i];
      } else {
        r.putOi = board.oi[i];
        r.putIv = iv;
        r.putLastPrice = board.last[i];
      }
    }
  }
  let lastUnderlying = Number.NaN;
  for (const t of trades) {
    if (t.expiry !== o.expiration || (o.root !== undefined && t.root !== o.root)) continue;
    const r = rowOf(t.strike);
    if (t.right === "C") {
      r.callVolume += t.size;
      r.callPremium += t.premiumUsd;
      r.callLastPrice = t.priceUsd;
      if (t.iv !== null) r.callIv = t.iv;
    } else {
      r.putVolume += t.size;
      r.putPremium += t.premiumUsd;
      r.putLastPrice = t.priceUsd;
      if (t.iv !== null) r.putIv = t.iv;
    }
    lastUnderlying = t.underlyingPrice;
  }
  const min = o.minVolume ?? 0;
  const strikes = [...rows.values()].filter((r) => r.callVolume + r.putVolume >= min).sort((a, b) => a.strike - b.strike);
  let callOiTotal = 0;
  let putOiTotal = 0;
  for (const r of strikes) {
    callOiTotal += r.callOi;
    putOiTotal += r.putOi;
  }
  return {
    ticker: o.ticker,
    expiration: o.expiration,
    underlyingPrice: board ? board.spot : !Number.isNaN(lastUnderlying) ? lastUnderlying : 0,
    strikes,
    maxPain: maxPain(strikes),
    callOiTotal,
    putOiTotal,
  };
}
