/**
 * One latency distribution from several load-generator runs, each given as its request count and
 * its latency at every 0.1% quantile (wrk's `latency:percentile(0.1 ... 100)`): the merged
 * cumulative share at `x` is the request-weighted sum of each run's share at or below `x`, read
 * from its quantiles. The merged p-th quantile is the smallest listed latency at which that share
 * reaches p (so it is accurate to one 0.1% step of the runs' quantiles).
 * @example mergedQuantile([{ count: 100, quantilesMs: a }, { count: 300, quantilesMs: b }], 99)
 */
export interface RunQuantiles {
  count: number;
  /** Latency at the 0.1%, 0.2%, ..., 100% quantiles, ascending. */
  quantilesMs: number[];
}

/** Share (0-1) of one run's requests at or below `x`, from its quantiles. */
function shareAtOrBelow(run: RunQuantiles, x: number): number {
  const q = run.quantilesMs;
  let lo = 0;
  let hi = q.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (q[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo / q.length;
}

export function mergedQuantile(runs: RunQuantiles[], percent: number): number {
  const total = runs.reduce((s, r) => s + r.count, 0);
  if (total === 0) return Number.NaN;
  const candidates = [...new Set(runs.flatMap((r) => r.quantilesMs))].sort((a, b) => a - b);
  const want = percent / 100 - 1e-9;
  for (const x of candidates) {
    const share = runs.reduce((s, r) => s + r.count * shareAtOrBelow(r, x), 0) / total;
    if (share >= want) return x;
  }
  return candidates.at(-1)!;
}
