/**
 * One Massive option trade (`T` event) as our `OptionPrint`, with the NBBO at the print when one
 * is known. The vendor's trade carries no quote: the caller passes the latest `Q` quote of the
 * contract (or the snapshot's `last_quote` when it is recent), else none, and the print then has
 * no usable NBBO (`nbboBid = nbboAsk = 0`: side `N`, unclassified), never a guessed one.
 * @see docs/data.md#massive-live-feed
 * @see docs/methodology.md#live-feed-trade-side
 */
import { formatOptionSymbol } from "../../symbols/format-option-symbol";
import type { OptionCondition, OptionExchange } from "../prints/conditions";
import type { OptionPrint } from "../prints/schemas";
import { composeTsNs } from "../prints/ts-ns";
import { contractOfTicker } from "./snapshot-board";
import type { MassiveTrade } from "./wire";

/**
 * Massive's numeric option exchange ids (`GET /v3/reference/exchanges?asset_class=options`) to our
 * OPRA participant names. An id outside the table is reported, not guessed (see `printFromTrade`).
 */
const MASSIVE_OPTION_EXCHANGES: Readonly<Record<number, OptionExchange>> = {
  300: "AMEX",
  301: "BOX",
  302: "CBOE",
  303: "EMLD",
  304: "EDGX",
  307: "GEMX",
  308: "ISE",
  309: "MRX",
  312: "MIAX",
  313: "ARCA",
  315: "MPRL",
  316: "NOM",
  319: "BX",
  320: "MEMX",
  322: "C2",
  323: "PHLX",
  325: "SPHR",
};

/**
 * Massive's numeric option trade conditions (`GET /v3/reference/conditions?asset_class=options`) to
 * our OPRA condition codes. Conditions outside the table are dropped from the print; a print left
 * with none reads `AUTO` (an electronic single-leg trade, the overwhelming majority).
 */
const MASSIVE_OPTION_CONDITIONS: Readonly<Record<number, OptionCondition>> = {
  202: "LATE",
  204: "LATE",
  209: "AUTO",
  219: "ISOI",
  227: "SLAN",
  228: "SLAI",
  229: "SLCN",
  230: "SLCI",
  231: "SLFT",
  232: "MLET",
  233: "MLAT",
  234: "MLCT",
  235: "MLFT",
  236: "MESL",
  237: "TLAT",
  240: "TLET",
  241: "TLCT",
  242: "TLFT",
  243: "TESL",
  246: "CBMO",
};

/** The NBBO known at a print (USD per share), or null. */
export interface QuoteAtPrint {
  bid: number;
  ask: number;
}

/** A print, or why the trade could not be one. */
export type TradePrintResult = { ok: true; print: OptionPrint; unknownExchange: boolean } | { ok: false; reason: "bad_ticker" | "bad_size" };

/**
 * The print of trade `t`. `underlyingPrice` is the last price of the contract's underlying; `seq`
 * distinguishes trades of one contract in one millisecond when the vendor gives no `q`.
 * An unknown exchange id keeps the print (its volume counts) under `CBOE` with `unknownExchange`
 * set, so the caller can count it; docs/data.md#massive-live-feed lists the table.
 * @example printFromTrade({ ev: "T", sym: "O:SPY251219C00650000", x: 302, p: 1.25, s: 10, c: [209], t: 1765000000000 }, { bid: 1.2, ask: 1.25 }, 649.1, "SPY", 0)
 */
export function printFromTrade(t: MassiveTrade, quote: QuoteAtPrint | null, underlyingPrice: number, underlying: string, seq: number): TradePrintResult {
  const c = contractOfTicker(t.sym);
  if (!c) return { ok: false, reason: "bad_ticker" };
  if (!Number.isInteger(t.s) || t.s <= 0) return { ok: false, reason: "bad_size" };
  const tsMs = Math.floor(t.t);
  const exchangeId = typeof t.x === "number" ? t.x : Number(t.x);
  const exchange = MASSIVE_OPTION_EXCHANGES[exchangeId];
  const conditions = [...new Set((t.c ?? []).map((code) => MASSIVE_OPTION_CONDITIONS[code]).filter((x): x is OptionCondition => x !== undefined))];
  const usable = quote !== null && quote.ask > 0 && quote.bid >= 0 && quote.bid <= quote.ask;
  const symbol = formatOptionSymbol(c, "url");
  return {
    ok: true,
    unknownExchange: exchange === undefined,
    print: {
      id: `M-${symbol}-${tsMs}-${t.q ?? seq}`,
      tsMs,
      tsNs: composeTsNs(tsMs, 0),
      symbol,
      root: c.root,
      underlying,
      expiry: c.expiry,
      strike: c.strike,
      right: c.right,
      price: t.p,
      size: t.s,
      exchange: exchange ?? "CBOE",
      nbboBid: usable ? quote.bid : 0,
      nbboAsk: usable ? quote.ask : 0,
      conditions: conditions.length > 0 ? conditions : ["AUTO"],
      underlyingPrice,
      iv: null,
    },
  };
}
