/**
 * The optional fields of the enriched trade rows (`OptionTradeRow`): the order a print was part of
 * (`agg*`), its multi-leg package (`strategy*`), the ticker's next earnings (`earnings*`) and its
 * sector. Per-tape facts are computed once per tape as columns, read per row.
 * @see docs/methodology.md#flow-trade-row-extras
 */
import type { OptionPrint } from "../market/prints/schemas";
import { detectMultiLeg } from "./multi-leg";
import type { ScoredTrade } from "./flow-score";
import type { SweepGrouping } from "./sweeps";
import { SIDE_BUCKET, SIDE_CODE } from "./trade-side";
import { epochDay } from "./trade-rows";

/** Per print of a tape: the sweep or single print each trade row aggregates into. */
export interface TradeAggregation {
  aggCount: number;
  aggTotalPremium: number;
  aggTotalSize: number;
}

/** Per print of a tape: its multi-leg package, or null. */
export interface TradeStrategy {
  strategyGroupId: string;
  strategyType: string;
  strategyLegCount: number;
}

/**
 * The order each print belongs to: a sweep's fills sum to one order (count of fills, total premium
 * and contracts of the sweep); any other print is an order of its own (count 1).
 * @example aggregationOf(0, grouping, 1200, 3) // { aggCount: 1, aggTotalPremium: 1200, aggTotalSize: 3 } for a non-sweep print
 * @see docs/methodology.md#flow-trade-row-extras
 */
export function aggregationOf(index: number, sweeps: SweepGrouping, premiumUsd: number, size: number): TradeAggregation {
  const g = sweeps.groupOf[index];
  if (g < 0) return { aggCount: 1, aggTotalPremium: premiumUsd, aggTotalSize: size };
  const s = sweeps.groups[g];
  return { aggCount: s.printIndices.length, aggTotalPremium: s.totalPremiumUsd, aggTotalSize: s.totalContracts };
}

/**
 * Each print's multi-leg package from {@link detectMultiLeg} over the tape: id
 * `ml_<session date>_<ROOT>_<package index>`, strategy name and leg count; null for prints outside
 * any package.
 * @example strategiesOf(tape.prints, "2024-03-06", "SPXW")[i]?.strategyType // "vertical"
 * @see docs/methodology.md#flow-trade-row-extras
 */
export function strategiesOf(prints: readonly OptionPrint[], date: string, ticker: string): (TradeStrategy | null)[] {
  const { packages, packageOf } = detectMultiLeg(prints);
  const rows = packages.map((p) => ({ strategyGroupId: `ml_${date}_${ticker}_${p.id}`, strategyType: p.strategy, strategyLegCount: p.legCount }));
  return Array.from(packageOf, (id) => (id < 0 ? null : rows[id]));
}

/** Calendar days the earnings search looks ahead of the session. */
export const EARNINGS_LOOKAHEAD_DAYS = 366;

/** The calendar date `days` after `date` (both `YYYY-MM-DD`). */
export function addCalendarDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * `nextEarningsDate` (days since 1970-01-01 of the first release on or after the session date,
 * null when none is scheduled within {@link EARNINGS_LOOKAHEAD_DAYS}) and `earningsDte` (calendar
 * days from the session to it, only when there is one).
 * @example earningsFields("2024-03-06", [{ date: "2024-05-03" }]) // { nextEarningsDate: 19846, earningsDte: 58 }
 * @see docs/methodology.md#flow-trade-row-extras
 */
export function earningsFields(sessionDate: string, events: readonly { date: string }[]): { nextEarningsDate: number | null; earningsDte?: number } {
  const next = events
    .filter((e) => e.date >= sessionDate)
    .map((e) => e.date)
    .sort()[0];
  if (next === undefined) return { nextEarningsDate: null };
  const day = epochDay(next);
  return { nextEarningsDate: day, earningsDte: day - epochDay(sessionDate) };
}

/** Per print of a tape: the next IV of its contract and the running bid/ask shares. */
export interface TapeRowColumns {
  /** IV of the same contract's next print on the tape so far (null when none yet or unknown). */
  nextIv: (number | null)[];
  chainBidPct: Float64Array;
  chainAskPct: Float64Array;
  contractBidPct: Float64Array;
  contractAskPct: Float64Array;
}

/**
 * One pass each way over a tape (time order): `nextIv`, and the percent of volume in the bid
 * bucket (at or below the bid) and ask bucket (at or above the ask) of the ticker's chain and of
 * the print's contract, from the open through the print (inclusive).
 * @see docs/methodology.md#flow-trade-row-extras
 */
export function tapeRowColumns(trades: readonly Pick<ScoredTrade, "symbol" | "iv" | "size" | "side">[]): TapeRowColumns {
  const n = trades.length;
  const nextIv: (number | null)[] = new Array(n);
  const following = new Map<string, number | null>();
  for (let i = n - 1; i >= 0; i--) {
    const t = trades[i];
    nextIv[i] = following.get(t.symbol) ?? null;
    following.set(t.symbol, t.iv);
  }
  const out = { nextIv, chainBidPct: new Float64Array(n), chainAskPct: new Float64Array(n), contractBidPct: new Float64Array(n), contractAskPct: new Float64Array(n) };
  let vol = 0,
    bid = 0,
    ask = 0;
  const perContract = new Map<string, { vol: number; bid: number; ask: number }>();
  for (let i = 0; i < n; i++) {
    const t = trades[i];
    const bucket = SIDE_BUCKET[SIDE_CODE[t.side]];
    let c = perContract.get(t.symbol);
    if (!c) {
      c = { vol: 0, bid: 0, ask: 0 };
      perContract.set(t.symbol, c);
    }
    vol += t.size;
    c.vol += t.size;
    if (bucket < 0) {
      bid += t.size;
      c.bid += t.size;
    } else if (bucket > 0) {
      ask += t.size;
      c.ask += t.size;
    }
    out.chainBidPct[i] = vol > 0 ? (100 * bid) / vol : 0;
    out.chainAskPct[i] = vol > 0 ? (100 * ask) / vol : 0;
    out.contractBidPct[i] = c.vol > 0 ? (100 * c.bid) / c.vol : 0;
    out.contractAskPct[i] = c.vol > 0 ? (100 * c.ask) / c.vol : 0;
  }
  return out;
}

/** Earlier sessions searched for a contract's previous close (ages 0 to 2). */
export const PREV_CLOSE_LOOKBACK = 3;

/**
 * Each contract's previous close from earlier sessions' prints (nearest session first): its last
 * print price of the nearest session it traded in, with the age in trading days (0 = the previous
 * session).
 * @example previousCloses([[{ symbol: "A", price: 1 }], [{ symbol: "A", price: 2 }]]).get("A") // { price: 1, age: 0 }
 * @see docs/methodology.md#flow-trade-row-extras
 */
export function previousCloses(sessionsNearestFirst: readonly (readonly { symbol: string; price: number }[])[]): Map<string, { price: number; age: number }> {
  const out = new Map<string, { price: number; age: number }>();
  sessionsNearestFirst.forEach((prints, age) => {
    const last = new Map<string, number>();
    for (const p of prints) last.set(p.symbol, p.price);
    for (const [symbol, price] of last) if (!out.has(symbol)) out.set(symbol, { price, age });
  });
  return out;
}
