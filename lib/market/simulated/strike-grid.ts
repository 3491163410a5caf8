/**
 * Listed strikes of one expiration: fine spacing near the money, coarser further out, the range
 * widening with the expiration's standard deviation; spacing by price level.
 * @see docs/methodology.md#strikes
 */

/** Strike steps [near, mid, far] for an underlying level. @see docs/methodology.md#strikes */
export function strikeSteps(price: number, type: "index" | "etf" | "stock"): [number, number, number] {
  if (type === "index") {
    if (price >= 8000) return [10, 50, 100];
    if (price >= 1000) return [5, 25, 50];
    return [1, 5, 10];
  }
  if (price < 5) return [0.5, 0.5, 1];
  if (price < 25) return [0.5, 1, 2.5];
  if (price < 100) return [1, 2.5, 5];
  if (price < 250) return type === "etf" ? [1, 5, 10] : [2.5, 5, 10];
  if (price < 500) return type === "etf" ? [1, 5, 10] : [5, 10, 25];
  if (price < 1000) return type === "etf" ? [1, 5, 10] : [5, 10, 25];
  return [10, 25, 50];
}

/** Moneyness bands (fractions of spot) for an expiration with sd `s` = vol * sqrt(T). */
function strikeBands(s: number): { fine: number; mid: number; down: number; up: number } {
  return {
    fine: Math.min(0.1, 0.03 + 2 * s),
    mid: Math.min(0.3, 0.08 + 3 * s),
    down: Math.min(0.8, 0.15 + 5 * s),
    up: Math.min(0.6, 0.1 + 3.5 * s),
  };
}

/** The multiples `i * step` for `i` in `[from, to]` (i >= 1): one ascending run of a grid. */
interface Run {
  from: number;
  to: number;
  step: number;
}

/** The run of multiples of `step` in [lo, hi]; `outward` also the nearest multiple beyond each end. */
function multiples(lo: number, hi: number, step: number, outward = false): Run {
  const start = outward ? Math.floor(lo / step + 1e-9) : Math.ceil(lo / step - 1e-9);
  const end = outward ? Math.ceil(hi / step - 1e-9) : Math.floor(hi / step + 1e-9);
  return { from: Math.max(start, 1), to: end, step };
}

// Strikes as exact decimals (0.5 steps and larger are exact in binary; round the product anyway).
const strikeOf = (i: number, step: number): number => Math.round(i * step * 1000) / 1000;

/** The three runs (near, mid, far band) of one expiration's grid around `spot`. */
function expiryRuns(spot: number, vol: number, tYears: number, type: "index" | "etf" | "stock"): Run[] {
  const [fine, mid, far] = strikeSteps(spot, type);
  const b = strikeBands(vol * Math.sqrt(Math.max(tYears, 1 / 365)));
  return [
    multiples(spot * (1 - b.fine), spot * (1 + b.fine), fine),
    multiples(spot * (1 - b.mid), spot * (1 + Math.min(b.mid, b.up)), mid),
    // The far band reaches to the first far-step strike beyond each edge, so a coarse far step
    // (low-priced names: 2.5 at $5) still lists strikes on both sides of the band.
    multiples(spot * (1 - b.down), spot * (1 + b.up), far, true),
  ];
}

/**
 * The distinct strikes of `runs` in ascending order, in one merge pass (no sort): each run
 * ascends strictly, so the smallest head is the next strike and every run at it steps on. Runs of
 * one step whose index ranges touch are one run first (the same strikes). Identical to sorting
 * all the runs' strikes and dropping repeats. @see docs/methodology.md#strikes
 */
function mergeRuns(runs: Run[]): Float64Array {
  const live: Run[] = [];
  for (const r of runs) {
    if (r.from > r.to) continue;
    const same = live.find((x) => x.step === r.step && r.from <= x.to + 1 && x.from <= r.to + 1);
    if (same) {
      same.from = Math.min(same.from, r.from);
      same.to = Math.max(same.to, r.to);
    } else live.push({ ...r });
  }
  let cap = 0;
  for (const r of live) cap += r.to - r.from + 1;
  const out = new Float64Array(cap);
  const k = live.length;
  const head = new Float64Array(k);
  for (let j = 0; j < k; j++) head[j] = strikeOf(live[j].from, live[j].step);
  let n = 0;
  for (;;) {
    let min = Number.POSITIVE_INFINITY;
    for (let j = 0; j < k; j++) if (head[j] < min) min = head[j];
    if (min === Number.POSITIVE_INFINITY) break;
    out[n++] = min;
    for (let j = 0; j < k; j++) {
      if (head[j] !== min) continue;
      const r = live[j];
      head[j] = r.from < r.to ? strikeOf(++r.from, r.step) : Number.POSITIVE_INFINITY;
    }
  }
  // A view: callers that keep the grid copy it (`sessionStrikes`), the board copies it into rows.
  return out.subarray(0, n);
}

/**
 * The distinct values of the ascending runs of `values` that start at `starts[0]`, `starts[1]`,
 * ... (run j ends where run j + 1 starts; a run reads every `stride`-th value), in ascending
 * order: each run merged into the union so far (no sort). Identical to sorting all the values and
 * dropping repeats.
 */
export function unionOfRuns(values: Float64Array, starts: ArrayLike<number>, stride: number): Float64Array {
  let total = 0;
  for (let j = 0; j + 1 < starts.length; j++) total += Math.ceil((starts[j + 1] - starts[j]) / stride);
  let acc = new Float64Array(total);
  let out = new Float64Array(total);
  let na = 0;
  // Later expirations list wider grids: merging from the last, most runs add few strikes.
  for (let j = starts.length - 2; j >= 0; j--) {
    const to = starts[j + 1];
    let a = 0;
    let b = starts[j];
    let n = 0;
    while (a < na || b < to) {
      let x: number;
      if (b >= to || (a < na && acc[a] <= values[b])) x = acc[a++];
      else {
        x = values[b];
        b += stride;
      }
      if (n === 0 || out[n - 1] !== x) out[n++] = x;
    }
    const t = acc;
    acc = out;
    out = t;
    na = n;
  }
  return acc.slice(0, na);
}

/**
 * Sorted strikes listed for one expiration around `spot`.
 * @example
 * expiryStrikes(4000, 0.17, 30 / 365, "index").includes(4000); // true
 */
export function expiryStrikes(spot: number, vol: number, tYears: number, type: "index" | "etf" | "stock"): Float64Array {
  return mergeRuns(expiryRuns(spot, vol, tYears, type)).slice();
}

/**
 * Sorted strikes listed for one expiration in a session: the union of the grids around the
 * previous close and around the session's open, so a gap (earnings, a jump) still finds strikes
 * on both sides of spot, as exchanges list new strikes before the open after a large move.
 * @example
 * sessionStrikes(100, 120, 0.5, 2 / 365, "stock").includes(120); // true
 * @see docs/methodology.md#strikes
 */
export function sessionStrikes(prevClose: number, open: number, vol: number, tYears: number, type: "index" | "etf" | "stock"): Float64Array {
  return sessionStrikesView(prevClose, open, vol, tYears, type).slice();
}

/** `sessionStrikes` without its final copy (a view of a buffer sized for the runs): for a caller that copies it at once. */
export function sessionStrikesView(prevClose: number, open: number, vol: number, tYears: number, type: "index" | "etf" | "stock"): Float64Array {
  // Both grids' runs merged at once: no grid is built apart, nothing sorted.
  return mergeRuns([...expiryRuns(prevClose, vol, tYears, type), ...expiryRuns(open, vol, tYears, type)]);
}
