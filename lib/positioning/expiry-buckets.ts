import type { KernelEngine } from "../kernels";
import { loadKernelsSync } from "../kernels";
import { etDateOf } from "../time";
import { exposureGrid, type ExposureGridMeta } from "./exposure-grid";
import { isoUtc } from "./iso-utc";
import type { ExposureGridOptionsInput } from "./options";
import type { PositioningChain } from "./types";

/**
 * The days-to-expiry buckets, in order: `[minDte, maxDte]` calendar days (null: no upper bound).
 * @see docs/methodology.md#exposure-by-expiry-bucket
 */
export const EXPIRY_BUCKETS = Object.freeze([
  { bucket: "0dte", minDte: 0, maxDte: 0 },
  { bucket: "1-7", minDte: 1, maxDte: 7 },
  { bucket: "8-30", minDte: 8, maxDte: 30 },
  { bucket: "31-90", minDte: 31, maxDte: 90 },
  { bucket: "beyond", minDte: 91, maxDte: null },
] as const);

/** A bucket's name. */
export type ExpiryBucketName = (typeof EXPIRY_BUCKETS)[number]["bucket"];

/** One bucket's exposure. */
export interface ExpiryBucket {
  bucket: ExpiryBucketName;
  minDte: number;
  /** Last day of the bucket, inclusive; null for the open-ended last bucket. */
  maxDte: number | null;
  /** Expirations in the bucket (of those selected), ascending. */
  expirations: string[];
  /** Sum over the bucket's expirations and every selected strike, dollars (the metric's unit). */
  value: number;
}

/** Exposure of one symbol's board by days-to-expiry bucket. */
export interface ExpiryBuckets {
  symbol: string;
  asOf: string;
  spot: number;
  /** The board's ET calendar date, from which days to expiry are counted. */
  sessionDate: string;
  /** Every bucket, in order, empty ones with value 0. */
  buckets: ExpiryBucket[];
  /** The grid's total (sum of the per-strike values): equal to the buckets' sum up to rounding. */
  total: number;
  meta: ExposureGridMeta;
}

const DAY_MS = 86_400_000;

/** Calendar days from `from` to `to` (`YYYY-MM-DD`). */
function daysToExpiry(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The bucket of a days-to-expiry count (negative counts, never selected, land in 0dte). */
function bucketIndex(dte: number): number {
  for (let b = EXPIRY_BUCKETS.length - 1; b > 0; b--) if (dte >= EXPIRY_BUCKETS[b].minDte) return b;
  return 0;
}

/**
 * Dealer exposure by days-to-expiry bucket (0DTE, 1-7, 8-30, 31-90, beyond): the exposure grid of
 * the chain over every listed strike and every unsettled expiration (unless the options narrow
 * them), each expiration column summed over strikes and added to its bucket.
 *
 * @param chain columnar chain snapshot
 * @param options {@link exposureGrid} options; defaults here: `maxStrikes` and `maxExpirations` `all`
 * @param engine kernel engine (default `loadKernelsSync()`)
 * @example expiryBuckets(chain, { metric: "gamma" }, engine).buckets[0].value // 0DTE gamma, dollars per 1%
 * @see docs/methodology.md#exposure-by-expiry-bucket
 */
export function expiryBuckets(chain: PositioningChain, options: ExposureGridOptionsInput | undefined, engine: KernelEngine = loadKernelsSync()): ExpiryBuckets {
  const grid = exposureGrid(
    chain,
    { ...options, maxStrikes: options?.maxStrikes ?? "all", maxExpirations: options?.maxExpirations ?? "all", includeEmpty: true, layout: "matrix" },
    engine,
  );
  const sessionDate = etDateOf(grid.asOfMs);
  const nExp = grid.expirations.length;
  const nStrikes = grid.strikes.length;
  const buckets: ExpiryBucket[] = EXPIRY_BUCKETS.map((b) => ({ bucket: b.bucket, minDte: b.minDte, maxDte: b.maxDte, expirations: [], value: 0 }));
  for (let j = 0; j < nExp; j++) {
    let column = 0;
    for (let i = 0; i < nStrikes; i++) column += grid.matrix[i * nExp + j];
    const b = buckets[bucketIndex(daysToExpiry(sessionDate, grid.expirations[j]))];
    b.expirations.push(grid.expirations[j]);
    b.value += column;
  }
  return { symbol: grid.symbol, asOf: isoUtc(grid.asOfMs), spot: grid.spot, sessionDate, buckets, total: grid.total, meta: grid.meta };
}
