import type { SimulatedMarket } from "../../lib/market/simulated";
import { normCdf } from "../../lib/math";
import { sessionBounds, tradingDaysBetween } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

/** The window the server shows (issue 20): seed 42, 2023-03-28 .. 2025-10-31. */
export const WINDOW_DAYS = tradingDaysBetween("2023-03-28", "2025-10-31");
export const windowMarket = (): SimulatedMarket => simulatedMarketAt(42, Date.parse("2025-11-01T00:00:00Z"));

export const mean = (x: number[]): number => x.reduce((a, b) => a + b, 0) / x.length;

export function excessKurtosis(r: number[]): number {
  const m = mean(r);
  const v = mean(r.map((x) => (x - m) ** 2));
  return mean(r.map((x) => (x - m) ** 4)) / (v * v) - 3;
}

export function correlation(a: number[], b: number[]): number {
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0,
    saa = 0,
    sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** Strikes within 10% of spot: a window of the board (chainWindowSync) that holds the strike nearest spot of every expiration. */
const nearSpot = (k: Float64Array, spot: number) => ({ lo: k.findIndex((x) => x >= 0.9 * spot), hi: k.findLastIndex((x) => x <= 1.1 * spot) + 1 });

/** Full spread and mid of the call nearest spot on the expiration nearest 30 days out. */
export function atmSpread30(m: SimulatedMarket, symbol: string, t: number): { spread: number; mid: number } {
  // The rows near spot, priced with the values the full board gives them (a tenth of its rows).
  const c = m.chainWindowSync(symbol, t, { maxExpirations: "all", strikeWindow: nearSpot, prices: true })!;
  let e = 0;
  for (let j = 0; j < c.expirations.length; j++)
    if (Math.abs(c.expirySettleMs[j] - c.asOfMs - 30 * 86_400_000) < Math.abs(c.expirySettleMs[e] - c.asOfMs - 30 * 86_400_000)) e = j;
  let best = -1;
  for (let i = 0; i < c.right.length; i++) {
    if (c.expIndex[i] !== e || c.right[i] !== 1) continue;
    if (best < 0 || Math.abs(c.strikes[c.strikeIndex[i]] - c.spot) < Math.abs(c.strikes[c.strikeIndex[best]] - c.spot)) best = i;
  }
  return { spread: c.ask[best] - c.bid[best], mid: (c.ask[best] + c.bid[best]) / 2 };
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

/** Daily series of SPX (or any symbol): closes, 30- and 90-day ATM implied vol at the close. */
export function ivSeries(m: SimulatedMarket, ticker: string, days = WINDOW_DAYS) {
  const iv30: number[] = [];
  const iv90: number[] = [];
  const ivOpen30: number[] = [];
  for (const d of days) {
    const b = sessionBounds(d);
    iv30.push(m.atmImpliedVolSync(ticker, b.closeMs, 30)!);
    iv90.push(m.atmImpliedVolSync(ticker, b.closeMs, 90)!);
    ivOpen30.push(m.atmImpliedVolSync(ticker, b.openMs, 30)!);
  }
  return { iv30, iv90, ivOpen30 };
}

if (process.argv[1]?.endsWith("_realism-stats.ts")) {
  const m = windowMarket();
  const c = closes(m, "SPX");
  const r = logReturns(c);
  const { iv30, iv90, ivOpen30 } = ivSeries(m, "SPX");
  const dIv = iv30.slice(1).map((v, i) => v - iv30[i]);
  console.log("spot-vol corr", correlation(r, dIv).toFixed(3));
  console.log("contango share", (iv30.filter((v, i) => iv90[i] > v).length / iv30.length).toFixed(3));
  let vrp = 0,
    nv = 0;
  for (let i = 0; i + 21 < c.length; i++) {
    const rr = r.slice(i, i + 21);
    const rv = Math.sqrt((rr.reduce((s, x) => s + x * x, 0) / 21) * 252);
    if (iv30[i] > rv) vrp++;
    nv++;
  }
  console.log("VRP positive share", (vrp / nv).toFixed(3));
  const q = (x: number[], p: number) => [...x].sort((a, b) => a - b)[Math.floor(p * (x.length - 1))];
  console.log("iv30 quantiles 10/50/90", q(iv30, 0.1).toFixed(3), q(iv30, 0.5).toFixed(3), q(iv30, 0.9).toFixed(3), "max", Math.max(...iv30).toFixed(3));
  console.log("iv90 median", q(iv90, 0.5).toFixed(3));
  // Open after gap below -1%
  const opens = WINDOW_DAYS.map((d) => m.spotSync("SPX", sessionBounds(d).openMs)!);
  const rises: number[] = [];
  for (let i = 1; i < c.length; i++) if (opens[i] / c[i - 1] - 1 < -0.01) rises.push(ivOpen30[i] - iv30[i - 1]);
  console.log("gaps < -1%:", rises.length, "mean IV rise (vol pts)", ((100 * rises.reduce((a, b) => a + b, 0)) / rises.length).toFixed(2));
  const i0 = WINDOW_DAYS.indexOf("2025-04-08");
  console.log(
    "iv30 around April 2025",
    iv30
      .slice(i0 - 5, i0 + 3)
      .map((v) => v.toFixed(3))
      .join(" "),
  );
}

/**
 * 25-delta risk reversal (vol points) of the expiration nearest 30 days on the board at `atMs`:
 * IV of the 25-delta call minus IV of the 25-delta put (Black-Scholes-Merton deltas at each row's IV,
 * linear interpolation in delta).
 */
export function riskReversal25(m: SimulatedMarket, symbol: string, atMs: number): number {
  const c = m.chainWindowSync(symbol, atMs, { maxExpirations: "all", strikeWindow: (k) => ({ lo: 0, hi: k.length }) })!;
  let e = 0;
  for (let j = 0; j < c.expirations.length; j++)
    if (Math.abs(c.expirySettleMs[j] - c.asOfMs - 30 * 86_400_000) < Math.abs(c.expirySettleMs[e] - c.asOfMs - 30 * 86_400_000)) e = j;
  const t = (c.expirySettleMs[e] - c.asOfMs) / (365 * 86_400_000);
  const pts: { call: [number, number][]; put: [number, number][] } = { call: [], put: [] };
  for (let i = 0; i < c.iv.length; i++) {
    if (c.expIndex[i] !== e) continue;
    const K = c.strikes[c.strikeIndex[i]];
    const sd = c.iv[i] * Math.sqrt(t);
    const d1 = (Math.log(c.spot / K) + (c.rate - c.dividendYield) * t + 0.5 * sd * sd) / sd;
    const nd1 = normCdf(d1) * Math.exp(-c.dividendYield * t);
    if (c.right[i] === 1) pts.call.push([nd1, c.iv[i]]);
    else pts.put.push([nd1 - Math.exp(-c.dividendYield * t), c.iv[i]]);
  }
  const at = (p: [number, number][], target: number) => {
    p.sort((a, b) => a[0] - b[0]);
    for (let j = 1; j < p.length; j++)
      if (p[j - 1][0] <= target && p[j][0] >= target) {
        const w = (target - p[j - 1][0]) / (p[j][0] - p[j - 1][0]);
        return p[j - 1][1] + w * (p[j][1] - p[j - 1][1]);
      }
    return Number.NaN;
  };
  return 100 * (at(pts.call, 0.25) - at(pts.put, -0.25));
}

if (process.argv[1]?.endsWith("_realism-stats.ts")) {
  const m = windowMarket();
  for (const sym of ["SPXW", "SPY", "AAPL", "TSLA", "NVDA", "JPM"]) {
    const rr: number[] = [];
    for (let i = 5; i < WINDOW_DAYS.length; i += 13) rr.push(riskReversal25(m, sym, sessionBounds(WINDOW_DAYS[i]).openMs + 150 * 60_000));
    const s = [...rr].sort((a, b) => a - b);
    console.log(
      `RR25 ${sym}: median ${s[Math.floor(s.length / 2)].toFixed(2)} min ${s[0].toFixed(2)} max ${s.at(-1)!.toFixed(2)} positive ${rr.filter((x) => x > 0).length}/${rr.length}`,
    );
  }
}

if (process.argv[1]?.endsWith("_realism-stats.ts")) {
  const m = windowMarket();
  const last: number[] = [];
  const cross: number[] = [];
  const first: number[] = [];
  for (const ticker of ["AAPL", "JPM", "KO", "SPY"])
    for (const d of WINDOW_DAYS.filter((_, i) => i % 17 === 2)) {
      const b = sessionBounds(d);
      if (b.closeMs - b.openMs !== 390 * 60_000) continue;
      const v = m.minuteBarsSync(ticker, b.openMs, b.closeMs).v;
      const total = v.reduce((a, x) => a + x, 0);
      first.push(v.slice(0, 30).reduce((a, x) => a + x, 0) / total);
      last.push(v.slice(360).reduce((a, x) => a + x, 0) / total);
      cross.push(v[389] / total);
    }
  console.log("volume first30", mean(first).toFixed(3), "last30", mean(last).toFixed(3), "closing auction", mean(cross).toFixed(3));
  for (const sym of ["SPY", "SPXW", "AAPL"]) {
    const sp: number[] = [];
    for (const d of WINDOW_DAYS.filter((_, i) => i % 41 === 3)) {
      sp.push(atmSpread30(m, sym, sessionBounds(d).openMs + 200 * 60_000).spread);
    }
    console.log(
      `30d ATM call spread ${sym}: min ${Math.min(...sp).toFixed(2)} median ${[...sp].sort((a, b) => a - b)[sp.length >> 1].toFixed(2)} max ${Math.max(...sp).toFixed(2)}`,
    );
  }
}
