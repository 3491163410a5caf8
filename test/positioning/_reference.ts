// Slow, readable per-contract reference of dealer exposure (DESIGN section 8), using lib/math greeks.
import { bsmGreeks } from "../../lib/math/black-scholes";
import type { PositioningChain } from "../../lib/positioning/types";

const MINUTES_PER_YEAR = 365 * 24 * 60;

/** Exposure per (strike, expiry) cell, keyed `${strike}|${expiry}`, for contracts with an IV. */
export function referenceCells(chain: PositioningChain, metric: "gamma" | "vanna", sign = { calls: 1, puts: -1 }): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < chain.oi.length; i++) {
    const expiry = chain.expirations[chain.expIndex[i]];
    const settle = chain.expirySettleMs[chain.expIndex[i]];
    if (settle <= chain.asOfMs) continue; // settled contracts drop out
    const minutes = Math.max((settle - chain.asOfMs) / 60_000, 1);
    const strike = chain.strikes[chain.strikeIndex[i]];
    const g = bsmGreeks({
      spot: chain.spot,
      strike,
      tYears: minutes / MINUTES_PER_YEAR,
      vol: chain.iv[i],
      rate: chain.rate,
      dividendYield: chain.dividendYield,
      right: chain.right[i] === 1 ? "C" : "P",
    });
    const s = chain.right[i] === 1 ? sign.calls : sign.puts;
    const S = chain.spot;
    const x = metric === "gamma" ? s * g.gamma * chain.oi[i] * 100 * S * S * 0.01 : s * g.vanna * chain.oi[i] * 100 * S * 0.01;
    const key = `${strike}|${expiry}`;
    out.set(key, (out.get(key) ?? 0) + x);
  }
  return out;
}
