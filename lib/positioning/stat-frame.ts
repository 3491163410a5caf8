import type { StatFrame } from "./daily-stats";
import type { ExposureGrid } from "./exposure-grid";

/**
 * The statistics view of one minute's grid: its instant, spot and every strike x expiration cell.
 * Built from the same grid that replay (`layout=matrix`) returns, so the two always agree.
 *
 * `at` overrides the instant and spot: in the extended session the board can be older than the
 * frame's stamp (before the open, `MarketData.chain` answers the previous close's board), so the
 * frame is stamped with the session minute and the minute's extended-hours spot.
 *
 * @param grid an exposure grid
 * @param at optional `{ asOfMs, spot }` of the frame (default: the grid's)
 * @example dailyStats(stamps.map((t) => statFrame(exposureGrid(chainAt(t), {}, engine), { asOfMs: t })), { date, nowMs })
 * @see docs/methodology.md#daily-statistics
 */
export function statFrame(grid: Pick<ExposureGrid, "asOfMs" | "spot" | "matrix">, at: { asOfMs?: number; spot?: number } = {}): StatFrame {
  return { asOfMs: at.asOfMs ?? grid.asOfMs, spot: at.spot ?? grid.spot, values: grid.matrix };
}
