/**
 * Real S&P 500 closes (and, on the shock days, opens) that the simulated SPX path passes through.
 * Between anchors the path is a Brownian bridge (random, pinned at both ends); after the last
 * anchor it runs free. Index points as published by S&P Dow Jones Indices.
 * @see docs/methodology.md#level-anchors
 */

/** One anchor: the session date, its official close and, where the open mattered, its open. */
export interface LevelAnchor {
  date: string;
  close: number;
  open?: number;
  /**
   * Move of ln implied vol on the day beyond what the spot move explains (a volatility shock:
   * the VIX rose from 23.39 to 38.57 on 2024-08-05 on a 3% fall).
   */
  volShock?: number;
}

/**
 * SPX anchors: quarter and month ends, turning points (the October 2023 low, the July 2024 high,
 * the August 2024 unwind, the February 2025 high) and every session of the April 2025 tariff
 * shock. Sources in docs/methodology.md#level-anchors.
 */
export const SPX_ANCHORS: readonly LevelAnchor[] = Object.freeze([
  { date: "2023-03-31", close: 4109.31 },
  { date: "2023-05-31", close: 4179.83 },
  { date: "2023-06-30", close: 4450.38 },
  { date: "2023-07-31", close: 4588.96 },
  { date: "2023-09-29", close: 4288.05 },
  { date: "2023-10-27", close: 4117.37 },
  { date: "2023-12-29", close: 4769.83 },
  { date: "2024-01-31", close: 4845.65 },
  { date: "2024-03-28", close: 5254.35 },
  { date: "2024-04-19", close: 4967.23 },
  { date: "2024-06-28", close: 5460.48 },
  { date: "2024-07-16", close: 5667.2 },
  { date: "2024-07-17", close: 5588.27 },
  { date: "2024-07-24", close: 5427.13 },
  { date: "2024-08-01", close: 5446.68 },
  { date: "2024-08-02", close: 5346.56 },
  { date: "2024-08-05", close: 5186.33, open: 5151.14, volShock: 0.25 },
  { date: "2024-09-30", close: 5762.48 },
  { date: "2024-10-31", close: 5705.45 },
  { date: "2024-12-31", close: 5881.63 },
  { date: "2025-01-31", close: 6040.53 },
  { date: "2025-02-19", close: 6144.15 },
  { date: "2025-03-31", close: 5611.85 },
  { date: "2025-04-02", close: 5670.97 },
  { date: "2025-04-03", close: 5396.52, open: 5492.74 },
  { date: "2025-04-04", close: 5074.08, open: 5292.14 },
  { date: "2025-04-07", close: 5062.25, open: 4953.79 },
  { date: "2025-04-08", close: 4982.77, open: 5193.57 },
  { date: "2025-04-09", close: 5456.9, open: 4965.28 },
  { date: "2025-04-10", close: 5268.05, open: 5353.15 },
  { date: "2025-04-30", close: 5569.06 },
  { date: "2025-06-13", close: 5976.97 },
  { date: "2025-06-30", close: 6204.95 },
  { date: "2025-08-29", close: 6460.26 },
  { date: "2025-09-30", close: 6688.46 },
  { date: "2025-10-31", close: 6840.2 },
]);

/** Anchors of a path owner (only the market factor, SPX, is anchored). */
export function levelAnchors(ticker: string): readonly LevelAnchor[] {
  return ticker === "SPX" ? SPX_ANCHORS : [];
}
