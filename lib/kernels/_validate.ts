// Boundary checks shared by both engines: after these pass, kernels trust their input.
import { KernelError } from "./errors";
import type { ChainColumns, ExposureParams, GreekMetric, GridParams, ImpliedVolInput, ProfileColumns, VixStripColumns } from "./types";

/** Parameters with defaults applied. */
export interface ResolvedParams {
  spot: number;
  rate: number;
  q: number;
  callSign: number;
  putSign: number;
}

function finite(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new KernelError("invalid_parameter", `${name} must be a finite number, got ${String(value)}`);
  }
  return value;
}

function column(name: string, value: unknown, type: { name: string; prototype: object }, n: number): void {
  if (!(value instanceof (type as unknown as new () => object))) {
    throw new KernelError("invalid_columns", `${name} must be a ${type.name}`);
  }
  if ((value as ArrayLike<number>).length !== n) {
    throw new KernelError("invalid_columns", `${name} has length ${(value as ArrayLike<number>).length}, expected ${n}`);
  }
}

/** Validates spot, rate, dividend yield and the sign model; applies defaults. */
export function resolveParams(params: ExposureParams): ResolvedParams {
  const spot = finite("spot", params?.spot);
  if (!(spot > 0)) throw new KernelError("invalid_parameter", `spot must be > 0, got ${spot}`);
  return {
    spot,
    rate: finite("rate", params.rate ?? 0),
    q: finite("dividendYield", params.dividendYield ?? 0),
    callSign: finite("callSign", params.callSign ?? 1),
    putSign: finite("putSign", params.putSign ?? -1),
  };
}

/** Checks the profile columns; returns n. */
export function checkProfileColumns(input: ProfileColumns): number {
  if (!input || !(input.strike instanceof Float64Array)) {
    throw new KernelError("invalid_columns", "strike must be a Float64Array");
  }
  const n = input.strike.length;
  column("tYears", input.tYears, Float64Array, n);
  column("iv", input.iv, Float64Array, n);
  column("oi", input.oi, Float64Array, n);
  column("right", input.right, Uint8Array, n);
  return n;
}

/** Checks the exposure columns and grid shape; returns n (the kernels check each index as they go). */
export function checkChainColumns(input: ChainColumns, params: GridParams): number {
  const n = checkProfileColumns(input);
  column("expIndex", input.expIndex, Int32Array, n);
  column("strikeIndex", input.strikeIndex, Int32Array, n);
  const { nStrikes, nExp } = params;
  if (!Number.isInteger(nStrikes) || nStrikes < 0 || !Number.isInteger(nExp) || nExp < 0 || nStrikes * nExp > 2 ** 26) {
    throw new KernelError("invalid_parameter", `grid ${nStrikes} x ${nExp} is not a valid size`);
  }
  return n;
}

/** Checks the spot levels of a profile (finite, > 0). */
export function checkSpots(spots: Float64Array): void {
  if (!(spots instanceof Float64Array)) throw new KernelError("invalid_parameter", "spots must be a Float64Array");
  for (let j = 0; j < spots.length; j++) {
    if (!(spots[j] > 0 && spots[j] < Infinity)) {
      throw new KernelError("invalid_parameter", `spots[${j}] must be a finite number > 0, got ${spots[j]}`);
    }
  }
}

/** Checks an implied-vol batch; returns n. */
export function checkImpliedVolInput(input: ImpliedVolInput): { n: number; spot: number; rate: number; q: number } {
  if (!input || !(input.prices instanceof Float64Array)) {
    throw new KernelError("invalid_columns", "prices must be a Float64Array");
  }
  const n = input.prices.length;
  column("strike", input.strike, Float64Array, n);
  column("tYears", input.tYears, Float64Array, n);
  column("right", input.right, Uint8Array, n);
  const spot = finite("spot", input.spot);
  if (!(spot > 0)) throw new KernelError("invalid_parameter", `spot must be > 0, got ${spot}`);
  return { n, spot, rate: finite("rate", input.rate ?? 0), q: finite("dividendYield", input.dividendYield ?? 0) };
}

/** Whether `out` can receive a result of this shape. */
export function fitsExposure(
  out: { gammaGrid: Float64Array; vannaGrid: Float64Array; gammaByStrike: Float64Array; vannaByStrike: Float64Array } | undefined,
  nStrikes: number,
  nExp: number,
): boolean {
  return (
    !!out &&
    out.gammaGrid?.length === nStrikes * nExp &&
    out.vannaGrid?.length === nStrikes * nExp &&
    out.gammaByStrike?.length === nStrikes &&
    out.vannaByStrike?.length === nStrikes
  );
}

/** Checks a greek-exposure metric name (delta, charm or vomma). */
export function checkGreekMetric(metric: unknown): GreekMetric {
  if (metric !== "delta" && metric !== "charm" && metric !== "vomma") {
    throw new KernelError("invalid_parameter", `metric must be one of delta, charm, vomma, got ${String(metric)}`);
  }
  return metric;
}

/** Whether `out` can receive a greek-exposure result of this shape. */
export function fitsGreekExposure(out: { grid: Float64Array; byStrike: Float64Array } | undefined, nStrikes: number, nExp: number): boolean {
  return !!out && out.grid?.length === nStrikes * nExp && out.byStrike?.length === nStrikes;
}

/** Validates a VIX strip (equal-length Float64Array columns, a finite growth); returns n. */
export function checkVixStrip(input: VixStripColumns, growth: number, contribution: Float64Array): number {
  const n = (input?.strike as Float64Array | undefined)?.length ?? -1;
  column("strike", input?.strike, Float64Array, n);
  column("dK", input.dK, Float64Array, n);
  column("q", input.q, Float64Array, n);
  column("contribution", contribution, Float64Array, n);
  finite("growth", growth);
  return n;
}
