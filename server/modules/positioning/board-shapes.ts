/**
 * The board shapes beyond the heatmap: exposure by days-to-expiry bucket and the dealer exposure
 * curve over a spot grid, each computed from one live board. Pure over its inputs (market, kernel
 * engine, task), so it runs in a statistics-pool worker (the module's heavy work) or, without
 * one, in the request's thread. See docs/methodology.md#exposure-by-expiry-bucket and #spot-curve.
 */
import type { KernelEngine } from "../../../lib/kernels";
import type { MarketData } from "../../../lib/market/market-data";
import {
  expiryBuckets,
  PositioningError,
  spotCurve,
  type ExpiryBuckets,
  type ExposureGridOptionsInput,
  type PositioningErrorCode,
  type SpotCurve,
  type SpotCurveOptions,
} from "../../../lib/positioning";

/** One symbol's board shape at the request's market instant. */
export type BoardShapeTask =
  | { kind: "buckets"; symbol: string; nowMs: number; options: ExposureGridOptionsInput }
  | { kind: "curve"; symbol: string; nowMs: number; options: SpotCurveOptions };

/**
 * What a task answers: the shape, null when the symbol has no board, or the library's error as
 * data (a worker's thrown error reaches the caller as a bare message; its code must survive).
 */
export type BoardShapeResult = { ok: true; shape: ExpiryBuckets | SpotCurve | null } | { ok: false; code: PositioningErrorCode; message: string };

/**
 * Compute one board shape.
 * @example await computeBoardShape(market, engine, { kind: "curve", symbol: "SPY", nowMs, options: {} })
 */
export async function computeBoardShape(market: MarketData, engine: KernelEngine, task: BoardShapeTask): Promise<BoardShapeResult> {
  const chain = await market.chain(task.symbol, task.nowMs);
  if (!chain) return { ok: true, shape: null };
  try {
    const shape = task.kind === "buckets" ? expiryBuckets(chain, task.options, engine) : spotCurve(chain, task.options, engine);
    return { ok: true, shape };
  } catch (error) {
    if (error instanceof PositioningError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/** The shape of a result, or its library error rethrown (the error table maps it). */
export function shapeOrThrow(result: BoardShapeResult): ExpiryBuckets | SpotCurve | null {
  if (!result.ok) throw new PositioningError(result.code, result.message);
  return result.shape;
}
