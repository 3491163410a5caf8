/**
 * The market tide: net call and net put premium (buying minus selling) across tickers, per bucket
 * and cumulative, over one or more sessions, with an SPY price overlay.
 * @see docs/methodology.md#flow-market-tide
 */
import * as z from "zod";
import { sessionBounds, type IsoDate } from "../time";
import { TIDE_DEEP_ITM_PCT } from "./market-params";
import type { ScoredTrade } from "./flow-score";
import { SIDE_AGGRESSION, SIDE_CODE } from "./trade-side";

/** Flag bits of a {@link TideMinuteFold} key. */
export const TIDE_KEY = { call: 1, multiLeg: 2, deepItm: 4 } as const;

/**
 * One ticker's session folded by minute from the open and key (right, multi-leg, deep ITM): plain
 * number arrays of equal length, in (minute, key) order, only non-empty cells. `ncp` sums
 * `sign(aggression) * premium` (crosses count 0); `manual` sums the same with the sign read from the
 * execution side alone (crosses counted); `volume` contracts.
 */
export interface TideMinuteFold {
  minute: number[];
  key: number[];
  ncp: number[];
  manual: number[];
  volume: number[];
}

/** Trades the fold reads. */
export type TideFoldTrade = Pick<ScoredTrade, "tsMs" | "right" | "premiumUsd" | "size" | "aggression" | "side" | "isMultiLeg" | "moneynessPct">;

/**
 * Folds a session's trades (time order) by minute from `openMs` and key.
 * @example foldTideMinutes(trades, sessionBounds("2024-03-06").openMs).ncp.length;
 * @see docs/methodology.md#flow-market-tide
 */
export function foldTideMinutes(trades: readonly TideFoldTrade[], openMs: number): TideMinuteFold {
  const out: TideMinuteFold = { minute: [], key: [], ncp: [], manual: [], volume: [] };
  let minute = -1;
  const slot = new Array<number>(8).fill(-1);
  for (const t of trades) {
    const m = Math.floor((t.tsMs - openMs) / 60_000);
    if (m < 0) continue;
    if (m !== minute) {
      minute = m;
      slot.fill(-1);
    }
    const key = (t.right === "C" ? TIDE_KEY.call : 0) | (t.isMultiLeg ? TIDE_KEY.multiLeg : 0) | (t.moneynessPct < TIDE_DEEP_ITM_PCT ? TIDE_KEY.deepItm : 0);
    let i = slot[key];
    if (i < 0) {
      i = out.minute.length;
      slot[key] = i;
      out.minute.push(m);
      out.key.push(key);
      out.ncp.push(0);
      out.manual.push(0);
      out.volume.push(0);
    }
    out.ncp[i] += Math.sign(t.aggression) * t.premiumUsd;
    out.manual[i] += Math.sign(SIDE_AGGRESSION[SIDE_CODE[t.side]]) * t.premiumUsd;
    out.volume[i] += t.size;
  }
  return out;
}

/** Bucket sizes of the market tide. */
export const MARKET_TIDE_BUCKETS = ["1min", "5min", "15min", "30min", "1d", "1w"] as const;
/** One bucket size. */
export type MarketTideBucket = (typeof MARKET_TIDE_BUCKETS)[number];
const BUCKET_MINUTES: Readonly<Record<string, number>> = { "1min": 1, "5min": 5, "15min": 15, "30min": 30 };

/** One bar (reference `MarketTideBar`). */
export const MarketTideBarSchema = z.object({
  timestamp: z.number().int().meta({ description: "Unix seconds (bucket start)." }),
  timestampEnd: z.number().int().meta({ description: "Unix seconds (bucket end)." }),
  ncp: z.number().meta({ description: "Net call premium: calls bought minus calls sold, USD (crosses left out)." }),
  npp: z.number().meta({ description: "Net put premium: puts bought minus puts sold, USD (crosses left out)." }),
  ncpCumulative: z.number(),
  nppCumulative: z.number(),
  manualNcp: z.number().meta({ description: "ncp with crosses counted by their execution side." }),
  manualNpp: z.number(),
  manualNcpCumulative: z.number(),
  manualNppCumulative: z.number(),
  callVolume: z.number().int().min(0),
  putVolume: z.number().int().min(0),
  totalVolume: z.number().int().min(0),
  spyPrice: z.number().meta({ description: "SPY's last regular-session price at the bucket end (0 when unknown)." }),
  isGap: z.boolean().meta({ description: "True for the bar spanning the closed market between two sessions (no trades)." }),
});
/** One market tide bar. */
export type MarketTideBar = z.output<typeof MarketTideBarSchema>;

/** One session's input of {@link marketTideBars}. */
export interface TideSession {
  date: IsoDate;
  /** Minutes of the session that have happened (the whole session once it closed). */
  minutes: number;
  /** Every ticker's fold. */
  folds: readonly TideMinuteFold[];
  /**
   * The folds already summed per minute under the request's filters ({@link tideMinuteSeries}),
   * e.g. from a stored market-wide table: used instead of `folds` (same numbers, same order of sums).
   */
  series?: TideMinuteSeries;
  /** SPY's close of each minute from the open (NaN where there is none). */
  spyClose: ArrayLike<number>;
}

/** Which trades the directional totals leave out. */
export interface TideFilters {
  excludeMultiLeg?: boolean;
  excludeDeepItm?: boolean;
}

/** A session's tide summed over tickers per minute from the open, under one set of filters. */
export interface TideMinuteSeries {
  ncp: Float64Array;
  npp: Float64Array;
  mNcp: Float64Array;
  mNpp: Float64Array;
  callVol: Float64Array;
  putVol: Float64Array;
}

type MinuteSeries = TideMinuteSeries;

/**
 * The folds of a session's tickers summed per minute (the first `minutes`), in fold order, with
 * the trades the filters leave out kept out of the directional sums (volumes count every trade).
 * @example tideMinuteSeries(folds, 390, { excludeMultiLeg: true }).ncp[0]; // net call premium of the first minute
 * @see docs/methodology.md#flow-market-tide
 */
export function tideMinuteSeries(folds: readonly TideMinuteFold[], minutes: number, f: TideFilters = {}): TideMinuteSeries {
  return minuteSeries({ date: "", minutes, folds, spyClose: [] }, f);
}

function minuteSeries(s: TideSession, f: TideFilters): MinuteSeries {
  if (s.series) return s.series;
  const n = s.minutes;
  const out: MinuteSeries = {
    ncp: new Float64Array(n),
    npp: new Float64Array(n),
    mNcp: new Float64Array(n),
    mNpp: new Float64Array(n),
    callVol: new Float64Array(n),
    putVol: new Float64Array(n),
  };
  for (const fold of s.folds) {
    for (let i = 0; i < fold.minute.length; i++) {
      const m = fold.minute[i];
      if (m >= n) continue;
      const key = fold.key[i];
      const call = (key & TIDE_KEY.call) !== 0;
      (call ? out.callVol : out.putVol)[m] += fold.volume[i];
      if ((f.excludeMultiLeg && key & TIDE_KEY.multiLeg) || (f.excludeDeepItm && key & TIDE_KEY.deepItm)) continue;
      (call ? out.ncp : out.npp)[m] += fold.ncp[i];
      (call ? out.mNcp : out.mNpp)[m] += fold.manual[i];
    }
  }
  return out;
}

/** The last finite value of `xs[0..end)`, else `fallback`. */
function lastPrice(xs: ArrayLike<number>, end: number, fallback: number): number {
  for (let i = Math.min(end, xs.length) - 1; i >= 0; i--) if (Number.isFinite(xs[i])) return xs[i];
  return fallback;
}

/** Monday of the ISO week of a date (the `1w` bucket key). */
function weekOf(date: IsoDate): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  const dow = (new Date(ms).getUTCDay() + 6) % 7;
  return new Date(ms - dow * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Market tide bars over sessions (oldest first). Intraday buckets run from each session's open
 * (the last ends at the close, or at the last minute that happened), with one `isGap` bar between
 * two sessions; `1d` is one bar per session, `1w` one per calendar week's sessions. Each bar sums
 * the minutes it covers: `ncp`/`npp` and the `manual` variants over the trades the filters keep,
 * volumes over every trade; cumulative values run from the first bar; `spyPrice` is SPY's last
 * minute close within the bar (carried over from earlier bars when it has none, 0 before any).
 * @example
 * marketTideBars([{ date, minutes: 390, folds, spyClose }], "5min").at(-1)?.ncpCumulative;
 * @see docs/methodology.md#flow-market-tide
 */
export function marketTideBars(sessions: readonly TideSession[], bucket: MarketTideBucket, f: TideFilters = {}): MarketTideBar[] {
  const bars: MarketTideBar[] = [];
  const cum = { ncp: 0, npp: 0, mNcp: 0, mNpp: 0 };
  let spy = 0;
  const push = (startMs: number, endMs: number, parts: ReadonlyArray<[MinuteSeries, number, number]>, isGap = false) => {
    const b = { ncp: 0, npp: 0, mNcp: 0, mNpp: 0, call: 0, put: 0 };
    for (const [s, from, to] of parts) {
      for (let m = from; m < to; m++) {
        b.ncp += s.ncp[m];
        b.npp += s.npp[m];
        b.mNcp += s.mNcp[m];
        b.mNpp += s.mNpp[m];
        b.call += s.callVol[m];
        b.put += s.putVol[m];
      }
    }
    cum.ncp += b.ncp;
    cum.npp += b.npp;
    cum.mNcp += b.mNcp;
    cum.mNpp += b.mNpp;
    bars.push({
      timestamp: Math.floor(startMs / 1000),
      timestampEnd: Math.floor(endMs / 1000),
      ncp: b.ncp,
      npp: b.npp,
      ncpCumulative: cum.ncp,
      nppCumulative: cum.npp,
      manualNcp: b.mNcp,
      manualNpp: b.mNpp,
      manualNcpCumulative: cum.mNcp,
      manualNppCumulative: cum.mNpp,
      callVolume: b.call,
      putVolume: b.put,
      totalVolume: b.call + b.put,
      spyPrice: spy,
      isGap,
    });
  };
  const series = sessions.map((s) => minuteSeries(s, f));
  if (bucket === "1d" || bucket === "1w") {
    let i = 0;
    while (i < sessions.length) {
      let j = i + 1;
      if (bucket === "1w") while (j < sessions.length && weekOf(sessions[j].date) === weekOf(sessions[i].date)) j++;
      const parts: Array<[MinuteSeries, number, number]> = [];
      for (let k = i; k < j; k++) {
        parts.push([series[k], 0, sessions[k].minutes]);
        spy = lastPrice(sessions[k].spyClose, sessions[k].minutes, spy);
      }
      push(sessionBounds(sessions[i].date).openMs, sessionBounds(sessions[j - 1].date).closeMs, parts);
      i = j;
    }
    return bars;
  }
  const step = BUCKET_MINUTES[bucket];
  sessions.forEach((s, k) => {
    const { openMs, closeMs } = sessionBounds(s.date);
    if (k > 0) push(sessionBounds(sessions[k - 1].date).closeMs, openMs, [], true);
    for (let m = 0; m < s.minutes; m += step) {
      const end = Math.min(m + step, s.minutes);
      spy = lastPrice(s.spyClose, end, spy);
      push(openMs + m * 60_000, Math.min(openMs + (m + step) * 60_000, closeMs), [[series[k], m, end]]);
    }
  });
  return bars;
}
