import { classifyNodes, type StrikeValue } from "./classify-nodes";
import type { ExposureGrid } from "./exposure-grid";
import { isoUtc } from "./iso-utc";
import type { HeatmapCell, HeatmapFrame } from "./types";
import { velocityPct } from "./velocity";

/** Options of {@link heatmapFrame}. */
export interface HeatmapFrameOptions {
  /**
   * Live frame: adds `velocityPct` to every cell, measured against `earlier` (the same symbol's
   * frame `VELOCITY_LOOKBACK_MINUTES` before; every cell reads 0 without one). Replay omits it.
   */
  live?: boolean;
  /** The earlier frame's cells for velocity (a previous `heatmapFrame` result works). */
  earlier?: { strikes: readonly StrikeValue[] } | null;
  /** Attach `matrix` (rows = strikes, columns = expirations); default: the grid's `layout`. */
  layout?: "net" | "matrix";
}

/**
 * One heatmap frame (the spec's heatmap symbol entry) from an exposure grid: per-strike net
 * values in ascending strike order, classified into node types, with live velocity when asked.
 *
 * @param grid result of {@link exposureGrid}
 * @example
 * const frame = heatmapFrame(exposureGrid(chain, {}, engine), { live: true, earlier: frame5MinAgo });
 * frame.strikes[0]; // { strike, value, nodeType, velocityPct }
 * @see docs/methodology.md#nodes
 * @see docs/methodology.md#velocity
 */
export function heatmapFrame(grid: ExposureGrid, options: HeatmapFrameOptions = {}): HeatmapFrame {
  const cells: StrikeValue[] = Array.from(grid.strikes, (strike, i) => ({ strike, value: grid.net[i] }));
  const types = classifyNodes(cells, grid.spot);
  const vel = options.live ? velocityPct(cells, options.earlier?.strikes ?? null) : null;
  const strikes: HeatmapCell[] = cells.map((c, i) =>
    vel ? { strike: c.strike, value: c.value, nodeType: types[i], velocityPct: vel[i] } : { ...c, nodeType: types[i] },
  );
  const frame: HeatmapFrame = {
    symbol: grid.symbol,
    asOf: isoUtc(grid.asOfMs),
    spot: grid.spot,
    expirations: [...grid.expirations],
    strikes,
  };
  if ((options.layout ?? grid.meta.layout) === "matrix") {
    const nExp = grid.expirations.length;
    frame.matrix = Array.from(grid.strikes, (_, i) => Array.from(grid.matrix.subarray(i * nExp, (i + 1) * nExp)));
  }
  return frame;
}
