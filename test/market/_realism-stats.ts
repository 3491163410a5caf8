// Statistics of the realism tests (test/market/realism.test.ts), computed over the served window.
// Also runnable: `npx tsx test/market/_realism-stats.ts` prints every figure of the table.
import { fixedClock } from "../../lib/market/clock";
import { createSimulatedMarket, type SimulatedMarket } from "../../lib/market/simulated";
import { sessionBounds, tradingDaysBetween } from "../../lib/time";

/** The window the server shows (issue 20): seed 42, 2023-03-28 .. 2025-10-31. */
export const WINDOW_DAYS = tradingDaysBetween("2023-03-28", "2025-10-31");
export const windowMarket = (): SimulatedMarket =>
  createSimulatedMarket({ seed: 42, clock: fixedClock(Date.parse("2025-11-01T00:00:00Z")) });

export const mean = (x: number[]): number => x.reduce((a, b) => a + b, 0) / x.length;

export function excessKurtosis(r: number[]): number {
  const m = mean(r);
  const v = mean(r.map((x) => (x - m) ** 2));
  return mean(r.map((x) => (x - m) ** 4)) / (v * v) - 3;
}

export function correlation(a: number[], b: number[]): number {
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0, saa = 0, sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

export const logReturns = (x: number[]): number[] => x.slice(1).map((v, i) => Math.log(v / x[i]));

export function closes(m: SimulatedMarket, ticker: string, days = WINDOW_DAYS): number[] {
  return days.map((d) => m.spotSync(ticker, sessionBounds(d).closeMs)!);
}

if (process.argv[1]?.endsWith("_realism-stats.ts")) {
  const m = windowMarket();
  const c = closes(m, "SPX");
  const r = logReturns(c);
  const at = (d: string) => c[WINDOW_DAYS.indexOf(d)];
  console.log("SPX closes", at("2023-12-29"), at("2024-12-31"), at("2025-06-13"));
  console.log("excess kurtosis", excessKurtosis(r).toFixed(2), "worst", Math.min(...r).toFixed(4), "best", Math.max(...r).toFixed(4));
  const a = r.map(Math.abs);
  console.log("|r| ac1", correlation(a.slice(1), a.slice(0, -1)).toFixed(3));
  console.log("ann vol", Math.sqrt(mean(r.map((x) => x * x)) * 252).toFixed(3));
  const aapl = logReturns(closes(m, "AAPL"));
  console.log("AAPL corr", correlation(r, aapl).toFixed(2), "NDX corr", correlation(r, logReturns(closes(m, "NDX"))).toFixed(2));
  console.log("AAPL last", closes(m, "AAPL").at(-1), "NVDA last", closes(m, "NVDA").at(-1), "UVXY last", closes(m, "UVXY").at(-1));
}
