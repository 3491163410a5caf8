/**
 * Daily rollups: the ticker history row and the per-contract rows behind the top-contract
 * screener, and the screener's filters and ranking.
 * @see docs/methodology.md#flow-daily-rollups-and-the-screener
 */
import * as z from "zod";
import type { IsoDate } from "../time";
import { FlowError } from "./errors";
import type { ScoredTrade } from "./flow-score";
import { dteDays } from "./trade-facts";
import { topK } from "./top-k";
import { SIDE_BUCKET, SIDE_CODE } from "./trade-side";
import type { TickerDailyRowSchema, TopContractRowSchema } from "./schemas";

/** One row of the ticker daily history. */
export type TickerDailyRow = z.output<typeof TickerDailyRowSchema>;
/** One contract's day (the spec's top contract row). */
export type TopContractRow = z.output<typeof TopContractRowSchema>;

/**
 * One session's history row of a ticker, or null when it had no trades (the history lists only
 * days with activity).
 * @example
 * tickerDailyRollup("2024-03-15", prints)?.netPremium;
 * @see docs/methodology.md#flow-daily-rollups-and-the-screener
 */
export function tickerDailyRollup(date: IsoDate, trades: ReadonlyArray<Pick<ScoredTrade, "right" | "premiumUsd" | "size">>): TickerDailyRow | null {
  if (trades.length === 0) return null;
  const r: TickerDailyRow = { date, totalPremium: 0, totalVolume: 0, callPremium: 0, putPremium: 0, callVolume: 0, putVolume: 0, netPremium: 0 };
  for (const t of trades) {
    r.totalPremium += t.premiumUsd;
    r.totalVolume += t.size;
    if (t.right === "C") {
      r.callPremium += t.premiumUsd;
      r.callVolume += t.size;
    } else {
      r.putPremium += t.premiumUsd;
      r.putVolume += t.size;
    }
  }
  r.netPremium = r.callPremium - r.putPremium;
  return r;
}

/** Trades the contract rollup reads. */
export type RollupTrade = Pick<
  ScoredTrade,
  "symbol" | "root" | "expiry" | "strike" | "right" | "side" | "priceUsd" | "size" | "premiumUsd" | "underlyingPrice" | "iv" | "isSweep" | "isMultiLeg"
>;

/**
 * Per-contract rows of one session from its trades (time order). `openInterest` is the OI at the
 * session's start, `oiChange` that minus the OI at the previous session's start (0 when either is
 * unknown); `volumeOiRatio = totalVolume / openInterest` (0 when OI is 0).
 * @example
 * contractDailyRollups("2024-03-15", scored, { openInterest, previousOpenInterest });
 * @see docs/methodology.md#flow-daily-rollups-and-the-screener
 */
export function contractDailyRollups(
  date: IsoDate,
  trades: readonly RollupTrade[],
  oi: { openInterest?: ReadonlyMap<string, number>; previousOpenInterest?: ReadonlyMap<string, number> } = {},
): TopContractRow[] {
  const rows = new Map<string, TopContractRow & { notional: number }>();
  for (const t of trades) {
    let r = rows.get(t.symbol);
    if (!r) {
      r = {
        symbol: t.symbol,
        ticker: t.root,
        expiration: t.expiry,
        strike: t.strike,
        right: t.right,
        dte: dteDays(date, t.expiry),
        totalPremium: 0,
        totalVolume: 0,
        openInterest: 0,
        oiChange: 0,
        volumeOiRatio: 0,
        bidVolume: 0,
        askVolume: 0,
        midVolume: 0,
        vwap: 0,
        lastPrice: 0,
        underlyingPrice: 0,
        iv: 0,
        tradeCount: 0,
        sweepVolume: 0,
        sweepPremium: 0,
        multiLegVolume: 0,
        multiLegPremium: 0,
        notional: 0,
      };
      rows.set(t.symbol, r);
    }
    r.tradeCount++;
    r.totalVolume += t.size;
    r.totalPremium += t.premiumUsd;
    r.notional += t.priceUsd * t.size;
    const b = SIDE_BUCKET[SIDE_CODE[t.side]];
    if (b > 0) r.askVolume += t.size;
    else if (b < 0) r.bidVolume += t.size;
    else r.midVolume += t.size;
    if (t.isSweep) {
      r.sweepVolume += t.size;
      r.sweepPremium += t.premiumUsd;
    }
    if (t.isMultiLeg) {
      r.multiLegVolume += t.size;
      r.multiLegPremium += t.premiumUsd;
    }
    r.lastPrice = t.priceUsd;
    r.underlyingPrice = t.underlyingPrice;
    if (t.iv !== null) r.iv = t.iv;
  }
  const out: TopContractRow[] = [];
  for (const { notional, ...r } of rows.values()) {
    const now = oi.openInterest?.get(r.symbol);
    const before = oi.previousOpenInterest?.get(r.symbol);
    r.openInterest = now ?? 0;
    r.oiChange = now !== undefined && before !== undefined ? now - before : 0;
    r.volumeOiRatio = r.openInterest > 0 ? r.totalVolume / r.openInterest : 0;
    r.vwap = r.totalVolume > 0 ? notional / r.totalVolume : 0;
    out.push(r);
  }
  return out;
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD");

/** Filters and ordering of the top-contract screener (the spec's parameters in camelCase). */
export const TopContractFiltersSchema = z
  .object({
    limit: z.number().int().min(1).max(500).default(100),
    ticker: z.string().min(1).optional(),
    minPremium: z.number().finite().optional(),
    maxPremium: z.number().finite().optional(),
    minVolume: z.number().int().min(0).optional(),
    maxVolume: z.number().int().min(0).optional(),
    minOi: z.number().int().min(0).optional(),
    maxOi: z.number().int().min(0).optional(),
    right: z.enum(["C", "P"]).optional(),
    minDte: z.number().int().optional(),
    maxDte: z.number().int().optional(),
    minStrike: z.number().finite().optional(),
    maxStrike: z.number().finite().optional(),
    expiration: isoDate.optional(),
    minIv: z.number().finite().optional(),
    maxIv: z.number().finite().optional(),
    orderBy: z.enum(["premium", "volume", "oi", "iv"]).default("premium"),
    order: z.enum(["asc", "desc"]).default("desc"),
    onlySweeps: z.boolean().default(false),
    onlyMultiLeg: z.boolean().default(false),
    excludeMultiLeg: z.boolean().default(false),
  })
  .refine((f) => !(f.onlyMultiLeg && f.excludeMultiLeg), {
    message: "only_multi_leg and exclude_multi_leg cannot both be true",
    path: ["excludeMultiLeg"],
  });
/** Parsed screener filters. */
export type TopContractFilters = z.output<typeof TopContractFiltersSchema>;
/** Screener filters as a caller gives them. */
export type TopContractFiltersInput = z.input<typeof TopContractFiltersSchema>;

const inRange = (x: number, lo?: number, hi?: number) => (lo === undefined || x >= lo) && (hi === undefined || x <= hi);

/**
 * The top-contract screener: filters (every bound inclusive; `onlySweeps` keeps rows with sweep
 * volume, `onlyMultiLeg` rows with multi-leg volume, `excludeMultiLeg` rows without), then orders
 * by premium, volume, OI or IV (ties by symbol ascending) and keeps `limit` rows, selected with a
 * bounded heap (`topK`): the same rows, in the same order, as a full stable sort.
 * @throws FlowError `invalid_parameter` naming the parameter
 * @example
 * rankTopContracts(rows, { ticker: "SPY", orderBy: "volume", limit: 20 });
 * @see docs/methodology.md#flow-daily-rollups-and-the-screener
 */
export function rankTopContracts(rows: readonly TopContractRow[], input: TopContractFiltersInput = {}): TopContractRow[] {
  const f = parseTopContractFilters(input);
  return topK(rows, f.limit, topContractOrder(f), topContractFilter(f));
}

/**
 * The screener's filters parsed (defaults applied).
 * @throws FlowError `invalid_parameter` naming the parameter
 */
export function parseTopContractFilters(input: TopContractFiltersInput): TopContractFilters {
  const parsed = TopContractFiltersSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FlowError("invalid_parameter", issue.message, String(issue.path[0] ?? ""));
  }
  return parsed.data;
}

/** The screener's row filter (every bound inclusive). */
export function topContractFilter(f: TopContractFilters): (r: TopContractRow) => boolean {
  return (r) =>
    (f.ticker === undefined || r.ticker === f.ticker) &&
    inRange(r.totalPremium, f.minPremium, f.maxPremium) &&
    inRange(r.totalVolume, f.minVolume, f.maxVolume) &&
    inRange(r.openInterest, f.minOi, f.maxOi) &&
    (f.right === undefined || r.right === f.right) &&
    inRange(r.dte, f.minDte, f.maxDte) &&
    inRange(r.strike, f.minStrike, f.maxStrike) &&
    (f.expiration === undefined || r.expiration === f.expiration) &&
    inRange(r.iv, f.minIv, f.maxIv) &&
    (!f.onlySweeps || r.sweepVolume > 0) &&
    (!f.onlyMultiLeg || r.multiLegVolume > 0) &&
    (!f.excludeMultiLeg || r.multiLegVolume === 0);
}

/** The number a screener row is ranked by. */
export const TOP_CONTRACT_KEYS = {
  premium: (r: TopContractRow) => r.totalPremium,
  volume: (r: TopContractRow) => r.totalVolume,
  oi: (r: TopContractRow) => r.openInterest,
  iv: (r: TopContractRow) => r.iv,
} as const;

/** The screener's order: by the key in `order`, ties by symbol ascending. */
export function topContractOrder(f: Pick<TopContractFilters, "orderBy" | "order">): (a: TopContractRow, b: TopContractRow) => number {
  const key = TOP_CONTRACT_KEYS[f.orderBy];
  const sign = f.order === "asc" ? 1 : -1;
  return (a, b) => sign * (key(a) - key(b)) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);
}
