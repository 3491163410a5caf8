// A market seen through a narrower universe and with its option-print reads reported: what the
// flow tests need to keep a scan small and to count what a route reads.
import type { MarketData } from "../../lib/market/market-data";

type PrintsArgs = Parameters<MarketData["optionPrints"]>;

/** `market` listing only `universe` (all of it when absent), telling `onPrints` of every `optionPrints` call. */
export function watchedMarket(market: MarketData, o: { universe?: readonly string[]; onPrints?: (...args: PrintsArgs) => void } = {}): MarketData {
  const { universe, onPrints } = o;
  return new Proxy(market, {
    get(target, key) {
      if (key === "universe" && universe) return async () => (await target.universe()).filter((s) => universe.includes(s.ticker));
      if (key === "optionPrints" && onPrints) {
        return (...args: PrintsArgs) => {
          onPrints(...args);
          return target.optionPrints(...args);
        };
      }
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
