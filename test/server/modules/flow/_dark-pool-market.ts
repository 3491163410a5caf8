// The simulated market on a clock the test moves, optionally narrowed to a few names so that
// "every ticker" calls stay fast; plus the slow reference computations the dark-pool tests compare with.
import { createSimulatedMarket } from "../../../../lib/market/simulated";
import type { MarketData, OffExchangePrint } from "../../../../lib/market";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";

export interface MovableMarket {
  market: MarketData;
  clock: { ms: number };
}

/** Wednesday 2024-03-06 10:00 ET. */
export const DP_NOW_MS = Date.parse("2024-03-06T15:00:00Z");

/**
 * The simulator (seed 42) on a movable clock; with `universe`, `universe()` and the market-wide
 * `offExchangePrints(null, ...)` see only those names.
 */
export function movableMarket(nowMs = DP_NOW_MS, universe?: readonly string[]): MovableMarket {
  const clock = { ms: nowMs };
  const sim = createSimulatedMarket({ seed: 42, clock: { now: () => clock.ms } });
  if (!universe) return { market: sim, clock };
  const market = new Proxy(sim, {
    get(target, prop) {
      if (prop === "universe") return async () => (await target.universe()).filter((s) => universe.includes(s.ticker));
      if (prop === "offExchangePrints") {
        return (tickers: readonly string[] | null, fromMs: number, toMs: number) => target.offExchangePrints(tickers ?? universe, fromMs, toMs);
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  }) as MarketData;
  return { market, clock };
}

/** Prints of the tickers on an ET trade date up to `nowMs`, newest first (ns, then id), straight from the market. */
export async function referencePrints(market: MarketData, tickers: readonly string[], date: string, nowMs: number): Promise<OffExchangePrint[]> {
  const { openMs, closeMs } = sessionBounds(date, { extended: true });
  const all = await market.offExchangePrints(tickers, openMs, Math.min(closeMs, nowMs));
  return all.sort((a, b) => (BigInt(b.tsNs) > BigInt(a.tsNs) ? 1 : BigInt(b.tsNs) < BigInt(a.tsNs) ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** Mean extended-session volume of the 10 sessions before `date` (the documented ADV), summed bar by bar. */
export async function referenceAdv(market: MarketData, ticker: string, date: string): Promise<number> {
  let d = date;
  const vols: number[] = [];
  for (let i = 0; i < 10; i++) {
    d = previousTradingDay(d);
    const { openMs, closeMs } = sessionBounds(d, { extended: true });
    const bars = await market.minuteBars(ticker, openMs, closeMs, { extended: true });
    const v = Array.from(bars.v).reduce((a, b) => a + b, 0);
    if (v > 0) vols.push(v);
  }
  return vols.reduce((a, b) => a + b, 0) / vols.length;
}

export async function json(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}

export function qs(path: string, q: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, String(v));
  return `${path}?${p}`;
}
