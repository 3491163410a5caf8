/**
 * Relative volume: per-bucket volume and premium against the average of the same time-of-day
 * bucket over `avg_period` prior sessions, for one contract or one ticker (calls and puts split).
 * @see docs/methodology.md#flow-rvol
 */
import * as z from "zod";
import type { OptionPrint } from "../market/prints/schemas";
import { addTradingDays, isTradingDay, previousTradingDay, sessionBounds, tradingDaysBetween } from "../time";
import type { IsoDate } from "../time";
import { FlowError } from "./errors";
import { premiumUsd } from "./trade-facts";
import type { ContractRvolBarSchema, ContractRvolSchema, RvolStatsSchema, TickerRvolBarSchema, TickerRvolSchema } from "./schemas";

/** Aggregate RVOL statistics (the spec's `stats`). */
export type RvolStats = z.output<typeof RvolStatsSchema>;
/** One bar of the contract RVOL response. */
export type ContractRvolBar = z.output<typeof ContractRvolBarSchema>;
/** One bar of the ticker RVOL response. */
export type TickerRvolBar = z.output<typeof TickerRvolBarSchema>;
/** Contract RVOL response. */
export type ContractRvol = z.output<typeof ContractRvolSchema>;
/** Ticker RVOL response. */
export type TickerRvol = z.output<typeof TickerRvolSchema>;

/** Bucket sizes of the spec. */
export const RVOL_BUCKETS = ["1min", "5min", "10min", "15min", "30min", "1d", "1w"] as const;
/** One bucket size. */
export type RvolBucket = (typeof RVOL_BUCKETS)[number];

const INTRADAY_MS: Readonly<Record<string, number>> = {
  "1min": 60_000,
  "5min": 300_000,
  "10min": 600_000,
  "15min": 900_000,
  "30min": 1_800_000,
};

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD");
const period = (unit: "D" | "d") =>
  z
    .string()
    .regex(new RegExp(`^[1-9][0-9]{0,2}${unit}$`), `expected {N}${unit} with N from 1 to 365`)
    .refine((s) => Number(s.slice(0, -1)) <= 365, `N must be at most 365`);

/** Options of {@link rvol} (the spec's RVOL parameters in camelCase, plus `asOfMs`). */
export const RvolOptionsSchema = z.object({
  /** Last session of the view (a non-trading date means the session before it). */
  date: isoDate,
  /** Trailing window `{N}D`: the N sessions ending at `date`. */
  interval: period("D").default("1D"),
  bucket: z.enum(RVOL_BUCKETS).default("5min"),
  /** Baseline lookback `{N}d`: the N sessions before the view's first session. */
  avgPeriod: period("d").default("14d"),
  orderBy: z.enum(["rvol", "volume", "premium", "time"]).default("time"),
  /** Default `asc` for `time`, else `desc`. */
  order: z.enum(["asc", "desc"]).optional(),
  limit: z.number().int().min(1).optional(),
  format: z.enum(["full", "summary"]).default("full"),
  /** "Now": buckets starting at or after it are not shown, and baselines stop at the same time of day. */
  asOfMs: z.number().finite().optional(),
});
/** Parsed RVOL options. */
export type RvolOptions = z.output<typeof RvolOptionsSchema>;
/** RVOL options as a caller gives them. */
export type RvolOptionsInput = z.input<typeof RvolOptionsSchema>;

/** Prints RVOL reads. */
export type RvolPrint = Pick<OptionPrint, "tsMs" | "symbol" | "right" | "price" | "size" | "underlyingPrice">;

/**
 * One session's prints as columns, in time order: what {@link rvol} reads of them. A year of a
 * liquid ticker's print records is gigabytes of objects, and a heap that size makes every garbage
 * collection of its thread take seconds; its columns are a few hundred kilobytes per session,
 * outside the heap (docs/architecture.md#worker-pools).
 */
export interface RvolPrintColumns {
  /** The contract the prints were filtered to, or null: all of the ticker's. */
  readonly symbol: string | null;
  readonly tsMs: Float64Array;
  readonly size: Float64Array;
  /** `premiumUsd(price, size)` of each print. */
  readonly premium: Float64Array;
  /** 1 for a call, 0 for a put. */
  readonly call: Uint8Array;
  readonly underlyingPrice: Float64Array;
}

/**
 * The prints of one session: records (all of the ticker's, or the contract's and others: the
 * contract is filtered), or columns made by {@link rvolPrintColumns} for the same scope.
 */
export interface RvolSession {
  date: IsoDate;
  prints: readonly RvolPrint[] | RvolPrintColumns;
}

/**
 * A session's prints as columns, in time order (stable), keeping only `symbol`'s when given: hold
 * these, not the records, when a call reads many sessions.
 * @example const sessions = dates.map((date) => ({ date, prints: rvolPrintColumns(printsOf(date)) }));
 */
export function rvolPrintColumns(prints: readonly RvolPrint[], symbol: string | null = null): RvolPrintColumns {
  const kept = symbol === null ? prints : prints.filter((p) => p.symbol === symbol);
  const ordered = isTimeOrdered(kept) ? kept : [...kept].sort((a, b) => a.tsMs - b.tsMs);
  const n = ordered.length;
  const c = { symbol, tsMs: new Float64Array(n), size: new Float64Array(n), premium: new Float64Array(n), call: new Uint8Array(n), underlyingPrice: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const p = ordered[i];
    c.tsMs[i] = p.tsMs;
    c.size[i] = p.size;
    c.premium[i] = premiumUsd(p.price, p.size);
    c.call[i] = p.right === "C" ? 1 : 0;
    c.underlyingPrice[i] = p.underlyingPrice;
  }
  return c;
}

const isColumns = (prints: RvolSession["prints"]): prints is RvolPrintColumns => !Array.isArray(prints);

/**
 * Which sessions an RVOL request reads: the view (the `interval` sessions ending at `date`) and
 * the baseline (the `avgPeriod` sessions before the view).
 * @example
 * rvolSessions("2024-03-15", "1D", "2d"); // { view: ["2024-03-15"], baseline: ["2024-03-13", "2024-03-14"] }
 * @see docs/methodology.md#flow-rvol
 */
export function rvolSessions(date: IsoDate, interval = "1D", avgPeriod = "14d"): { view: IsoDate[]; baseline: IsoDate[] } {
  const last = isTradingDay(date) ? date : previousTradingDay(date);
  const n = parsePeriod(interval, "D", "interval");
  const m = parsePeriod(avgPeriod, "d", "avg_period");
  const first = addTradingDays(last, -(n - 1));
  return {
    view: tradingDaysBetween(first, last),
    baseline: tradingDaysBetween(addTradingDays(first, -m), previousTradingDay(first)),
  };
}

function parsePeriod(text: string, unit: "D" | "d", name: string): number {
  const r = period(unit).safeParse(text);
  if (!r.success) throw new FlowError("invalid_parameter", `${name} must be {N}${unit} with N from 1 to 365, got ${JSON.stringify(text)}`, name);
  return Number(text.slice(0, -1));
}

/** Per-session sums over one span of time-of-day offsets. */
interface Sums {
  volume: number;
  premium: number;
  call: number;
  put: number;
  lastPrice: number;
}

const zero = (): Sums => ({ volume: 0, premium: 0, call: 0, put: 0, lastPrice: Number.NaN });

/** First index with `tsMs[i] >= t` (time order). */
function lowerBound(tsMs: Float64Array, t: number): number {
  let lo = 0;
  let hi = tsMs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tsMs[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sums of a session's prints with `fromOffset <= tsMs - open < toOffset`. */
function sumSpan(c: RvolPrintColumns | undefined, openMs: number, fromOffset: number, toOffset: number): Sums {
  const s = zero();
  if (!c) return s;
  const end = openMs + toOffset;
  for (let i = lowerBound(c.tsMs, openMs + fromOffset); i < c.tsMs.length && c.tsMs[i] < end; i++) {
    s.volume += c.size[i];
    s.premium += c.premium[i];
    if (c.call[i] === 1) s.call += c.size[i];
    else s.put += c.size[i];
    s.lastPrice = c.underlyingPrice[i];
  }
  return s;
}

interface Span {
  /** ms since the epoch. */
  startMs: number;
  endMs: number;
  /** Pieces of sessions: date, time-of-day offsets from the open. */
  pieces: { date: IsoDate; fromOffset: number; toOffset: number }[];
}

/** Bars of the view: intraday buckets per session, one per session (`1d`), or per ISO week (`1w`). */
function viewSpans(view: readonly IsoDate[], bucket: RvolBucket, asOfMs: number): Span[] {
  const spans: Span[] = [];
  const step = INTRADAY_MS[bucket];
  for (const date of view) {
    const { openMs, closeMs } = sessionBounds(date);
    if (openMs >= asOfMs) break;
    const endMs = Math.min(closeMs, asOfMs);
    if (step) {
      for (let start = openMs; start < endMs; start += step) {
        const stop = Math.min(start + step, closeMs);
        spans.push({ startMs: start, endMs: stop, pieces: [{ date, fromOffset: start - openMs, toOffset: Math.min(stop, asOfMs) - openMs }] });
      }
    } else {
      const piece = { date, fromOffset: 0, toOffset: endMs - openMs };
      const prev = spans[spans.length - 1];
      if (bucket === "1w" && prev && isoWeek(prev.pieces[0].date) === isoWeek(date)) {
        prev.pieces.push(piece);
        prev.endMs = closeMs;
      } else spans.push({ startMs: openMs, endMs: closeMs, pieces: [piece] });
    }
  }
  return spans;
}

/** Monday of the date's week, as a date string. */
function isoWeek(date: IsoDate): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

function isTimeOrdered(prints: readonly RvolPrint[]): boolean {
  for (let i = 1; i < prints.length; i++) if (prints[i].tsMs < prints[i - 1].tsMs) return false;
  return true;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

/**
 * Relative volume of one contract (`scope.kind: "contract"`) or one ticker (`"ticker"`, calls and
 * puts split) over the view sessions, against the same time-of-day buckets of the baseline
 * sessions. `sessions` must hold the view and baseline dates of {@link rvolSessions}; a baseline
 * date missing from it is unavailable (it does not count in `avgDaysCount`), a present date with
 * no prints counts as a day of zero volume.
 * @example
 * const plan = rvolSessions("2024-03-15", "1D", "14d");
 * const r = rvol({ kind: "ticker" }, sessions, { date: "2024-03-15", bucket: "15min" });
 * r.stats.rvolVolume; // today's volume over the baseline's at the same time of day
 * @see docs/methodology.md#flow-rvol
 */
export function rvol(scope: { kind: "contract"; symbol: string }, sessions: readonly RvolSession[], options: RvolOptionsInput): ContractRvol;
export function rvol(scope: { kind: "ticker" }, sessions: readonly RvolSession[], options: RvolOptionsInput): TickerRvol;
export function rvol(
  scope: { kind: "contract"; symbol: string } | { kind: "ticker" },
  sessions: readonly RvolSession[],
  input: RvolOptionsInput,
): ContractRvol | TickerRvol {
  const parsed = RvolOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FlowError("invalid_parameter", issue.message, String(issue.path[0] ?? ""));
  }
  const o = parsed.data;
  const plan = rvolSessions(o.date, o.interval, o.avgPeriod);
  const symbol = scope.kind === "contract" ? scope.symbol : null;
  const byDate = new Map<IsoDate, RvolPrintColumns>();
  for (const s of sessions) {
    if (isColumns(s.prints) && s.prints.symbol !== symbol) {
      throw new RangeError(`rvol: the ${s.date} columns hold ${s.prints.symbol ?? "every contract"}'s prints, the call is about ${symbol ?? "every contract"}'s`);
    }
    byDate.set(s.date, isColumns(s.prints) ? s.prints : rvolPrintColumns(s.prints, symbol));
  }
  const asOfMs = o.asOfMs ?? Number.POSITIVE_INFINITY;
  const baseline = plan.baseline.filter((d) => byDate.has(d));
  const opens = new Map<IsoDate, { openMs: number; closeMs: number }>();
  const boundsOf = (d: IsoDate) => {
    let b = opens.get(d);
    if (!b) {
      b = sessionBounds(d);
      opens.set(d, b);
    }
    return b;
  };

  const spans = viewSpans(plan.view, o.bucket, asOfMs);
  const daily = o.bucket === "1d" || o.bucket === "1w";
  let lastPrice = Number.NaN;
  const bars: TickerRvolBar[] = [];
  for (const span of spans) {
    const today = zero();
    const avg = { volume: 0, premium: 0, call: 0, put: 0 };
    let days = 0;
    for (const piece of span.pieces) {
      const s = sumSpan(byDate.get(piece.date), boundsOf(piece.date).openMs, piece.fromOffset, piece.toOffset);
      today.volume += s.volume;
      today.premium += s.premium;
      today.call += s.call;
      today.put += s.put;
      if (!Number.isNaN(s.lastPrice)) today.lastPrice = s.lastPrice;
      // Baseline: the same offsets in every available baseline session that has them (daily bars: the whole day so far).
      let n = 0;
      const sum = { volume: 0, premium: 0, call: 0, put: 0 };
      for (const d of baseline) {
        const { openMs, closeMs } = boundsOf(d);
        if (!daily && piece.fromOffset >= closeMs - openMs) continue; // an early close has no such bucket
        const b = sumSpan(byDate.get(d), openMs, piece.fromOffset, piece.toOffset);
        sum.volume += b.volume;
        sum.premium += b.premium;
        sum.call += b.call;
        sum.put += b.put;
        n++;
      }
      if (n > 0) {
        avg.volume += sum.volume / n;
        avg.premium += sum.premium / n;
        avg.call += sum.call / n;
        avg.put += sum.put / n;
      }
      days = Math.max(days, n);
    }
    if (!Number.isNaN(today.lastPrice)) lastPrice = today.lastPrice;
    const has = days > 0;
    bars.push({
      timestamp: new Date(span.startMs).toISOString(),
      timestampEnd: new Date(span.endMs).toISOString(),
      callVolume: today.call,
      putVolume: today.put,
      volume: today.volume,
      premium: today.premium,
      stockPrice: lastPrice,
      avgCallVolume: has ? avg.call : null,
      avgPutVolume: has ? avg.put : null,
      avgVolume: has ? avg.volume : null,
      avgPremium: has ? avg.premium : null,
      avgDaysCount: has ? days : null,
    });
  }
  // Stock price: carried forward; leading bars without a print take the first known price (0 if none).
  const firstKnown = bars.find((b) => !Number.isNaN(b.stockPrice))?.stockPrice ?? 0;
  for (const b of bars) if (Number.isNaN(b.stockPrice)) b.stockPrice = firstKnown;

  let tv = 0,
    tp = 0,
    av = 0,
    ap = 0,
    tc = 0,
    tpu = 0,
    ac = 0,
    apu = 0;
  for (const b of bars) {
    tv += b.volume;
    tp += b.premium;
    tc += b.callVolume;
    tpu += b.putVolume;
    av += b.avgVolume ?? 0;
    ap += b.avgPremium ?? 0;
    ac += b.avgCallVolume ?? 0;
    apu += b.avgPutVolume ?? 0;
  }
  const stats: RvolStats = {
    todayVolume: tv,
    todayPremium: tp,
    avgVolume: av,
    avgPremium: ap,
    rvolVolume: ratio(tv, av),
    rvolPremium: ratio(tp, ap),
    avgDaysCount: baseline.length,
  };

  const order = o.order ?? (o.orderBy === "time" ? "asc" : "desc");
  const keyOf = (b: TickerRvolBar): number =>
    o.orderBy === "volume" ? b.volume : o.orderBy === "premium" ? b.premium : o.orderBy === "rvol" ? ratio(b.volume, b.avgVolume ?? 0) : 0;
  const sorted = bars.map((b, i) => ({ b, i }));
  sorted.sort((x, y) => {
    const d = o.orderBy === "time" ? x.i - y.i : keyOf(x.b) - keyOf(y.b);
    return (order === "asc" ? d : -d) || x.i - y.i;
  });
  const shown = sorted.slice(0, o.limit ?? sorted.length).map((s) => s.b);

  if (scope.kind === "contract") {
    const out: ContractRvol = { stats };
    if (o.format === "full") {
      out.bars = shown.map((b) => ({
        timestamp: b.timestamp,
        timestampEnd: b.timestampEnd,
        volume: b.volume,
        premium: b.premium,
        avgVolume: b.avgVolume,
        avgPremium: b.avgPremium,
        avgDaysCount: b.avgDaysCount,
      }));
    }
    return out;
  }
  const out: TickerRvol = { stats, callRvol: ratio(tc, ac), putRvol: ratio(tpu, apu) };
  if (o.format === "full") out.bars = shown;
  return out;
}
