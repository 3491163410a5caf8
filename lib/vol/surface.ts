import { finishSteps } from "../finish-steps";
import * as z from "zod";
import type { ChainSnapshot } from "../market/market-data";
import { normCdf } from "../math/normal";
import { chainTerms, type ChainTerms } from "./chain-terms";
import { MINUTES_PER_DAY, MINUTES_PER_YEAR, SURFACE_DELTAS } from "./defaults";
import { skew30 } from "./skew";
import { fitSvi, sviCalendarGap, sviTotalVariance, type SviFit, type SviParams } from "./svi";
import { expirationSmile } from "./term-structure";

/** One expiration of the surface: IVs (vol points) by forward call delta from its fitted slice. */
export const SurfaceExpirySchema = z.object({
  expiration: z.string(),
  dte: z.number(),
  /** IV at the forward (`k = 0`), vol points. */
  atm_iv: z.number(),
  /** Vol points at forward call deltas 0.90 (10-delta put), 0.75 (25-delta put), 0.25, 0.10. */
  iv_10p: z.number().nullable(),
  iv_25p: z.number().nullable(),
  iv_25c: z.number().nullable(),
  iv_10c: z.number().nullable(),
  fit: z.object({
    model: z.literal("svi_raw"),
    n: z.number().int(),
    rmse_iv: z.number(),
    butterfly_ok: z.boolean(),
    /** Against the previous fitted expiration; null for the first. */
    calendar_ok: z.boolean().nullable(),
  }),
});
export type SurfaceExpiry = z.output<typeof SurfaceExpirySchema>;

/** The `surface` module object (the smile per expiry and the 30-day skew readings). */
export const SurfaceModuleSchema = z.object({
  rr25_30: z.number().nullable(),
  bf25_30: z.number().nullable(),
  atm_30: z.number().nullable(),
  expiries: z.array(SurfaceExpirySchema),
});
export type SurfaceModule = z.output<typeof SurfaceModuleSchema>;

/**
 * IV (decimal) of an SVI slice at the forward call delta `delta` (`N(d1)`, `d1 = (-k + w/2)/sqrt(w)`),
 * by bisection on `k` within 12 ATM standard deviations; null when not bracketed there.
 *
 * @see docs/methodology.md#surface
 */
export function sviIvAtDelta(p: SviParams, tYears: number, delta: number): number | null {
  const w = (k: number) => Math.max(sviTotalVariance(p, k), 1e-16);
  const d = (k: number) => normCdf((-k + w(k) / 2) / Math.sqrt(w(k)));
  const sd = Math.sqrt(w(0));
  let lo = -12 * sd;
  let hi = 12 * sd;
  if (!(d(lo) >= delta && d(hi) <= delta)) return null;
  for (let i = 0; i < 80 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (d(mid) > delta) lo = mid;
    else hi = mid;
  }
  return Math.sqrt(w((lo + hi) / 2) / tYears);
}

/**
 * The volatility surface of a board: per expiration (from one day out) the raw SVI fit of its
 * smile and IVs at the delta buckets (10/25-delta puts, ATM, 25/10-delta calls), with the fit's
 * butterfly and calendar checks; plus `rr25_30`, `bf25_30`, `atm_30` (`skew30`).
 *
 * @example surface(chain).expiries[0].iv_25p
 * @see docs/methodology.md#surface
 */
export function surface(chain: ChainSnapshot, terms: ChainTerms = chainTerms(chain)): SurfaceModule {
  return finishSteps(surfaceSteps(chain, terms));
}

/**
 * `surface` one expiration's fit at a time: the generator yields after each fitted expiration
 * (an SVI fit is several ms on a large root) and returns the module, so a caller on an event loop
 * can let other work run between fits. Same values as `surface`.
 * @example const it = surfaceSteps(chain, terms); let r = it.next(); while (!r.done) r = it.next(); r.value.expiries
 * @see docs/methodology.md#surface
 */
export function* surfaceSteps(chain: ChainSnapshot, terms: ChainTerms = chainTerms(chain)): Generator<void, SurfaceModule, void> {
  const expiries: SurfaceExpiry[] = [];
  let prev: SviFit | null = null;
  for (let k = 0; k < terms.expirations.length; k++) {
    const e = terms.expirations[k];
    if (e.tMinutes < MINUTES_PER_DAY) continue;
    const tYears = e.tMinutes / MINUTES_PER_YEAR;
    const forward = terms.term(k)?.forward ?? chain.spot * Math.exp((chain.rate - chain.dividendYield) * tYears);
    const fit = fitSvi(expirationSmile(chain, e.expIndex, forward, tYears));
    yield;
    if (!fit) continue;
    const params = fit.params;
    const at = (delta: number) => {
      const v = sviIvAtDelta(params, tYears, delta);
      return v === null ? null : 100 * v;
    };
    const [p10, p25, c25, c10] = SURFACE_DELTAS.map(at);
    expiries.push({
      expiration: e.expiration,
      dte: e.tMinutes / MINUTES_PER_DAY,
      atm_iv: 100 * Math.sqrt(Math.max(sviTotalVariance(params, 0), 0) / tYears),
      iv_10p: p10,
      iv_25p: p25,
      iv_25c: c25,
      iv_10c: c10,
      fit: {
        model: "svi_raw",
        n: fit.n,
        rmse_iv: fit.rmseIv,
        butterfly_ok: fit.butterflyOk,
        calendar_ok: prev ? sviCalendarGap(prev.params, params) >= 0 : null,
      },
    });
    prev = fit;
  }
  const s = skew30(chain, terms);
  return { rr25_30: s?.rr25_30 ?? null, bf25_30: s?.bf25_30 ?? null, atm_30: s?.atm_30 ?? null, expiries };
}
