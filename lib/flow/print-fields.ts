import type { OptionPrint } from "../market/prints/schemas";

/** The fields a scored trade copies from its print (USD-suffixed where the unit could be guessed wrong). */
export function printFields(p: OptionPrint) {
  return {
    id: p.id,
    tsMs: p.tsMs,
    tsNs: p.tsNs,
    symbol: p.symbol,
    root: p.root,
    underlying: p.underlying,
    expiry: p.expiry,
    strike: p.strike,
    right: p.right,
    priceUsd: p.price,
    size: p.size,
    exchange: p.exchange,
    bidUsd: p.nbboBid,
    askUsd: p.nbboAsk,
  };
}
