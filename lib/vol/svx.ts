import type { ChainSnapshot } from "../market/market-data";
import { chainTerms, type ChainTerms, type TermRef } from "./chain-terms";
import { varianceToIndex, type InterpolationMethod } from "./constant-maturity";
import { SVX_TENOR_MINUTES, SVX_TENORS, type SvxTenor } from "./defaults";

/** The term an SVX reading used, without its strip. */
export interface SvxTermSummary {
  expiration: string;
  tMinutes: number;
  varianceAnnual: number;
  forward: number;
  k0: number;
  /** Strikes in the strip. */
  strikesUsed: number;
}

/** One SVX reading. */
export interface SvxReading {
  tenor: SvxTenor;
  targetMinutes: number;
  /** The index, `100 sqrt(varianceAnnual)` (annualised vol points). */
  value: number;
  varianceAnnual: number;
  method: InterpolationMethod;
  weightNear: number;
  weightNext: number;
  near: SvxTermSummary | null;
  next: SvxTermSummary | null;
}

/** SVX at every tenor; null where the board has no usable term. */
export type SvxReadings = Record<SvxTenor, SvxReading | null>;

const summary = (r: TermRef | null): SvxTermSummary | null =>
  r && {
    expiration: r.expiration,
    tMinutes: r.tMinutes,
    varianceAnnual: r.term.varianceAnnual,
    forward: r.term.forward,
    k0: r.term.k0,
    strikesUsed: r.term.strip.strike.length,
  };

const asTerms = (chain: ChainSnapshot | ChainTerms): ChainTerms => ("varianceTo" in chain ? chain : chainTerms(chain));

/**
 * SVX, the Cboe VIX methodology on a symbol's own chain at one tenor: the two expirations that
 * bracket the target maturity (in minutes), each term's variance from its strip, linear in total
 * variance to the target, `100 sqrt(.)`. Pass a `chainTerms(chain)` to share terms across reads.
 *
 * @example svx(chain, "svx30")?.value // about 15 on a calm SPXW board
 * @see docs/methodology.md#svx
 */
export function svx(chain: ChainSnapshot | ChainTerms, tenor: SvxTenor): SvxReading | null {
  const terms = asTerms(chain);
  const targetMinutes = SVX_TENOR_MINUTES[tenor];
  const read = terms.varianceTo(targetMinutes);
  if (!read) return null;
  return {
    tenor,
    targetMinutes,
    value: varianceToIndex(read.varianceAnnual),
    varianceAnnual: read.varianceAnnual,
    method: read.method,
    weightNear: read.weightNear,
    weightNext: read.weightNext,
    near: summary(read.near),
    next: summary(read.next),
  };
}

/**
 * SVX at all five tenors from one board (terms computed once).
 *
 * @example svxAll(chain).svx9?.value
 * @see docs/methodology.md#svx-tenors-and-term-selection
 */
export function svxAll(chain: ChainSnapshot | ChainTerms): SvxReadings {
  const terms = asTerms(chain);
  const out = {} as SvxReadings;
  for (const tenor of SVX_TENORS) out[tenor] = svx(terms, tenor);
  return out;
}

/** SVX1D, the one-day reading (see `svx`). @see docs/methodology.md#one-day-svx */
export const svx1d = (chain: ChainSnapshot | ChainTerms): SvxReading | null => svx(chain, "svx1d");
/** SVX9, the nine-day reading (see `svx`). @see docs/methodology.md#svx */
export const svx9 = (chain: ChainSnapshot | ChainTerms): SvxReading | null => svx(chain, "svx9");
/** SVX30, the 30-day reading (VIX-style; see `svx`). @see docs/methodology.md#svx */
export const svx30 = (chain: ChainSnapshot | ChainTerms): SvxReading | null => svx(chain, "svx30");
/** SVX3M, the 93-day reading (see `svx`). @see docs/methodology.md#svx */
export const svx3m = (chain: ChainSnapshot | ChainTerms): SvxReading | null => svx(chain, "svx3m");
/** SVX6M, the 184-day reading (see `svx`). @see docs/methodology.md#svx */
export const svx6m = (chain: ChainSnapshot | ChainTerms): SvxReading | null => svx(chain, "svx6m");
