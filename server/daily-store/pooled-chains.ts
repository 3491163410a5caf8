/**
 * The simulated market with its boards built in the compute pool: `chain` (a live heatmap, levels,
 * a volatility reading's board, a tape's opening board: tens to hundreds of ms of simulation for a
 * large root) runs in a worker and comes back as columns (typed arrays copy in a millisecond), so
 * the event loop only awaits it. Concurrent asks for the same board share one task. Every other
 * method is the market's own. See docs/architecture.md#worker-pools.
 */
import type { ChainOptions, ChainSnapshot, MarketData } from "../../lib/market/market-data";
import { computeOffLoop, SIM_CHAIN, type ComputePool } from "./compute-pool";

/**
 * `market` with `chain` in `pool`; a file market is returned as it is (its boards are lookups).
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
  return new Proxy(market, {
    get(target, prop) {
      if (prop === "chain") return chain;
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
