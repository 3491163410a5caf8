/**
 * Simulated off-exchange (TRF) prints: block-heavy equity prints reported to FINN or FINC,
 * at prices inside each minute's bar. @see docs/methodology.md#off-exchange-prints
 */
import type { SimulatedMarketContext } from "../market-data";
import { createRng, hashText } from "./_rng";
import type { OffExchangePrint } from "./schemas";
import { composeTsNs } from "./ts-ns";

const MINUTE_MS = 60_000;

/** Parameters of the off-exchange tape. @see docs/methodology.md#off-exchange-prints */
export const OFF_EXCHANGE_PARAMS = {
  /** Share of a minute's consolidated volume reported off exchange. */
  offExchangeShare: 0.4,
  /** Shares of off-exchange volume represented by one simulated print (thins the tape). */
  sharesPerPrint: 3_000,
  /** Cap on prints per minute per ticker. */
  maxPrintsPerMinute: 40,
  /** Pareto scale (shares) and tail index of print sizes up to the knee. */
  sizeScaleShares: 100,
  sizeTailIndex: 1.1,
  /** Above the knee (shares) sizes fall off with this steeper tail index (blocks of 1M+ shares are rare). */
  sizeKneeShares: 50_000,
  sizeFarTailIndex: 2.5,
  /** Largest single print, shares. */
  maxSizeShares: 2_000_000,
  /** Probability that a print is reported to FINN (else FINC). */
  finnShare: 0.72,
} as const;

/**
 * A print's size from a Pareto(scale, 1.1) draw: unchanged up to the knee, then bent to the far
 * tail index, so `P(size > s) = P(raw > knee) (knee / s)^2.5` above it.
 * @example
 * offExchangeSize(1_000); // 1000
 * offExchangeSize(50_000 * 2 ** (2.5 / 1.1)); // 100000 (to rounding)
 * @see docs/methodology.md#off-exchange-prints
 */
export function offExchangeSize(raw: number): number {
  const P = OFF_EXCHANGE_PARAMS;
  return raw <= P.sizeKneeShares ? raw : P.sizeKneeShares * (raw / P.sizeKneeShares) ** (P.sizeTailIndex / P.sizeFarTailIndex);
}

/** The minute's price range and volume, as a one-minute bar gives them. */
export interface OffExchangeBar {
  h: number;
  l: number;
  v: number;
}

/**
 * Off-exchange prints of one ticker in one minute, sorted by time.
 * @param minuteMs start of the minute, ms
 * @example
 * offExchangePrintsForMinute(7, "SPY", Date.parse("2024-03-15T14:00:00Z"), { h: 512.3, l: 511.9, v: 180_000 });
 * @see docs/methodology.md#off-exchange-prints
 */
export function offExchangePrintsForMinute(seed: number, ticker: string, minuteMs: number, bar: OffExchangeBar): OffExchangePrint[] {
  const P = OFF_EXCHANGE_PARAMS;
  if (!(bar.v > 0) || !(bar.l > 0) || !(bar.h >= bar.l)) return [];
  const minuteIndex = Math.floor(minuteMs / MINUTE_MS);
  const rng = createRng(hashText(`${seed}|${ticker}|offexchange`), minuteIndex);
  const lambda = Math.min(P.maxPrintsPerMinute, (bar.v * P.offExchangeShare) / P.sharesPerPrint);
  const n = rng.poisson(lambda);
  if (n === 0) return [];
  const offs: number[] = [];
  for (let k = 0; k < n; k++) offs.push(Math.floor(rng.next() * 59.999e9));
  offs.sort((a, b) => a - b);
  const out: OffExchangePrint[] = [];
  for (let k = 0; k < n; k++) {
    let size = Math.min(P.maxSizeShares, Math.floor(offExchangeSize(rng.pareto(P.sizeScaleShares, P.sizeTailIndex))));
    // Most institutional prints are round lots; small ones are often odd lots.
    if (size >= 200 && rng.next() < 0.8) size = Math.round(size / 100) * 100;
    const px = bar.l + (bar.h - bar.l) * rng.next();
    const u = rng.next();
    // Cents, half-cent midpoint crosses, or sub-penny (4 decimals) as TRF prints show.
    const price = u < 0.7 ? Math.round(px * 100) / 100 : u < 0.9 ? Math.floor(px * 100) / 100 + 0.005 : Math.round(px * 1e4) / 1e4;
    const tsMs = minuteMs + Math.floor(offs[k] / 1e6);
    out.push({
      id: `${ticker}-d-${minuteIndex}-${k}`,
      tsMs,
      tsNs: composeTsNs(tsMs, offs[k] % 1e6),
      ticker,
      price: Math.round(price * 1e4) / 1e4,
      size: Math.max(1, size),
      venue: rng.next() < P.finnShare ? "FINN" : "FINC",
    });
  }
  return out;
}

/**
 * Off-exchange prints of the tickers (every stock and ETF of the universe when `null`) with
 * `fromMs <= tsMs < toMs`, in time order, never after `ctx.clock.now()`; extended hours included.
 * @example
 * simulatedOffExchangePrints(ctx, ["SPY"], Date.parse("2024-03-15T13:30:00Z"), Date.parse("2024-03-15T20:00:00Z"));
 * @see docs/methodology.md#off-exchange-prints
 */
export function simulatedOffExchangePrints(ctx: SimulatedMarketContext, tickers: readonly string[] | null, fromMs: number, toMs: number): OffExchangePrint[] {
  const endMs = Math.min(toMs, ctx.clock.now());
  if (!(endMs > fromMs)) return [];
  const list = tickers
    ? tickers.filter((t) => ctx.symbolInfoSync(t)?.type !== "index" && ctx.symbolInfoSync(t) !== undefined)
    : ctx
        .universeSync()
        .filter((s) => s.type !== "index")
        .map((s) => s.ticker);
  const firstMinute = Math.floor(fromMs / MINUTE_MS) * MINUTE_MS;
  const out: OffExchangePrint[] = [];
  for (const ticker of [...new Set(list)]) {
    const bars = ctx.minuteBarsSync(ticker, firstMinute, endMs, { extended: true });
    for (let i = 0; i < bars.t.length; i++) {
      const m = bars.t[i];
      const prints = offExchangePrintsForMinute(ctx.seed, ticker, m, { h: bars.h[i], l: bars.l[i], v: bars.v[i] });
      const edge = m < fromMs || m + MINUTE_MS > endMs;
      for (const p of prints) if (!edge || (p.tsMs >= fromMs && p.tsMs < endMs)) out.push(p);
    }
  }
  if (list.length > 1)
    out.sort((a, b) => a.tsMs - b.tsMs || (a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : 0) || (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));
  return out;
}
