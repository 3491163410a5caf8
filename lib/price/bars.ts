/**
 * Columnar OHLCV bars: the input (one-minute bars, as `MarketData.minuteBars` returns them) and the
 * output (bars of any resolution) of the aggregation.
 * @see docs/methodology.md#aggregation
 */
import type { OhlcvColumns, SidedVolumeColumns } from "../market/market-data";

/**
 * Bars of one resolution, oldest first, all columns of equal length. `t` is the bar's start in
 * ms (intraday), or 00:00 UTC of the session date (daily) or of the week's first session (weekly).
 * `bv`/`sv`/`uv` (buy, sell and unclassified volume) are optional: sources without sided volume
 * leave them out.
 */
export type PriceBars = OhlcvColumns & Partial<SidedVolumeColumns>;

/**
 * One-minute bars, oldest first, `t` the bar's start in ms: the aggregation's input, the same
 * columns as its output. `MarketData.minuteBars` results satisfy this type.
 */
export type MinuteBarColumns = PriceBars;

/** The value columns every bar set has. */
const OHLCV_COLUMNS = ["o", "h", "l", "c", "v"] as const;
/** The sided-volume columns, present only when the source has them. */
const SIDED_COLUMNS = ["bv", "sv", "uv"] as const;

/** True when all three sided-volume columns are present with the bars' length. */
export function hasSidedVolume(bars: MinuteBarColumns): boolean {
  const n = bars.t.length;
  return bars.bv?.length === n && bars.sv?.length === n && bars.uv?.length === n;
}

/** An empty bar set, with or without sided columns. */
export function emptyPriceBars(sided: boolean): PriceBars {
  return allocateBars(0, sided);
}

/** Zeroed columns of length n. */
export function allocateBars(n: number, sided: boolean): PriceBars {
  const bars: PriceBars = {
    t: new Float64Array(n),
    o: new Float64Array(n),
    h: new Float64Array(n),
    l: new Float64Array(n),
    c: new Float64Array(n),
    v: new Float64Array(n),
  };
  if (sided) {
    bars.bv = new Float64Array(n);
    bars.sv = new Float64Array(n);
    bars.uv = new Float64Array(n);
  }
  return bars;
}

/** Rows `[from, to)` of every column (views, not copies). */
export function sliceBars(bars: PriceBars, from: number, to: number): PriceBars {
  const out: PriceBars = {
    t: bars.t.subarray(from, to),
    o: bars.o.subarray(from, to),
    h: bars.h.subarray(from, to),
    l: bars.l.subarray(from, to),
    c: bars.c.subarray(from, to),
    v: bars.v.subarray(from, to),
  };
  if (bars.bv && bars.sv && bars.uv) {
    out.bv = bars.bv.subarray(from, to);
    out.sv = bars.sv.subarray(from, to);
    out.uv = bars.uv.subarray(from, to);
  }
  return out;
}

/**
 * The same bars without `bv`/`sv`/`uv` (for sources whose sided volume is meaningless, such as
 * indices, which do not trade).
 * @example withoutSidedVolume(bars).bv // undefined
 */
export function withoutSidedVolume(bars: PriceBars): PriceBars {
  return { t: bars.t, o: bars.o, h: bars.h, l: bars.l, c: bars.c, v: bars.v };
}

/**
 * Bar sets concatenated in order (they must already be in time order and not overlap). Sided
 * columns survive only when every part has them.
 */
export function concatBars(parts: readonly PriceBars[]): PriceBars {
  if (parts.length === 1) return parts[0];
  let n = 0;
  let sided = true;
  for (const p of parts) {
    n += p.t.length;
    if (!(p.bv && p.sv && p.uv)) sided = false;
  }
  const out = allocateBars(n, sided);
  const cols = sided ? ([...OHLCV_COLUMNS, ...SIDED_COLUMNS] as const) : OHLCV_COLUMNS;
  let at = 0;
  for (const p of parts) {
    out.t.set(p.t, at);
    for (const c of cols) out[c]!.set(p[c]!, at);
    at += p.t.length;
  }
  return out;
}
