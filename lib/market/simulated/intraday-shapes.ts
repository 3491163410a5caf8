/**
 * Intraday shapes: the U-shaped variance and volume weights of a regular session, and the flat
 * (news-spiked) weights of the extended sessions. Pure; memoized per session length.
 * @see docs/methodology.md#intraday-paths
 */
import { INTRADAY } from "./params";

const cache = new Map<string, Float64Array>();

function uShape(n: number, base: number, open: number, openDecay: number, close: number, closeDecay: number): Float64Array {
  const w = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const x = (j + 0.5) / n;
    w[j] = base + open * Math.exp(-x / openDecay) + close * Math.exp(-(1 - x) / closeDecay);
  }
  return w;
}

/** Variance weight of each minute of an n-minute regular session (sums to n). */
export function varianceWeights(n: number): Float64Array {
  const k = `v${n}`;
  let w = cache.get(k);
  if (!w) {
    const I = INTRADAY;
    w = normalize(uShape(n, I.varBase, I.varOpen, I.varOpenDecay, I.varClose, I.varCloseDecay));
    cache.set(k, w);
  }
  return w;
}

/** Volume weight of each minute of an n-minute regular session (sums to 1). */
export function volumeWeights(n: number): Float64Array {
  const k = `q${n}`;
  let w = cache.get(k);
  if (!w) {
    const I = INTRADAY;
    const u = uShape(n, I.volBase, I.volOpen, I.volOpenDecay, I.volClose, I.volCloseDecay);
    w = normalize(u);
    for (let j = 0; j < n; j++) w[j] /= n;
    cache.set(k, w);
  }
  return w;
}

/** Flat weights of an extended session with an optional news minute carrying `spikeShare` of the total. */
export function extendedWeights(n: number, spikeAt: number, spikeShare: number): Float64Array {
  const k = `e${n}:${spikeAt}:${spikeShare}`;
  let w = cache.get(k);
  if (!w) {
    w = new Float64Array(n).fill(1);
    if (spikeAt >= 0 && spikeAt < n) w[spikeAt] = (spikeShare / (1 - spikeShare)) * (n - 1);
    w = normalize(w);
    cache.set(k, w);
  }
  return w;
}

/** Scales weights so they sum to their count. */
function normalize(w: Float64Array): Float64Array {
  let s = 0;
  for (let j = 0; j < w.length; j++) s += w[j];
  const f = w.length / s;
  for (let j = 0; j < w.length; j++) w[j] *= f;
  return w;
}
