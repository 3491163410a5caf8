/**
 * The simulated market with its boards and option prints built in the compute pool:
 * - `chain` (a live heatmap, levels, a volatility reading's board, a tape's opening board: tens to
 *   hundreds of ms of simulation for a large root) runs in a worker and comes back as columns
 *   (typed arrays copy in a millisecond). Concurrent asks for the same board share one task.
 * - `optionPrints` and `offExchangePrints` (a flow tape, a dark-pool day: about a second of simulation for SPY's session) runs in a worker
 *   in 15-minute slices of the regular session, each its own task and reply, so receiving the
 *   print objects (structured clone, about 10 us each) costs the event loop a few ms per slice
 *   between other work, never the whole session at once.
 * - `minuteBars` (price history, a day at a time from its caller: a day of the simulated path) runs
 *   in a worker and comes back as columns.
 * - `contractMinuteQuotes` (premium lows: a few contracts on every board of a session so far, which
 *   builds the session's grid first) runs in a worker and comes back as columns.
 * The event loop only awaits. Every other method is the market's own. See
 * docs/architecture.md#worker-pools.
 */
import type {
  ChainOptions,
  ChainSnapshot,
  ContractMinuteQuotes,
  ContractRef,
  MarketData,
  MinuteBars,
  MinuteBarsOptions,
  OffExchangePrint,
  OptionPrint,
} from "../../lib/market/market-data";
import { CalendarError, etDateOf, isTradingDay, sessionBounds } from "../../lib/time";
import { computeOffLoop, SIM_CHAIN, SIM_MINUTE_BARS, SIM_MINUTE_QUOTES, SIM_OFF_EXCHANGE, SIM_PRINTS, type ComputePool } from "./compute-pool";

/** One print task's span: the boards' refresh cadence (each slice reads one anchor board). */
export const PRINT_SLICE_MS = 15 * 60_000;

/**
 * `[fromMs, toMs)` cut at the multiples of `PRINT_SLICE_MS` (regular sessions open on them),
 * keeping only the slices that meet a regular (or `extended`) session; the whole span when the calendar has no
 * date for it (the market answers that with no prints).
 */
export function printSlices(fromMs: number, toMs: number, extended = false): [number, number][] {
  if (!(toMs > fromMs)) return [];
  const out: [number, number][] = [];
  try {
    for (let a = Math.floor(fromMs / PRINT_SLICE_MS) * PRINT_SLICE_MS; a < toMs; a += PRINT_SLICE_MS) {
      const date = etDateOf(a);
      if (!isTradingDay(date)) continue;
      const { openMs, closeMs } = sessionBounds(date, { extended });
      if (a + PRINT_SLICE_MS <= openMs || a >= closeMs) continue;
      out.push([Math.max(a, fromMs), Math.min(a + PRINT_SLICE_MS, toMs)]);
    }
  } catch (e) {
    if (e instanceof CalendarError) return [[fromMs, toMs]];
    throw e;
  }
  return out;
}

/**
 * `market` with `chain` and `optionPrints` in `pool`; a file market is returned as it is (its boards are lookups).
 * @example const market = withPooledChains(createSimulatedMarket({ seed, clock }), pool);
 */
export function withPooledChains(market: MarketData, pool: ComputePool): MarketData {
  if (!market.simulated) return market;
  const inFlight = new Map<string, Promise<ChainSnapshot | null>>();
  const chain = (symbol: string, atMs: number, options?: ChainOptions): Promise<ChainSnapshot | null> => {
    const key = `${symbol}|${atMs}|${options?.extended === true}`;
    let p = inFlight.get(key);
    if (!p) {
      const task = { kind: SIM_CHAIN, symbol, atMs, options: options ?? {}, nowMs: market.clock.now() } as const;
      p = computeOffLoop(pool, task, () => market.chain(symbol, atMs, options));
      inFlight.set(key, p);
      const forget = () => inFlight.delete(key);
      p.then(forget, forget);
    }
    return p;
  };
  const optionPrints = async (ticker: string, fromMs: number, toMs: number): Promise<OptionPrint[]> => {
    const nowMs = market.clock.now();
    const slices = printSlices(fromMs, Math.min(toMs, nowMs));
    const parts = await Promise.all(
      slices.map(([a, b]) => computeOffLoop(pool, { kind: SIM_PRINTS, ticker, fromMs: a, toMs: b, nowMs } as const, () => market.optionPrints(ticker, a, b))),
    );
    return parts.length === 1 ? parts[0] : ([] as OptionPrint[]).concat(...parts);
  };
  // Off-exchange prints run 04:00-20:00 ET: sliced over the extended session.
  const offExchangePrints = async (tickers: readonly string[] | null, fromMs: number, toMs: number): Promise<OffExchangePrint[]> => {
    const nowMs = market.clock.now();
    const slices = printSlices(fromMs, Math.min(toMs, nowMs), true);
    const parts = await Promise.all(
      slices.map(([a, b]) =>
        computeOffLoop(pool, { kind: SIM_OFF_EXCHANGE, tickers, fromMs: a, toMs: b, nowMs } as const, () => market.offExchangePrints(tickers, a, b)),
      ),
    );
    return parts.length === 1 ? parts[0] : ([] as OffExchangePrint[]).concat(...parts);
  };
  // A day of minute bars is a day of the simulated path (tens of ms): built in a worker, sent back as columns.
  const minuteBars = (ticker: string, fromMs: number, toMs: number, options?: MinuteBarsOptions): Promise<MinuteBars> => {
    const task = { kind: SIM_MINUTE_BARS, ticker, fromMs, toMs, options: options ?? {}, nowMs: market.clock.now() } as const;
    return computeOffLoop(pool, task, () => market.minuteBars(ticker, fromMs, toMs, options));
  };
  const ownMinuteQuotes = market.contractMinuteQuotes?.bind(market);
  const contractMinuteQuotes = (symbol: string, contracts: readonly ContractRef[], fromMs: number, toMs: number): Promise<ContractMinuteQuotes | null> => {
    const task = { kind: SIM_MINUTE_QUOTES, symbol, contracts, fromMs, toMs, nowMs: market.clock.now() } as const;
    return computeOffLoop(pool, task, () => ownMinuteQuotes!(symbol, contracts, fromMs, toMs));
  };
  return new Proxy(market, {
    get(target, prop) {
      if (prop === "chain") return chain;
      if (prop === "contractMinuteQuotes" && ownMinuteQuotes) return contractMinuteQuotes;
      if (prop === "optionPrints") return optionPrints;
      if (prop === "minuteBars") return minuteBars;
      if (prop === "offExchangePrints") return offExchangePrints;
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
