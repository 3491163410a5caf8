/**
 * The `/v1/history` window rules: which bars a request selects (`[from, to)` or `countback`), how
 * many NYSE trading days it spans against its tier's cap, which minutes must be read, and the
 * UDF response built from the bars.
 * @see docs/methodology.md#history-windows
 */
import type { IsoDate } from "../time";
import { sliceBars, type PriceBars } from "./bars";
import { PriceError } from "./errors";
import { maxTradingDays, resolutionMinutes, type Resolution } from "./resolution";
import { DAY_MS, MINUTE_MS, lowerBound, sessionIndex, upperBound, weekdaysBetween, type SessionIndex } from "./_sessions";

/** A validated history request. */
export interface HistoryRequest {
  resolution: Resolution;
  /** Window start, Unix seconds (ignored when `countback` is set). */
  fromSec: number;
  /** Window end, Unix seconds, exclusive. */
  toSec: number;
  /** Exactly this many bars ending at `to` (fewer only if history runs out); overrides `from`. */
  countback?: number;
  /** Extended hours (04:00-20:00 ET) for intraday resolutions; ignored by `D` and `W`. */
  extended?: boolean;
}

/** What a request selects and what must be read to answer it. */
export interface HistoryPlan {
  resolution: Resolution;
  /** Effective session: false for `D`/`W` (they come from the regular session). */
  extended: boolean;
  /** Bars with `fromMs <= t < toMs` are selected (`fromMs` is derived when `countback` is set). */
  fromMs: number;
  toMs: number;
  /** Keep only the last `countback` selected bars; null without countback. */
  countback: number | null;
  /** One-minute bars to read: `[readFromMs, readToMs)` (empty when `readFromMs >= readToMs`). */
  readFromMs: number;
  readToMs: number;
  /** First and last session the selected bars can come from (null when none). */
  firstDate: IsoDate | null;
  lastDate: IsoDate | null;
  /** Trading days the request spans (the number the cap is checked against). */
  requestedDays: number;
  /** The tier's cap. */
  maxDays: number;
}

/**
 * Minute bars with `t` below this have completed by `nowMs` (`MarketData.minuteBars` returns only
 * completed minutes, so nothing at or after it can be counted as history yet).
 */
export function completeBeforeMs(nowMs: number): number {
  return nowMs - MINUTE_MS + 1;
}

function weekFirst(idx: SessionIndex, i: number): boolean {
  return i === 0 || idx.week[i] !== idx.week[i - 1];
}

/** Last session index in the same week as i. */
function weekLast(idx: SessionIndex, i: number): number {
  let j = i;
  while (j + 1 < idx.dates.length && idx.week[j + 1] === idx.week[i]) j++;
  return j;
}

/** Weekdays before the calendar covered by `[fromMs, toMs)`: the cap's stand-in for trading days there. */
function daysBeforeCalendar(idx: SessionIndex, fromMs: number, toMs: number): number {
  const a = Math.floor(fromMs / DAY_MS);
  const b = Math.min(idx.firstEpochDay, Math.ceil(toMs / DAY_MS));
  return a < idx.firstEpochDay ? weekdaysBetween(a, b) : 0;
}

/** Slots of a session at `resMs` whose start lies before `endMs`. */
function slotsBefore(openMs: number, closeMs: number, resMs: number, endMs: number): number {
  const stop = Math.min(endMs, closeMs);
  return stop <= openMs ? 0 : Math.ceil((stop - openMs) / resMs);
}

interface Span {
  first: number;
  last: number;
  fromMs: number;
  extraDays: number;
}

function intradaySpan(idx: SessionIndex, req: HistoryRequest, resMs: number, extended: boolean, dataEndMs: number): Span {
  const open = extended ? idx.extOpenMs : idx.regOpenMs;
  const close = extended ? idx.extCloseMs : idx.regCloseMs;
  const toMs = req.toSec * 1000;
  const endMs = Math.min(toMs, dataEndMs);
  const last = lowerBound(open, endMs) - 1;
  if (req.countback === undefined) {
    const fromMs = req.fromSec * 1000;
    const first = upperBound(close, fromMs);
    return { first, last, fromMs, extraDays: daysBeforeCalendar(idx, fromMs, endMs) };
  }
  let need = req.countback;
  for (let i = last; i >= 0; i--) {
    const slots = slotsBefore(open[i], close[i], resMs, endMs);
    if (slots >= need) return { first: i, last, fromMs: open[i] + (slots - need) * resMs, extraDays: 0 };
    need -= slots;
  }
  // History (the calendar) ran out: the rest would take at least this many full sessions before it.
  const full = Math.ceil((extended ? 960 : 390) / (resMs / MINUTE_MS));
  return { first: 0, last, fromMs: -Infinity, extraDays: Math.ceil(need / full) };
}

function dailySpan(idx: SessionIndex, req: HistoryRequest, weekly: boolean, dataEndMs: number): Span {
  const toMs = req.toSec * 1000;
  const lastStarted = lowerBound(idx.regOpenMs, dataEndMs) - 1;
  const lastBar = Math.min(lowerBound(idx.midnightMs, toMs) - 1, lastStarted);
  // A weekly bar dated before `to` holds every session of its week that has started.
  const last = weekly && lastBar >= 0 ? Math.min(weekLast(idx, lastBar), lastStarted) : lastBar;
  if (req.countback === undefined) {
    const fromMs = req.fromSec * 1000;
    let first = lowerBound(idx.midnightMs, fromMs);
    if (weekly) while (first < idx.dates.length && !weekFirst(idx, first)) first++;
    return { first, last, fromMs, extraDays: daysBeforeCalendar(idx, fromMs, Math.min(toMs, dataEndMs)) };
  }
  const n = req.countback;
  if (!weekly) {
    const first = lastBar - n + 1;
    if (first >= 0) return { first, last, fromMs: idx.midnightMs[first], extraDays: 0 };
    return { first: 0, last, fromMs: -Infinity, extraDays: -first };
  }
  let weeks = 0;
  for (let i = lastBar; i >= 0; i--) {
    if (weekFirst(idx, i)) {
      weeks++;
      if (weeks === n) return { first: i, last, fromMs: idx.midnightMs[i], extraDays: 0 };
    }
  }
  return { first: 0, last, fromMs: -Infinity, extraDays: (n - weeks) * 5 };
}

/**
 * Plans a history request: the selected window, the minutes to read and the trading days spanned.
 *
 * Trading days counted: intraday, the sessions (regular or extended) that overlap the window; `D`,
 * the sessions whose 00:00 UTC bar time lies in it; `W`, every session of the weeks whose bar lies
 * in it. Sessions that have not started by `nowMs` are not counted (they hold no bars). With
 * `countback`, the sessions the last N bars ending at `to` need. Before the calendar's first year
 * weekdays stand in for trading days.
 *
 * @param nowMs the market clock's now, ms
 * @throws PriceError `range_too_large` (with `requestedDays`, `maxDays`) over the tier's cap;
 *   `invalid_window` when `from > to` without countback
 * @example
 * planHistory({ resolution: "1", fromSec: 1704067200, toSec: 1711929600 }, Date.parse("2024-06-01T00:00:00Z")).requestedDays // 61
 * @see docs/methodology.md#history-windows
 */
export function planHistory(req: HistoryRequest, nowMs: number): HistoryPlan {
  const { resolution } = req;
  const idx = sessionIndex();
  const minutes = resolutionMinutes(resolution);
  const intraday = minutes !== null;
  const extended = intraday && req.extended === true;
  const maxDays = maxTradingDays(resolution);
  const toMs = req.toSec * 1000;
  if (req.countback === undefined && req.fromSec > req.toSec) {
    throw new PriceError("invalid_window", "`from` must not be after `to` (the window is [from, to)).");
  }
  const dataEndMs = completeBeforeMs(nowMs);
  const resMs = (minutes ?? 0) * MINUTE_MS;
  const span = intraday ? intradaySpan(idx, req, resMs, extended, dataEndMs) : dailySpan(idx, req, resolution === "W", dataEndMs);
  const sessions = Math.max(0, span.last - span.first + 1);
  const requestedDays = sessions + span.extraDays;
  if (requestedDays > maxDays) {
    throw new PriceError(
      "range_too_large",
      `requested range spans ${requestedDays} trading days; resolution "${resolution}" allows at most ${maxDays} per ` +
        `request. Narrow the range, or page through it in windows of ${maxDays} trading days or fewer.`,
      requestedDays,
      maxDays,
    );
  }
  const has = sessions > 0;
  let readFromMs = 0;
  let readToMs = 0;
  if (has && intraday) {
    const open = extended ? idx.extOpenMs : idx.regOpenMs;
    readFromMs = Math.max(span.fromMs, open[span.first]);
    readToMs = Math.min(toMs + resMs, (extended ? idx.extCloseMs : idx.regCloseMs)[span.last]);
  } else if (has) {
    readFromMs = idx.regOpenMs[span.first];
    readToMs = idx.regCloseMs[span.last];
  }
  return {
    resolution,
    extended,
    fromMs: span.fromMs,
    toMs,
    countback: req.countback ?? null,
    readFromMs,
    readToMs,
    firstDate: has ? idx.dates[span.first] : null,
    lastDate: has ? idx.dates[span.last] : null,
    requestedDays,
    maxDays,
  };
}

/**
 * The bars a plan selects from aggregated bars (sorted by `t`): `fromMs <= t < toMs`, then the
 * last `countback` of them.
 * @example selectBars(bars, plan).t.length <= (plan.countback ?? Infinity) // true
 */
export function selectBars(bars: PriceBars, plan: HistoryPlan): PriceBars {
  let a = lowerBound(bars.t, plan.fromMs);
  const b = lowerBound(bars.t, plan.toMs);
  if (plan.countback !== null) a = Math.max(a, b - plan.countback);
  return sliceBars(bars, a, Math.max(a, b));
}

/** The UDF `/v1/history` body: `ok` with equal-length columns, or `no_data` (never an error). */
export type HistoryBody =
  | {
      s: "ok";
      t: number[];
      o: number[];
      h: number[];
      l: number[];
      c: number[];
      v: number[];
      bv?: number[];
      sv?: number[];
      uv?: number[];
    }
  | { s: "no_data"; nextTime?: number };

/**
 * The response body of selected bars: `t` in Unix seconds, oldest first; `no_data` (with
 * `nextTime`, Unix seconds of the nearest earlier bar, when given) for an empty selection.
 * @example historyBody(emptyPriceBars(false), 1700000000000) // { s: "no_data", nextTime: 1700000000 }
 */
export function historyBody(bars: PriceBars, nextTimeMs?: number | null): HistoryBody {
  const n = bars.t.length;
  if (n === 0) {
    return nextTimeMs === undefined || nextTimeMs === null ? { s: "no_data" } : { s: "no_data", nextTime: Math.floor(nextTimeMs / 1000) };
  }
  const t = new Array<number>(n);
  for (let i = 0; i < n; i++) t[i] = Math.floor(bars.t[i] / 1000);
  const body: HistoryBody = {
    s: "ok",
    t,
    o: numbers(bars.o),
    h: numbers(bars.h),
    l: numbers(bars.l),
    c: numbers(bars.c),
    v: numbers(bars.v),
  };
  if (bars.bv && bars.sv && bars.uv) {
    body.bv = numbers(bars.bv);
    body.sv = numbers(bars.sv);
    body.uv = numbers(bars.uv);
  }
  return body;
}

/**
 * A column as a plain array (a loop: `Array.from` on typed arrays is several times slower).
 * Integral columns in int32 range are stored as small integers, which serialise faster.
 */
function numbers(a: Float64Array): number[] {
  const n = a.length;
  const out = new Array<number>(n);
  let integral = true;
  for (let i = 0; i < n; i++) {
    const x = a[i];
    if ((x | 0) !== x) {
      integral = false;
      break;
    }
  }
  if (integral) for (let i = 0; i < n; i++) out[i] = a[i] | 0;
  else for (let i = 0; i < n; i++) out[i] = a[i];
  return out;
}

/**
 * Trading dates whose session (regular, or extended) opened before `beforeMs`, newest first, at
 * most `count` of them: where to look for `nextTime` when a window is empty.
 * @example sessionsBefore(Date.parse("2024-07-06T00:00:00Z"), 2) // ["2024-07-05", "2024-07-03"]
 */
export function sessionsBefore(beforeMs: number, count: number, extended = false): IsoDate[] {
  const idx = sessionIndex();
  const open = extended ? idx.extOpenMs : idx.regOpenMs;
  const out: IsoDate[] = [];
  for (let i = lowerBound(open, beforeMs) - 1; i >= 0 && out.length < count; i--) out.push(idx.dates[i]);
  return out;
}

/**
 * Start (ms) of the session-aligned intraday bar that contains the minute `tMs`; null outside a
 * session.
 * @example slotStartMs(Date.parse("2024-03-06T15:45:00Z"), 60) // Date.parse("2024-03-06T15:30:00Z")
 */
export function slotStartMs(tMs: number, minutesPerBar: number, extended = false): number | null {
  const idx = sessionIndex();
  const open = extended ? idx.extOpenMs : idx.regOpenMs;
  const close = extended ? idx.extCloseMs : idx.regCloseMs;
  const s = upperBound(close, tMs);
  if (s >= close.length || tMs < open[s]) return null;
  const resMs = minutesPerBar * MINUTE_MS;
  return open[s] + Math.floor((tMs - open[s]) / resMs) * resMs;
}
