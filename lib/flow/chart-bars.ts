/**
 * Chart bars of a ticker's or a contract's option trades (the reference's `/chart` endpoints):
 * the bar intervals of a window of sessions for each bucket size, and the bars' sums.
 * @see docs/methodology.md#flow-chart-bars
 */
import * as z from "zod";
import { SIDE_BUCKET, SIDE_CODE, TRADE_SIDES, type TradeSide } from "./trade-side";

/** Bucket sizes: intraday ones in minutes; `1d` one session; `1w` the sessions of one ISO week. */
export const CHART_BUCKETS = { "1min": 1, "5min": 5, "10min": 10, "15min": 15, "30min": 30, "1d": null, "1w": null } as const;
export type ChartBucket = keyof typeof CHART_BUCKETS;

/** Longest window, in trading days, with an intraday bucket and with `1d`/`1w`. */
export const CHART_MAX_DAYS = { intraday: 30, daily: 365 } as const;

/** One session of the window: `[openMs, uptoMs)` has happened; `closeMs` is its scheduled close. */
export interface ChartSession {
  date: string;
  openMs: number;
  closeMs: number;
  uptoMs: number;
}

/** One bar's interval; trades of `[sessionStartMs, endMs)` make its `daily*` sums. */
export interface BarInterval {
  startMs: number;
  endMs: number;
  sessionStartMs: number;
}

/** Monday of a date's ISO week. */
function weekOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/**
 * Every bar of the window, oldest first, zero-filled: intraday buckets from each session's open
 * in steps of the bucket (the last cut at the close) up to the one holding `uptoMs`; `1d` one bar
 * per session `[open, upto)`; `1w` one bar per ISO week from its first session's open to its last
 * session's `upto`.
 * @example barIntervals(sessions, "5min").length // 78 per full session
 * @see docs/methodology.md#flow-chart-bars
 */
export function barIntervals(sessions: readonly ChartSession[], bucket: ChartBucket): BarInterval[] {
  const out: BarInterval[] = [];
  const minutes = CHART_BUCKETS[bucket];
  if (minutes !== null) {
    const step = minutes * 60_000;
    for (const s of sessions) {
      for (let t = s.openMs; t < s.uptoMs; t += step) out.push({ startMs: t, endMs: Math.min(t + step, s.closeMs), sessionStartMs: s.openMs });
    }
  } else if (bucket === "1d") {
    for (const s of sessions) out.push({ startMs: s.openMs, endMs: s.uptoMs, sessionStartMs: s.openMs });
  } else {
    let week = "";
    for (const s of sessions) {
      const w = weekOf(s.date);
      if (w !== week) {
        out.push({ startMs: s.openMs, endMs: s.uptoMs, sessionStartMs: s.openMs });
        week = w;
      } else {
        const last = out[out.length - 1];
        last.endMs = s.uptoMs;
        last.sessionStartMs = s.openMs;
      }
    }
  }
  return out;
}

/** What a bar reads of a trade. */
export interface ChartTrade {
  tsMs: number;
  right: "C" | "P";
  size: number;
  premiumUsd: number;
  priceUsd: number;
  side: TradeSide;
  isMultiLeg: boolean;
  iv: number | null;
}

const int = z.number().int().nonnegative();
const num = z.number();

/** Sessions before the window whose same time of day makes a bar's `avgVolume`/`avgPremium`. */
export const CHART_BASELINE_SESSIONS = 30;

/** The 30-session time-of-day baseline fields (omitted when no baseline session has data). */
const baselineShape = {
  avgVolume: num
    .optional()
    .meta({ description: `Average volume over the ${CHART_BASELINE_SESSIONS} sessions before the window at the bar's time of day (omitted without history).` }),
  avgPremium: num.optional().meta({ description: `Average premium (USD) over the same sessions and time of day.` }),
};

/** The reference's `UnderlyingChartBar`. */
export const UnderlyingChartBarSchema = z.object({
  timestamp: z.string(),
  timestampEnd: z.string(),
  callVolume: int,
  putVolume: int,
  candleVolume: int,
  callPremium: num,
  putPremium: num,
  candlePremium: num,
  stockPrice: num,
  pcRatio: num,
  ...baselineShape,
  chainBidPct: num,
  chainAskPct: num,
});
export type UnderlyingChartBar = z.output<typeof UnderlyingChartBarSchema>;

const SIDE_FIELDS: Record<TradeSide, string> = { BB: "belowBid", B: "bid", AB: "aboveBid", M: "mid", BA: "belowAsk", A: "ask", AA: "aboveAsk", N: "noSide" };

/** The reference's `ContractChartBar`. */
export const ContractChartBarSchema = z.object({
  timestamp: z.string(),
  timestampEnd: z.string(),
  ...(Object.fromEntries(TRADE_SIDES.map((s) => [`${SIDE_FIELDS[s]}Volume`, int])) as Record<`${string}Volume`, typeof int>),
  ...(Object.fromEntries(TRADE_SIDES.map((s) => [`${SIDE_FIELDS[s]}Premium`, num])) as Record<`${string}Premium`, typeof num>),
  candleVolume: int,
  candleVolumeNoMl: int,
  candlePremium: num,
  dailyVolume: int,
  dailyPremium: num,
  vwap: num,
  iv: num.nullable(),
  ...baselineShape,
});
export type ContractChartBar = z.output<typeof ContractChartBarSchema>;

const secs = (ms: number) => String(Math.floor(ms / 1000));

/** Index of the first trade at or after `tsMs` (trades in time order). */
function firstAtOrAfter(trades: readonly { tsMs: number }[], tsMs: number): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (trades[mid].tsMs < tsMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Underlying bars: call and put volume and premium, `pcRatio = putVolume / callVolume` (0 without
 * calls), the percent of volume at or below the bid and at or above the ask, and `stockPrice(endMs)`.
 * @see docs/methodology.md#flow-chart-bars
 */
export function underlyingBars(trades: readonly ChartTrade[], bars: readonly BarInterval[], stockPrice: (endMs: number) => number): UnderlyingChartBar[] {
  return bars.map((b) => {
    let cv = 0,
      pv = 0,
      cp = 0,
      pp = 0,
      bid = 0,
      ask = 0;
    for (let i = firstAtOrAfter(trades, b.startMs); i < trades.length && trades[i].tsMs < b.endMs; i++) {
      const t = trades[i];
      if (t.right === "C") {
        cv += t.size;
        cp += t.premiumUsd;
      } else {
        pv += t.size;
        pp += t.premiumUsd;
      }
      const bucket = SIDE_BUCKET[SIDE_CODE[t.side]];
      if (bucket < 0) bid += t.size;
      else if (bucket > 0) ask += t.size;
    }
    const v = cv + pv;
    return {
      timestamp: secs(b.startMs),
      timestampEnd: secs(b.endMs),
      callVolume: cv,
      putVolume: pv,
      candleVolume: v,
      callPremium: cp,
      putPremium: pp,
      candlePremium: cp + pp,
      stockPrice: stockPrice(b.endMs),
      pcRatio: cv > 0 ? pv / cv : 0,
      chainBidPct: v > 0 ? (100 * bid) / v : 0,
      chainAskPct: v > 0 ? (100 * ask) / v : 0,
    };
  });
}

/**
 * Contract bars: volume and premium per execution side, single-leg volume, the bar's VWAP
 * (`sum(price size) / sum(size)`, 0 when empty), the last print's IV, and the volume and premium of
 * `[sessionStartMs, endMs)` (`daily*`).
 * @see docs/methodology.md#flow-chart-bars
 */
export function contractBars(trades: readonly ChartTrade[], bars: readonly BarInterval[]): ContractChartBar[] {
  return bars.map((b) => {
    const vol = new Array<number>(TRADE_SIDES.length).fill(0);
    const prem = new Array<number>(TRADE_SIDES.length).fill(0);
    let v = 0,
      noMl = 0,
      p = 0,
      px = 0,
      iv: number | null = null,
      dv = 0,
      dp = 0;
    for (let i = firstAtOrAfter(trades, Math.min(b.startMs, b.sessionStartMs)); i < trades.length && trades[i].tsMs < b.endMs; i++) {
      const t = trades[i];
      if (t.tsMs >= b.sessionStartMs) {
        dv += t.size;
        dp += t.premiumUsd;
      }
      if (t.tsMs < b.startMs) continue;
      const s = SIDE_CODE[t.side];
      vol[s] += t.size;
      prem[s] += t.premiumUsd;
      v += t.size;
      p += t.premiumUsd;
      px += t.priceUsd * t.size;
      if (!t.isMultiLeg) noMl += t.size;
      if (t.iv !== null) iv = t.iv;
    }
    const bar: Record<string, unknown> = { timestamp: secs(b.startMs), timestampEnd: secs(b.endMs) };
    TRADE_SIDES.forEach((s, k) => {
      bar[`${SIDE_FIELDS[s]}Volume`] = vol[k];
      bar[`${SIDE_FIELDS[s]}Premium`] = prem[k];
    });
    Object.assign(bar, { candleVolume: v, candleVolumeNoMl: noMl, candlePremium: p, dailyVolume: dv, dailyPremium: dp, vwap: v > 0 ? px / v : 0, iv });
    return bar as ContractChartBar;
  });
}

/** A bar's baseline: average volume and premium at its time of day. */
export interface BarBaseline {
  avgVolume: number;
  avgPremium: number;
}

/**
 * Bars with their baselines attached (by bar start, ms); a bar without one keeps no `avg*` field.
 * @see docs/methodology.md#flow-chart-baselines
 */
export function withBaselines<B extends { timestamp: string }>(bars: B[], baselines: ReadonlyMap<number, BarBaseline>): B[] {
  for (const b of bars) {
    const base = baselines.get(Number(b.timestamp) * 1000);
    if (base) Object.assign(b, base);
  }
  return bars;
}
