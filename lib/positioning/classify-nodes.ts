import { NODE_THRESHOLDS, type NodeType } from "./node-thresholds";

/** One cell of a frame as the classifier reads it: a strike and its net exposure. */
export interface StrikeValue {
  strike: number;
  value: number;
}

/**
 * Index of the king cell: the largest |value|; ties go to the strike nearest spot, then the lower
 * strike. Returns -1 when every value is zero (or the frame is empty).
 *
 * @example kingIndex([{ strike: 100, value: -5 }, { strike: 105, value: 5 }], 104) // 1
 * @see docs/methodology.md#nodes
 */
export function kingIndex(cells: readonly StrikeValue[], spot: number): number {
  let best = -1;
  let bestAbs = 0;
  for (let i = 0; i < cells.length; i++) {
    const a = Math.abs(cells[i].value);
    if (!(a > 0)) continue; // zero and NaN never make a king
    if (best < 0 || a > bestAbs) {
      best = i;
      bestAbs = a;
    } else if (a === bestAbs) {
      const dNew = Math.abs(cells[i].strike - spot);
      const dOld = Math.abs(cells[best].strike - spot);
      if (dNew < dOld || (dNew === dOld && cells[i].strike < cells[best].strike)) best = i;
    }
  }
  return best;
}

/**
 * Classify every cell of one frame into a node type (aligned with `cells`).
 *
 * Deterministic rule over M = max |value|: exactly one `king` (largest |value|, see
 * {@link kingIndex}) whenever any value is non-zero; then, in order, `gatekeeper` (|v| >= 0.40 M
 * and strike strictly between spot and the king), `pika` (v >= 0.25 M), `barney` (v <= -0.25 M),
 * `significant` (|v| >= 0.10 M), else `normal`, each compared as the ratio v / M. Thresholds
 * come from {@link NODE_THRESHOLDS}.
 * Values are in the frame's unit (dollars of exposure); only their ratios to M matter.
 *
 * @param cells per-strike values (any order)
 * @param spot underlying price, in the strikes' units
 * @returns node types, one per cell, in the input order
 * @example
 * classifyNodes(
 *   [{ strike: 95, value: -30 }, { strike: 100, value: 50 }, { strike: 105, value: 100 }],
 *   98,
 * ) // ["barney", "gatekeeper", "king"]
 * @see docs/methodology.md#nodes
 */
export function classifyNodes(cells: readonly StrikeValue[], spot: number): NodeType[] {
  const out: NodeType[] = new Array(cells.length).fill("normal");
  const k = kingIndex(cells, spot);
  if (k < 0) return out;
  const m = Math.abs(cells[k].value);
  const kingStrike = cells[k].strike;
  const lo = Math.min(spot, kingStrike);
  const hi = Math.max(spot, kingStrike);
  const t = NODE_THRESHOLDS;
  for (let i = 0; i < cells.length; i++) {
    if (i === k) {
      out[i] = "king";
      continue;
    }
    // Compare the ratio value/M, not value against t*M: t*M underflows for tiny M, and the
    // ratio is what scaling leaves unchanged.
    const strike = cells[i].strike;
    const r = cells[i].value / m;
    const a = Math.abs(r);
    if (a >= t.gatekeeperAbs && strike > lo && strike < hi) out[i] = "gatekeeper";
    else if (r >= t.pikaPos) out[i] = "pika";
    else if (r <= -t.barneyNeg) out[i] = "barney";
    else if (a >= t.significantAbs) out[i] = "significant";
  }
  return out;
}
