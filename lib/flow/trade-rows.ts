/**
 * Scored trades as the reference's enriched `OptionTradeRow` (the `/trades` endpoints), with the
 * per-contract IV direction and the block rule.
 * @see docs/methodology.md#flow-trade-rows
 */
import * as z from "zod";
import { OPTION_EXCHANGES } from "../market/prints/conditions";
import { formatOptionSymbol } from "../symbols";
import { etDateOf } from "../time";
import type { ScoredTrade } from "./flow-score";
import type { Moneyness } from "./trade-facts";

/** A print of at least this many contracts is a block. @see docs/methodology.md#flow-trade-rows */
export const BLOCK_MIN_CONTRACTS = 100;

const DAY_MS = 86_400_000;
const num = z.number();
const int = z.number().int();

/** Days since 1970-01-01 of a calendar date `YYYY-MM-DD`. */
export function epochDay(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/**
 * A stable 31-bit id of a contract symbol (FNV-1a of the URL-safe symbol, top bit cleared).
 * @example instrumentIdOf("SPY__240322C00510000") // same number on every call
 */
export function instrumentIdOf(symbol: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < symbol.length; i++) {
    h ^= symbol.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7fffffff;
}

/** The three-way moneyness of the trade rows (deep categories fold into ITM and OTM). */
export function coarseMoneyness(m: Moneyness): "ITM" | "ATM" | "OTM" {
  return m === "DEEP_ITM" || m === "ITM" ? "ITM" : m === "ATM" ? "ATM" : "OTM";
}

/**
 * The previous print's IV of the same contract for every trade (in tape order), and the IV
 * direction: 1 up, -1 down, 0 flat or unknown (either IV missing).
 * @see docs/methodology.md#flow-trade-rows
 */
export function ivChanges(trades: readonly Pick<ScoredTrade, "symbol" | "iv">[]): { prevIv: (number | null)[]; direction: Int8Array } {
  const last = new Map<string, number | null>();
  const prevIv: (number | null)[] = new Array(trades.length);
  const direction = new Int8Array(trades.length);
  trades.forEach((t, i) => {
    const prev = last.get(t.symbol) ?? null;
    prevIv[i] = prev;
    direction[i] = prev === null || t.iv === null ? 0 : t.iv > prev ? 1 : t.iv < prev ? -1 : 0;
    last.set(t.symbol, t.iv);
  });
  return { prevIv, direction };
}

/** The reference's `OptionTradeRow` (the fields we can derive; optional ones as the reference allows). */
export const OptionTradeRowSchema = z.object({
  date: int.meta({ description: "Session date as days since 1970-01-01." }),
  tsEvent: int.meta({ description: "Trade time, ms since the epoch." }),
  tsEventUs: int.optional().meta({ description: "Trade time, microseconds since the epoch (contract trades only)." }),
  instrumentId: int,
  rawSymbol: z.string().meta({ description: "The 21-character padded OPRA symbol." }),
  ticker: z.string(),
  expiration: int.meta({ description: "Expiration as days since 1970-01-01." }),
  strike: num,
  right: z.enum(["C", "P"]),
  dte: int,
  price: num,
  size: int,
  side: z.enum(["BB", "B", "AB", "M", "BA", "A", "AA", "N"]),
  publisherId: int.meta({ description: "1-based index of the exchange in the OPRA exchange list." }),
  bidPx: num.nullable(),
  askPx: num.nullable(),
  bidSz: int
    .nullable()
    .meta({ description: "NBBO bid size, contracts: simulated for simulated symbols (docs/methodology.md#simulated-quote-sizes), null otherwise or without a quote." }),
  askSz: int.nullable().meta({ description: "NBBO ask size, contracts (as bidSz)." }),
  neutralSz: int.meta({ description: "Contracts with no side (mid or no NBBO)." }),
  totalPremium: num,
  spread: num.nullable(),
  underlyingPrice: num,
  iv: num.nullable(),
  moneyness: z.enum(["ITM", "ATM", "OTM"]),
  moneynessPercent: num,
  openInterest: int,
  prevOi: int,
  dailyVolume: int,
  sweepTrade: z.boolean(),
  blockTrade: z.boolean(),
  multiLeg: z.boolean(),
  crossTrade: z.boolean(),
  ivDirection: z.union([z.literal(-1), z.literal(0), z.literal(1)]),
  ingestionTimestamp: int,
  prevIv: num.nullable(),
  flowScore: int,
  // Optional fields (docs/methodology.md#flow-trade-row-extras).
  prevClose: num.nullable().optional().meta({ description: "The contract's last print price of the nearest of the 3 previous sessions it traded in (null when none)." }),
  prevCloseAge: int.nonnegative().nullable().optional().meta({ description: "Trading days back that price came from (0 = the previous session)." }),
  priceChange: num.nullable().optional().meta({ description: "`price - prevClose` (null without prevClose)." }),
  nextIv: num.nullable().optional().meta({ description: "IV of the same contract's next print so far (null when none yet)." }),
  chainBidPct: num.optional().meta({ description: "Percent of the ticker's volume from the open through this print at or below the bid." }),
  chainAskPct: num.optional().meta({ description: "Percent of the ticker's volume from the open through this print at or above the ask." }),
  contractBidPct: num.optional().meta({ description: "As chainBidPct, for the print's contract." }),
  contractAskPct: num.optional().meta({ description: "As chainAskPct, for the print's contract." }),
  premiumPercentile: z
    .union([z.literal(0), z.literal(50), z.literal(75), z.literal(90), z.literal(95), z.literal(99)])
    .optional()
    .meta({
      description: "Premium band against the ticker's previous session (0 below its median, 99 from its 99th percentile); omitted when that session has no prints.",
    }),
  aggCount: int.nonnegative().optional().meta({ description: "Prints of the order this print belongs to (its sweep, else 1)." }),
  aggTotalPremium: num.optional().meta({ description: "Premium of that order, USD." }),
  aggTotalSize: int.nonnegative().optional().meta({ description: "Contracts of that order." }),
  strategyGroupId: z.string().optional().meta({ description: "Id of the multi-leg package the print is a leg of." }),
  strategyType: z.string().optional().meta({ description: "Strategy of that package (vertical, straddle, iron_condor, ...)." }),
  strategyLegCount: int.min(1).optional().meta({ description: "Legs of that package." }),
  mlSibling: z.boolean().optional().meta({
    description:
      "True when the leg came along with a matching leg of its package rather than on its own filter match; always false here, every row matches the filters itself.",
  }),
  cacheMiss: z
    .boolean()
    .optional()
    .meta({ description: "True when this request computed the row's enrichment (per-tape columns, session facts) instead of reading it from the server's caches." }),
  earningsDte: int.optional().meta({ description: "Calendar days from the session to the next earnings release." }),
  nextEarningsDate: int
    .nullable()
    .optional()
    .meta({ description: "Next earnings release on or after the session, days since 1970-01-01 (null: none scheduled; omitted for funds and indices)." }),
  sector: z.string().optional().meta({ description: "GICS sector of the ticker (funds: the sector tracked; indices: Index)." }),
  industry: z.string().optional().meta({ description: "GICS industry of the ticker." }),
});
/** One enriched trade row. */
export type OptionTradeRow = z.output<typeof OptionTradeRowSchema>;

/** The optional fields a route adds to a row (docs/methodology.md#flow-trade-row-extras). */
export type TradeRowExtras = Partial<
  Pick<
    OptionTradeRow,
    | "bidSz"
    | "askSz"
    | "prevClose"
    | "prevCloseAge"
    | "priceChange"
    | "nextIv"
    | "chainBidPct"
    | "chainAskPct"
    | "contractBidPct"
    | "contractAskPct"
    | "premiumPercentile"
    | "aggCount"
    | "aggTotalPremium"
    | "aggTotalSize"
    | "strategyGroupId"
    | "strategyType"
    | "strategyLegCount"
    | "mlSibling"
    | "cacheMiss"
    | "earningsDte"
    | "nextEarningsDate"
    | "sector"
    | "industry"
  >
>;

/**
 * A scored trade as an `OptionTradeRow`. `openInterest` and `prevOi` are both the open interest at
 * the session's open (published from the prior close; 0 when unknown); bid/ask sizes are not on the
 * tape (null); quotes are null without a usable NBBO; `ingestionTimestamp` is the trade time.
 * @example optionTradeRow(trade, { prevIv: null, ivDirection: 0 }).side
 * @see docs/methodology.md#flow-trade-rows
 */
export function optionTradeRow(
  t: ScoredTrade,
  o: { prevIv: number | null; ivDirection: number; ticker?: string; micros?: boolean; extras?: TradeRowExtras },
): OptionTradeRow {
  const quoted = t.side !== "N";
  const oi = t.openInterest ?? 0;
  const row: OptionTradeRow = {
    date: epochDay(etDateOf(t.tsMs)),
    tsEvent: t.tsMs,
    instrumentId: instrumentIdOf(t.symbol),
    rawSymbol: formatOptionSymbol({ root: t.root, expiry: t.expiry, right: t.right, strike: t.strike }, "padded"),
    ticker: o.ticker ?? t.underlying,
    expiration: epochDay(t.expiry),
    strike: t.strike,
    right: t.right,
    dte: t.dte,
    price: t.priceUsd,
    size: t.size,
    side: t.side,
    publisherId: OPTION_EXCHANGES.indexOf(t.exchange as (typeof OPTION_EXCHANGES)[number]) + 1,
    bidPx: quoted ? t.bidUsd : null,
    askPx: quoted ? t.askUsd : null,
    bidSz: null,
    askSz: null,
    neutralSz: t.side === "M" || t.side === "N" ? t.size : 0,
    totalPremium: t.premiumUsd,
    spread: quoted ? t.askUsd - t.bidUsd : null,
    underlyingPrice: t.underlyingPrice,
    iv: t.iv,
    moneyness: coarseMoneyness(t.moneyness),
    moneynessPercent: t.moneynessPct,
    openInterest: oi,
    prevOi: oi,
    dailyVolume: t.dailyVolume,
    sweepTrade: t.isSweep,
    blockTrade: t.size >= BLOCK_MIN_CONTRACTS,
    multiLeg: t.isMultiLeg,
    crossTrade: t.isCross,
    ivDirection: o.ivDirection as -1 | 0 | 1,
    ingestionTimestamp: t.tsMs,
    prevIv: o.prevIv,
    flowScore: t.flowScore,
  };
  if (o.micros) row.tsEventUs = Number(BigInt(t.tsNs) / 1000n);
  if (o.extras) Object.assign(row, o.extras);
  return row;
}
