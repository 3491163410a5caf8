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

/** Adds the multiples of `step` in [lo, hi]; `outward` also the nearest multiple beyond each end. */
function addMultiples(out: number[], lo: number, hi: number, step: number, outward = false): void {
  const start = outward ? Math.floor(lo / step + 1e-9) : Math.ceil(lo / step - 1e-9);
  const end = outward ? Math.ceil(hi / step - 1e-9) : Math.floor(hi / step + 1e-9);
  // Strikes as exact decimals (0.5 steps and larger are exact in binary; round the product anyway).
  for (let i = Math.max(start, 1); i <= end; i++) out.push(Math.round(i * step * 1000) / 1000);
}

/**
 * The distinct values of `values` in ascending order (sorts `values` in place). A typed sort and
 * one pass: about twice as fast as a Set of doubles and a sort with a comparator, same result.
 */
export function sortedUnique(values: Float64Array): Float64Array {
  values.sort();
  let n = 0;
  for (let i = 0; i < values.length; i++) if (n === 0 || values[i] !== values[n - 1]) values[n++] = values[i];
  return values.slice(0, n);
}

/**
 * Sorted strikes listed for one expiration around `spot`.
 * @example
 * expiryStrikes(4000, 0.17, 30 / 365, "index").includes(4000); // true
 */
export function expiryStrikes(spot: number, vol: number, tYears: number, type: "index" | "etf" | "stock"): Float64Array {
  const [fine, mid, far] = strikeSteps(spot, type);
  const b = strikeBands(vol * Math.sqrt(Math.max(tYears, 1 / 365)));
  const all: number[] = [];
  addMultiples(all, spot * (1 - b.fine), spot * (1 + b.fine), fine);
  addMultiples(all, spot * (1 - b.mid), spot * (1 + Math.min(b.mid, b.up)), mid);
  // The far band reaches to the first far-step strike beyond each edge, so a coarse far step
  // (low-priced names: 2.5 at $5) still lists strikes on both sides of the band.
  addMultiples(all, spot * (1 - b.down), spot * (1 + b.up), far, true);
  return sortedUnique(Float64Array.from(all));
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
  const a = expiryStrikes(prevClose, vol, tYears, type);
  const b = expiryStrikes(open, vol, tYears, type);
  // Merge two ascending grids without duplicates.
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    const k = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
    if (n === 0 || out[n - 1] !== k) out[n++] = k;
  }
  return out.slice(0, n);
}
