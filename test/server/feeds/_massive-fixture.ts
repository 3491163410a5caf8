// The SPY fixture the Massive tests serve through the fake, and the dealer gamma exposure computed
// from it by an independent formula (docs/methodology.md#exposure), not by the kernels.
import type { FakeContract } from "./_fake-massive";

export const KEY = "fake-massive-key";
// Wednesday 2025-12-03 10:00:30 ET: the feed's first board is the 10:00 minute's.
export const START_MS = Date.parse("2025-12-03T15:00:30Z");
export const SPOT = 650;
const RATE = 0.045; // DEFAULT_FILE_RATE: the rate of every real-data board (docs/methodology.md#live-feed-boards)
const SPY_Q = 0.015; // SPY's dividend yield in the universe
const EXPIRIES = ["2025-12-05", "2025-12-19"];
export const STRIKES = [640, 645, 650, 655, 660];

export function fixture(): FakeContract[] {
  const out: FakeContract[] = [];
  let k = 0;
  for (const expiration of EXPIRIES) {
    for (const strike of STRIKES) {
      for (const type of ["call", "put"] as const) {
        k++;
        const cp = type === "call" ? "C" : "P";
        const ticker = `O:SPY${expiration.slice(2).replaceAll("-", "")}${cp}${String(strike * 1000).padStart(8, "0")}`;
        out.push({ ticker, type, expiration, strike, iv: 0.12 + 0.004 * k, oi: 1000 + 137 * k, bid: 2 + k / 10, ask: 2.05 + k / 10, volume: 10 * k });
      }
    }
  }
  // No implied vol and no quote: left out of the board and counted, never given a guessed vol.
  out.push({ ticker: "O:SPY251219C00700000", type: "call", expiration: "2025-12-19", strike: 700, oi: 5000 });
  return out;
}

/** Dealer gamma exposure per strike, from the fixture alone (docs/methodology.md#exposure). */
export function independentGex(asOfMs: number): Map<number, number> {
  const out = new Map<number, number>();
  const phi = (x: number) => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
  for (const c of fixture()) {
    if (c.iv === undefined) continue;
    const settle = Date.parse(`${c.expiration}T21:00:00Z`); // 16:00 EST
    const t = (settle - asOfMs) / (365 * 86_400_000);
    const d1 = (Math.log(SPOT / c.strike) + (RATE - SPY_Q + (c.iv * c.iv) / 2) * t) / (c.iv * Math.sqrt(t));
    const gamma = (Math.exp(-SPY_Q * t) * phi(d1)) / (SPOT * c.iv * Math.sqrt(t));
    const sign = c.type === "call" ? 1 : -1;
    out.set(c.strike, (out.get(c.strike) ?? 0) + sign * gamma * c.oi * 100 * SPOT * SPOT * 0.01);
  }
  return out;
}
