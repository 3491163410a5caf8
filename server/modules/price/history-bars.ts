// Where /v1/history gets its bars: one-minute tier straight from MarketData, the 1-hour tier from
// per-session 60-minute bars and the 1-day tier from per-session daily bars, both memoised per app
// once the session is complete (its bars can no longer change).
import type { MarketData } from "../../../lib/market/market-data";
import {
  aggregateDaily,
  aggregateIntraday,
  aggregateWeekly,
  completeBeforeMs,
  concatBars,
  emptyPriceBars,
  resolutionMinutes,
  resolutionTier,
  slicePriceBars,
  sessionsBefore,
  slotStartMs,
  type HistoryPlan,
  type PriceBars,
} from "../../../lib/price";
import { sessionBounds, tradingDaysBetween, type IsoDate } from "../../../lib/time";
import type { PriceState } from "./price-route";
import { timeSlicer } from "../../yield-to-loop";

/** Sessions searched backwards for `nextTime` when a window is empty. */
const NEXT_TIME_LOOKBACK_SESSIONS = 30;

// One packed Float64Array per session: [n, sided, t..., o..., h..., l..., c..., v..., (bv..., sv..., uv...)].
function pack(bars: PriceBars): Float64Array {
  const n = bars.t.length;
  const sided = !!(bars.bv && bars.sv && bars.uv);
  const cols = sided ? 9 : 6;
  const buf = new Float64Array(2 + cols * n);
  buf[0] = n;
  buf[1] = sided ? 1 : 0;
  const all = [bars.t, bars.o, bars.h, bars.l, bars.c, bars.v, bars.bv, bars.sv, bars.uv];
  for (let k = 0; k < cols; k++) buf.set(all[k]!, 2 + k * n);
  return buf;
}

function unpack(buf: Float64Array): PriceBars {
  const n = buf[0];
  const col = (k: number) => buf.subarray(2 + k * n, 2 + (k + 1) * n);
  const bars: PriceBars = { t: col(0), o: col(1), h: col(2), l: col(3), c: col(4), v: col(5) };
  if (buf[1] === 1) {
    bars.bv = col(6);
    bars.sv = col(7);
    bars.uv = col(8);
  }
  return bars;
}

type SessionKind = "daily" | "hourly" | "hourly-ext";

/** Bars of each date, per kind, from the memo or computed in runs of consecutive missing dates. */
async function perSessionBars(
  state: PriceState,
  ticker: string,
  dates: readonly IsoDate[],
  kind: SessionKind,
  nowMs: number,
  signal?: AbortSignal,
): Promise<PriceBars[]> {
  const cache = state.sessions;
  const extended = kind === "hourly-ext";
  const doneBefore = completeBeforeMs(nowMs);
  const out: (PriceBars | undefined)[] = dates.map((d) => {
    const hit = cache.get(`${kind}|${ticker}|${d}`);
    return hit ? unpack(hit) : undefined;
  });
  let i = 0;
  while (i < dates.length) {
    if (out[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < dates.length && !out[j + 1] && j + 1 - i < 60) j++;
    signal?.throwIfAborted();
    const fromMs = sessionBounds(dates[i], { extended }).openMs;
    const toMs = sessionBounds(dates[j], { extended }).closeMs;
    const minutes = await readMinutes(state.services.market, ticker, fromMs, toMs, extended);
    const bars = kind === "daily" ? aggregateDaily(minutes) : aggregateIntraday(minutes, 60, { extended });
    // Split the run's bars back into sessions (both are in time order).
    let at = 0;
    for (let k = i; k <= j; k++) {
      const { openMs, closeMs } = sessionBounds(dates[k], { extended });
      const lo = kind === "daily" ? utcMidnightMs(dates[k]) : openMs;
      const hi = kind === "daily" ? lo + 1 : closeMs;
      while (at < bars.t.length && bars.t[at] < lo) at++;
      let b = at;
      while (b < bars.t.length && bars.t[b] < hi) b++;
      out[k] = slicePriceBars(bars, at, b);
      at = b;
      if (closeMs <= doneBefore) cache.set(`${kind}|${ticker}|${dates[k]}`, pack(out[k]!));
    }
    i = j + 1;
  }
  return out as PriceBars[];
}

function utcMidnightMs(date: IsoDate): number {
  return Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
}

/** 06:00 UTC falls outside every session, regular or extended (04:00-20:00 ET). */
const SPLIT_HOUR_UTC = 6;

/**
 * Minute bars of `[fromMs, toMs)`, read a day at a time (split at 06:00 UTC) with the loop let
 * through between days: a simulated day's minute path is tens of ms, and a window of days read at
 * once held the loop for all of them (docs/architecture.md#worker-pools).
 */
async function readMinutes(market: MarketData, ticker: string, fromMs: number, toMs: number, extended: boolean): Promise<PriceBars> {
  const parts: PriceBars[] = [];
  const slice = timeSlicer();
  for (let a = fromMs; a < toMs; ) {
    const day = new Date(a);
    let b = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), SPLIT_HOUR_UTC);
    if (b <= a) b += 86_400_000;
    b = Math.min(b, toMs);
    parts.push(await market.minuteBars(ticker, a, b, { extended }));
    await slice();
    a = b;
  }
  return parts.length === 0 ? emptyPriceBars(true) : concatBars(parts);
}

/**
 * The bars a plan needs, aggregated to its resolution (before `selectBars`).
 * @see docs/methodology.md#where-bars-come-from
 */
export async function loadPlanBars(state: PriceState, ticker: string, plan: HistoryPlan, nowMs: number, signal?: AbortSignal): Promise<PriceBars> {
  if (plan.firstDate === null || plan.lastDate === null || !(plan.readToMs > plan.readFromMs)) return emptyPriceBars(false);
  const tier = resolutionTier(plan.resolution);
  if (tier === "1-minute") {
    const minutes = await readMinutes(state.services.market, ticker, plan.readFromMs, plan.readToMs, plan.extended);
    return aggregateIntraday(minutes, resolutionMinutes(plan.resolution)!, { extended: plan.extended });
  }
  const dates = tradingDaysBetween(plan.firstDate, plan.lastDate);
  if (tier === "1-hour") {
    const hourly = concatBars(await perSessionBars(state, ticker, dates, plan.extended ? "hourly-ext" : "hourly", nowMs, signal));
    // 240 and 480 are whole multiples of 60 anchored at the same open, so they fold from the hourly bars.
    return plan.resolution === "60" ? hourly : aggregateIntraday(hourly, resolutionMinutes(plan.resolution)!, { extended: plan.extended });
  }
  const daily = concatBars(await perSessionBars(state, ticker, dates, "daily", nowMs, signal));
  return plan.resolution === "W" ? aggregateWeekly(daily) : daily;
}

/**
 * Start (ms) of the nearest bar before `beforeMs` at the plan's resolution, looking back at most
 * {@link NEXT_TIME_LOOKBACK_SESSIONS} sessions; null when there is none.
 * @see docs/methodology.md#empty-windows-and-nexttime
 */
export async function nearestEarlierBarMs(state: PriceState, ticker: string, plan: HistoryPlan, nowMs: number, signal?: AbortSignal): Promise<number | null> {
  if (!Number.isFinite(plan.fromMs)) return null;
  const beforeMs = Math.min(plan.fromMs, completeBeforeMs(nowMs));
  const minutesPerBar = resolutionMinutes(plan.resolution);
  const dates = sessionsBefore(beforeMs, NEXT_TIME_LOOKBACK_SESSIONS, plan.extended).reverse();
  if (dates.length === 0) return null;
  if (minutesPerBar !== null) {
    const fromMs = sessionBounds(dates[0], { extended: plan.extended }).openMs;
    const minutes = await readMinutes(state.services.market, ticker, fromMs, beforeMs, plan.extended);
    for (let i = minutes.t.length - 1; i >= 0; i--) {
      const slot = slotStartMs(minutes.t[i], minutesPerBar, plan.extended);
      if (slot !== null && slot < plan.fromMs) return slot;
    }
    return null;
  }
  const daily = concatBars(await perSessionBars(state, ticker, dates, "daily", nowMs, signal));
  const bars = plan.resolution === "W" ? aggregateWeekly(daily) : daily;
  for (let i = bars.t.length - 1; i >= 0; i--) if (bars.t[i] < plan.fromMs) return bars.t[i];
  return null;
}
