import * as z from "zod";
import { IV_WINDOWS, QUALITY_FAIR_STRIKES, QUALITY_GOOD_STRIKES, SVX_TENORS, type SvxTenor } from "./defaults";
import { ivRankPercentiles, type IvWindow } from "./iv-rank";
import type { SvxReading, SvxReadings } from "./svx";
import { curveState, ratioToReference, termSlopePct, type TermRow } from "./term-structure";
import { meanReversion } from "./reversion";
import { zScore } from "./tilt";
import { weekendAdjusted } from "./weekday-adjust";

/** Depth of the chain behind the headline reading. */
export const ChainQualitySchema = z.enum(["good", "fair", "thin"]);
export type ChainQuality = z.output<typeof ChainQualitySchema>;

/**
 * Chain quality from SVX30's strips: the fewer strikes of its near and next terms; `good` at 30 or
 * more, `fair` at 10 or more, else (or without SVX30) `thin`. Thin chains are not ranked.
 *
 * @example chainQuality(svxAll(chain).svx30) // "good" on SPXW
 * @see docs/methodology.md#chain-quality
 */
export function chainQuality(svx30: SvxReading | null): ChainQuality {
  if (!svx30) return "thin";
  const counts = [svx30.near, svx30.next].filter((t) => t !== null).map((t) => t!.strikesUsed);
  const least = counts.length ? Math.min(...counts) : 0;
  return least >= QUALITY_GOOD_STRIKES ? "good" : least >= QUALITY_FAIR_STRIKES ? "fair" : "thin";
}

const Pct = z.object({ "1y": z.number().nullable(), "3y": z.number().nullable(), "5y": z.number().nullable() });

/** The `iv` module object (snake_case as the reference service; vol points). */
export const IvModuleSchema = z.object({
  svx1d: z.number().nullable(),
  svx9: z.number().nullable(),
  svx30: z.number().nullable(),
  svx3m: z.number().nullable(),
  svx6m: z.number().nullable(),
  svx1d_adj: z.number().nullable(),
  svx9_adj: z.number().nullable(),
  svx30_adj: z.number().nullable(),
  svx3m_adj: z.number().nullable(),
  svx6m_adj: z.number().nullable(),
  iv_rank: z.number().nullable(),
  iv_pct: z.number().nullable(),
  pct_by: z.object({ svx1d: Pct, svx9: Pct, svx30: Pct, svx3m: Pct, svx6m: Pct }),
  range_1y: z.object({ lo: z.number(), hi: z.number() }).nullable(),
  ratio_vix: z.number().nullable(),
  ratio_z: z.number().nullable(),
  term_slope: z.number().nullable(),
  curve: z.enum(["contango", "backwardation", "humped", "flat"]).nullable(),
  quality: ChainQualitySchema,
  thin: z.boolean(),
  reversion: z
    .object({
      horizon_sessions: z.number().int(),
      median: z.number(),
      direction: z.enum(["down", "up"]),
      quintile: z.number().int(),
      odds_pct: z.number().nullable(),
      samples: z.number().int(),
    })
    .nullable(),
});
export type IvModule = z.output<typeof IvModuleSchema>;

/** Inputs of `ivModule` besides today's readings. */
export interface IvModuleHistory {
  /** Daily closing readings per tenor (vol points), oldest first, ending with today's reading. */
  daily?: Partial<Record<SvxTenor, ArrayLike<number>>>;
  /** Today's SVX30 of the reference (S&P, `SPXW`). */
  referenceSvx30?: number | null;
  /** Daily `ratio_vix` readings before today, oldest first (for `ratio_z`, the last 252 are used). */
  ratioDaily?: ArrayLike<number>;
  /** Session date of each `daily` entry (today's last): the weekday factors of `*_adj` need them. */
  dates?: readonly string[];
}

/**
 * The `iv` module from today's SVX readings and the daily history: the five readings, IV rank and
 * percentile (1y, on SVX30), percentiles per tenor and window, the one-year range, the ratio to
 * the reference and its z-score, term slope, curve state, chain quality, the weekend-adjusted
 * readings (`*_adj`, with `history.dates`) and SVX30's mean-reversion odds.
 *
 * @example ivModule(svxAll(chain), { daily: { svx30: series }, referenceSvx30: 15.2 })
 * @see docs/methodology.md#iv-module
 */
export function ivModule(readings: SvxReadings, history: IvModuleHistory = {}): IvModule {
  const v = (t: SvxTenor) => readings[t]?.value ?? null;
  const pct_by = {} as IvModule["pct_by"];
  for (const t of SVX_TENORS) {
    const series = history.daily?.[t];
    const r = series ? ivRankPercentiles(series) : null;
    pct_by[t] = { "1y": null, "3y": null, "5y": null };
    if (r) for (const w of Object.keys(IV_WINDOWS) as IvWindow[]) pct_by[t][w] = r.pct_by[w];
  }
  const main = history.daily?.svx30 ? ivRankPercentiles(history.daily.svx30) : null;
  const ratio = ratioToReference(v("svx30"), history.referenceSvx30 ?? null);
  const ratioWindow = history.ratioDaily ? Array.from(history.ratioDaily).slice(-IV_WINDOWS["1y"]) : null;
  const quality = chainQuality(readings.svx30);
  const dates = history.dates;
  const adj = (t: SvxTenor): number | null => {
    const d = history.daily?.[t];
    if (!dates || !d || dates.length !== d.length || d.length < 2) return null;
    return weekendAdjusted(dates.slice(0, -1), Array.from(d).slice(0, -1), dates[dates.length - 1], v(t));
  };
  return {
    svx1d: v("svx1d"),
    svx9: v("svx9"),
    svx30: v("svx30"),
    svx3m: v("svx3m"),
    svx6m: v("svx6m"),
    svx1d_adj: adj("svx1d"),
    svx9_adj: adj("svx9"),
    svx30_adj: adj("svx30"),
    svx3m_adj: adj("svx3m"),
    svx6m_adj: adj("svx6m"),
    iv_rank: main?.iv_rank ?? null,
    iv_pct: main?.iv_pct ?? null,
    pct_by,
    range_1y: main?.range_1y ?? null,
    ratio_vix: ratio,
    ratio_z: ratio !== null && ratioWindow ? zScore(ratioWindow, ratio) : null,
    term_slope: termSlopePct(v("svx30"), v("svx3m")),
    curve: curveState({ svx9: v("svx9"), svx30: v("svx30"), svx3m: v("svx3m") }),
    quality,
    thin: quality === "thin",
    reversion: history.daily?.svx30 ? meanReversion(history.daily.svx30) : null,
  };
}

/** The `term` module object: one row per listed expiration used (no forwards: not served). */
export const TermModuleSchema = z.object({
  rows: z.array(z.object({ expiration: z.string(), dte: z.number(), iv: z.number() })),
});
export type TermModule = z.output<typeof TermModuleSchema>;

/**
 * The `term` module from term-structure rows: expiration, fractional calendar days, ATM IV in vol
 * points.
 *
 * @example termModule(termStructure(chain)).rows[0].iv
 * @see docs/methodology.md#term-structure
 */
export function termModule(rows: readonly TermRow[]): TermModule {
  return { rows: rows.map((r) => ({ expiration: r.expiration, dte: r.dte, iv: 100 * r.atmIvDecimal })) };
}
