// Hand-built option prints for flow tests: every field explicit, defaults a plain SPY call.
import type { OptionPrint } from "../../lib/market/prints/schemas";
import { composeTsNs } from "../../lib/market/prints/ts-ns";

/** 2024-03-15 09:30:00 ET (EDT), a Friday session. */
export const OPEN_MS = Date.UTC(2024, 2, 15, 13, 30);

let counter = 0;

/** One print; `tsMs` defaults to the open, the contract to SPY 2024-03-22 C 510 with spot 500. */
export function print(p: Partial<OptionPrint> & { subMsNs?: number } = {}): OptionPrint {
  const tsMs = p.tsMs ?? OPEN_MS;
  const expiry = p.expiry ?? "2024-03-22";
  const right = p.right ?? "C";
  const strike = p.strike ?? 510;
  const root = p.root ?? "SPY";
  const yymmdd = expiry.slice(2).replace(/-/g, "");
  const symbol = p.symbol ?? `${root}__${yymmdd}${right}${String(Math.round(strike * 1000)).padStart(8, "0")}`;
  return {
    id: p.id ?? `t-${counter++}`,
    tsMs,
    tsNs: p.tsNs ?? composeTsNs(tsMs, p.subMsNs ?? 0),
    symbol,
    root,
    underlying: p.underlying ?? root,
    expiry,
    strike,
    right,
    price: p.price ?? 1.05,
    size: p.size ?? 10,
    exchange: p.exchange ?? "CBOE",
    nbboBid: p.nbboBid ?? 1.0,
    nbboAsk: p.nbboAsk ?? 1.05,
    conditions: p.conditions ?? ["AUTO"],
    underlyingPrice: p.underlyingPrice ?? 500,
    iv: p.iv === undefined ? 0.2 : p.iv,
  };
}
