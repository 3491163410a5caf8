// The app over the simulated market (seed 7) with every clock pinned at 2024-03-06 10:00 ET, so a
// session's first half hour of prints is small and each expectation can be recomputed from the
// raw `market.optionPrints` in the test. `gate` holds every print read until released (in-flight
// and time-limit tests).
import { watchedMarket } from "../../_watched-market";
import { expect } from "vitest";
import type { MarketData } from "../../../../lib/market/market-data";
import { makeHarness, NOW_MS, type Harness } from "../../_harness";
import { simulatedMarketAt } from "../../../_helpers/simulated-market";

export { NOW_MS };
export const TODAY = "2024-03-06";
export const PRIOR = "2024-03-05";

/** One simulated market per test file (its own caches make repeated reads cheap). */
export const simMarket = simulatedMarketAt(7, NOW_MS);

export interface FlowHarness extends Harness {
  sim: MarketData;
  /** While set, print reads wait for it. */
  gate: { wait: Promise<void> | null };
}

/**
 * @param universe serve only these tickers (market-wide scans stay small)
 */
export function flowHarness(opts: Parameters<typeof makeHarness>[0] & { universe?: readonly string[] } = {}): FlowHarness {
  const gate: { wait: Promise<void> | null } = { wait: null };
  const { universe, ...rest } = opts;
  const market = new Proxy(simMarket, {
    get(target, key) {
      if (key === "universe" && universe) {
        return async () => (await target.universe()).filter((s) => universe.includes(s.ticker));
      }
      if (key === "optionPrints") {
        return async (...args: Parameters<MarketData["optionPrints"]>) => {
          if (gate.wait) await gate.wait;
          return target.optionPrints(...args);
        };
      }
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const h = makeHarness({ market, credits: 10_000, ...rest });
  return { ...h, sim: simMarket, gate };
}

/**
 * The simulated market serving only `universe`, telling `onPrints` of every print read (tests count
 * reads with it).
 */
export function narrowedMarket(universe: readonly string[], onPrints: (...args: Parameters<MarketData["optionPrints"]>) => void = () => {}): MarketData {
  return watchedMarket(simMarket, { universe, onPrints });
}

/** `res.json()` typed loosely for assertions. */
export async function body(res: Response): Promise<any> {
  return res.json();
}

/** A request the route must refuse: the status, the parameter its message names, its code (default `INVALID_PARAMETER`). */
export type RefusedCase = [path: string, status: number, param: string, code?: string];

/** Each request is refused with its status and code, its message naming the parameter; none is charged. */
export async function expectRefusedUncharged(h: Harness, cases: RefusedCase[]): Promise<void> {
  const before = h.accounts.balance(h.accountId);
  for (const [path, status, param, code = "INVALID_PARAMETER"] of cases) {
    const res = await h.get(path);
    expect(res.status, path).toBe(status);
    const { error } = await body(res);
    expect(error.code, path).toBe(code);
    expect(error.message, path).toContain(param);
  }
  expect(h.accounts.balance(h.accountId)).toBe(before);
}
