/**
 * Volume against open interest by option type and moneyness band (the reference's `/v1/vol-oi`):
 * ratios, a signal per type and overall, an accumulation score and the share of volume that must
 * be opening.
 * @see docs/methodology.md#flow-vol-oi
 */
import * as z from "zod";
import { moneynessPct } from "./trade-facts";

/** Signal thresholds on volume / open interest, and the accumulation score's weights. @see docs/methodology.md#flow-vol-oi */
export const VOL_OI_PARAMS = {
  strongAccumulation: 1,
  accumulation: 0.5,
  mixed: 0.2,
  distribution: 0.05,
  ratioWeight: 70,
  otmWeight: 30,
} as const;

/** Moneyness bands, by percent out of the money: >= 10, 5-10, 3-5, below 3 (ATM or ITM). */
export const VOL_OI_BANDS = ["otm10plus", "otm510", "otm35", "atmItm"] as const;
export type VolOiBand = (typeof VOL_OI_BANDS)[number];

/** The band of a signed percent out of the money. */
export function volOiBand(otmPct: number): VolOiBand {
  return otmPct >= 10 ? "otm10plus" : otmPct >= 5 ? "otm510" : otmPct >= 3 ? "otm35" : "atmItm";
}

const SIGNALS = ["strong_accumulation", "accumulation", "mixed", "distribution", "low_activity"] as const;
export type VolOiSignal = (typeof SIGNALS)[number];

/**
 * Signal of a volume / OI ratio: >= 1 `strong_accumulation`, >= 0.5 `accumulation`, >= 0.2
 * `mixed`, >= 0.05 `distribution`, else (or without volume) `low_activity`.
 */
export function volOiSignal(ratio: number, volume: number): VolOiSignal {
  const P = VOL_OI_PARAMS;
  if (!(volume > 0)) return "low_activity";
  if (ratio >= P.strongAccumulation) return "strong_accumulation";
  if (ratio >= P.accumulation) return "accumulation";
  if (ratio >= P.mixed) return "mixed";
  if (ratio >= P.distribution) return "distribution";
  return "low_activity";
}

const int = z.number().int().nonnegative();
const BucketSchema = z.object({ volume: int, oi: int, ratio: z.number() });
const TypeSchema = z.object({
  totalVolume: int,
  totalOi: int,
  volOiRatio: z.number(),
  signal: z.enum(SIGNALS),
  byMoneyness: z.object({ otm10plus: BucketSchema, otm510: BucketSchema, otm35: BucketSchema, atmItm: BucketSchema }),
});

/** What `volOiAnalysis` returns (the reference's `VolOiResponse` without ticker, time and timeframe). */
export const VolOiResultSchema = z.object({
  volOiAnalysis: z.object({ calls: TypeSchema, puts: TypeSchema }),
  accumulationScore: z.number().int().min(0).max(100),
  newPositionEstimatePct: z.number().int().min(0).max(100),
  signal: z.enum(SIGNALS),
});
export type VolOiResult = z.output<typeof VolOiResultSchema>;

/** One contract's volume over the period and its open interest at the period's start. */
export interface VolOiContract {
  right: "C" | "P";
  strike: number;
  volume: number;
  oi: number;
}

const ratio = (v: number, oi: number) => (oi > 0 ? v / oi : 0);

/**
 * The analysis of `contracts` against `spot`, after the filters (a contract left out counts
 * nowhere). Overall: `R = sum(volume) / sum(OI)`; `accumulationScore = round(70 min(1, R) + 30 s)`
 * with `s` the volume share at least 3% OTM; `newPositionEstimatePct = round(100 sum(max(0,
 * volume - OI)) / sum(volume))`.
 * @example volOiAnalysis([{ right: "C", strike: 110, volume: 50, oi: 100 }], 100, {}).volOiAnalysis.calls.volOiRatio // 0.5
 * @see docs/methodology.md#flow-vol-oi
 */
export function volOiAnalysis(
  contracts: Iterable<VolOiContract>,
  spot: number,
  f: { optionType?: "call" | "put" | "all"; band?: VolOiBand | "all"; minOi?: number },
): VolOiResult {
  const make = () => ({
    v: 0,
    oi: 0,
    bands: Object.fromEntries(VOL_OI_BANDS.map((b) => [b, { volume: 0, oi: 0 }])) as Record<VolOiBand, { volume: number; oi: number }>,
  });
  const acc = { C: make(), P: make() };
  let excess = 0;
  let otmVolume = 0;
  for (const c of contracts) {
    if (f.optionType === "call" && c.right !== "C") continue;
    if (f.optionType === "put" && c.right !== "P") continue;
    if (f.minOi !== undefined && c.oi < f.minOi) continue;
    const band = volOiBand(spot > 0 ? moneynessPct(c.right, c.strike, spot) : 0);
    if (f.band && f.band !== "all" && band !== f.band) continue;
    const a = acc[c.right];
    a.v += c.volume;
    a.oi += c.oi;
    a.bands[band].volume += c.volume;
    a.bands[band].oi += c.oi;
    excess += Math.max(0, c.volume - c.oi);
    if (band !== "atmItm") otmVolume += c.volume;
  }
  const block = (a: ReturnType<typeof make>) => ({
    totalVolume: a.v,
    totalOi: a.oi,
    volOiRatio: ratio(a.v, a.oi),
    signal: volOiSignal(ratio(a.v, a.oi), a.v),
    byMoneyness: {
      otm10plus: { ...a.bands.otm10plus, ratio: ratio(a.bands.otm10plus.volume, a.bands.otm10plus.oi) },
      otm510: { ...a.bands.otm510, ratio: ratio(a.bands.otm510.volume, a.bands.otm510.oi) },
      otm35: { ...a.bands.otm35, ratio: ratio(a.bands.otm35.volume, a.bands.otm35.oi) },
      atmItm: { ...a.bands.atmItm, ratio: ratio(a.bands.atmItm.volume, a.bands.atmItm.oi) },
    },
  });
  const volume = acc.C.v + acc.P.v;
  const oi = acc.C.oi + acc.P.oi;
  const R = ratio(volume, oi);
  const otmShare = volume > 0 ? otmVolume / volume : 0;
  return {
    volOiAnalysis: { calls: block(acc.C), puts: block(acc.P) },
    accumulationScore: volume > 0 ? Math.round(VOL_OI_PARAMS.ratioWeight * Math.min(1, R) + VOL_OI_PARAMS.otmWeight * otmShare) : 0,
    newPositionEstimatePct: volume > 0 ? Math.round((100 * excess) / volume) : 0,
    signal: volOiSignal(R, volume),
  };
}
