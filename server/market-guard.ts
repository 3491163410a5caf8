/**
 * The market as the routes see it: a provider failure (a reading method that throws or rejects
 * with anything but an `ApiError` or a library `CodedError`) becomes 503 `data_unavailable` with
 * `Retry-After`, never a 500. The data is temporarily unreadable, not the request wrong, and the
 * route pipeline refunds what the call was charged. See docs/api.md#market-data-failures.
 */
import { CodedError } from "../lib/coded-error";
import type { MarketData } from "../lib/market/market-data";
import { ApiError, isApiError } from "./errors";

/** Seconds a client waits after a market read failed (a provider hiccup, a file being replaced). */
export const MARKET_RETRY_AFTER_S = 5;

/** The reading methods of `MarketData` (each returns a promise). */
const READS = ["universe", "symbolInfo", "chain", "spot", "minuteBars", "optionPrints", "offExchangePrints", "earnings", "contractMinuteQuotes"] as const;

/** 503 `data_unavailable` with `Retry-After` and `retry_after`. */
function marketUnavailable(): ApiError {
  return new ApiError(503, "data_unavailable", `Market data could not be read; retry after ${MARKET_RETRY_AFTER_S} s.`, {
    headers: { "Retry-After": String(MARKET_RETRY_AFTER_S) },
    details: { retry_after: MARKET_RETRY_AFTER_S },
  });
}

/**
 * `market` with its reads guarded; every other property (clock, seed, counters a test keeps) is
 * the market's own. `onFailure` sees the original error (the server logs it).
 * @example const market = guardMarket(createSimulatedMarket({ seed: 42 }), (e) => log(e));
 */
export function guardMarket<M extends MarketData>(market: M, onFailure: (error: unknown, method: string) => void = () => {}): M {
  const translate = (method: string) => (error: unknown) => {
    if (isApiError(error) || error instanceof CodedError) throw error;
    try {
      onFailure(error, method);
    } catch {
      // a failing log sink never changes the answer
    }
    throw marketUnavailable();
  };
  // The method is looked up at each property read, so a market whose methods are replaced later
  // (a test's fake) is still the one read; each function is wrapped as it was when read, so a fake
  // that calls the method it replaced reaches the original, not itself.
  const wrapped = new WeakMap<(...a: unknown[]) => unknown, (...a: unknown[]) => Promise<unknown>>();
  const guard = (method: string, read: (...a: unknown[]) => unknown) => {
    let w = wrapped.get(read);
    if (!w) {
      const onError = translate(method);
      w = (...args: unknown[]) => {
        try {
          return Promise.resolve(read.apply(market, args)).catch(onError);
        } catch (error) {
          return Promise.reject(error).catch(onError);
        }
      };
      wrapped.set(read, w);
    }
    return w;
  };
  const reads = new Set<string>(READS);
  return new Proxy(market, {
    get: (target, key, receiver) => {
      const value = Reflect.get(target, key, receiver);
      return typeof key === "string" && reads.has(key) && typeof value === "function" ? guard(key, value as (...a: unknown[]) => unknown) : value;
    },
  });
}
