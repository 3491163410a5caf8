/**
 * Seeded, stateless-by-construction random numbers for the print generators.
 *
 * Every stream is derived from `(seed, key, index)` so that a minute's prints never depend on
 * which minutes were generated before it (no global state, no order dependence).
 * @see docs/methodology.md#determinism-of-the-prints
 */

// Stream keys hash their text with the simulator's FNV-1a (one implementation of it).
export { hashText } from "../simulated/_hash";

/** A small seeded generator (sfc32) with the few draws the generators need. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer uniform in [lo, hi] inclusive. */
  int(lo: number, hi: number): number;
  /** Standard normal (Box-Muller, one value per call). */
  normal(): number;
  /** Poisson count with mean `lambda` (inversion for small means, normal approximation above 60). */
  poisson(lambda: number): number;
  /** Pareto draw with scale `xMin` and tail index `alpha` (P(X > x) = (xMin / x)^alpha). */
  pareto(xMin: number, alpha: number): number;
  /** Index drawn from non-negative weights whose sum is `total`. */
  pick(weights: ArrayLike<number>, total: number): number;
}

/**
 * Creates the generator for one stream. Same words in, same sequence out, in any process.
 * @example
 * const rng = createRng(hashText("42|SPY"), 28_512_000);
 * rng.next(); // always the same number for these words
 */
export function createRng(a: number, b: number, c = 0x9e3779b9): Rng {
  let s0 = a >>> 0;
  let s1 = b >>> 0;
  let s2 = c >>> 0;
  let s3 = 1;
  const raw = (): number => {
    const t = (((s0 + s1) >>> 0) + s3) >>> 0;
    s3 = (s3 + 1) >>> 0;
    s0 = s1 ^ (s1 >>> 9);
    s1 = (s2 + (s2 << 3)) >>> 0;
    s2 = ((s2 << 21) | (s2 >>> 11)) >>> 0;
    s2 = (s2 + t) >>> 0;
    return t >>> 0;
  };
  // Warm-up decorrelates nearby seeds (consecutive minutes differ in one word only).
  for (let i = 0; i < 12; i++) raw();
  const next = (): number => raw() / 4294967296;
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    normal: () => {
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    poisson: (lambda) => {
      if (!(lambda > 0)) return 0;
      if (lambda > 60) {
        const u = 1 - next();
        const v = next();
        const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * z));
      }
      const limit = Math.exp(-lambda);
      let k = 0;
      let p = next();
      while (p > limit) {
        k++;
        p *= next();
      }
      return k;
    },
    pareto: (xMin, alpha) => xMin / Math.pow(1 - next(), 1 / alpha),
    pick: (weights, total) => {
      let u = next() * total;
      const last = weights.length - 1;
      for (let i = 0; i < last; i++) {
        u -= weights[i];
        if (u < 0) return i;
      }
      return last;
    },
  };
}
