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
 * sfc32 as a class: its methods live on the prototype, so creating a stream (one per minute and
 * root) allocates no closures.
 */
class Sfc32 implements Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3 = 1;

  constructor(a: number, b: number, c: number) {
    this.s0 = a >>> 0;
    this.s1 = b >>> 0;
    this.s2 = c >>> 0;
    // Warm-up decorrelates nearby seeds (consecutive minutes differ in one word only).
    for (let i = 0; i < 12; i++) this.raw();
  }

  private raw(): number {
    const t = (((this.s0 + this.s1) >>> 0) + this.s3) >>> 0;
    this.s3 = (this.s3 + 1) >>> 0;
    this.s0 = this.s1 ^ (this.s1 >>> 9);
    this.s1 = (this.s2 + (this.s2 << 3)) >>> 0;
    this.s2 = ((this.s2 << 21) | (this.s2 >>> 11)) >>> 0;
    this.s2 = (this.s2 + t) >>> 0;
    return t >>> 0;
  }

  next(): number {
    return this.raw() / 4294967296;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  poisson(lambda: number): number {
    if (!(lambda > 0)) return 0;
    if (lambda > 60) {
      const u = 1 - this.next();
      const v = this.next();
      const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
      return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * z));
    }
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  pareto(xMin: number, alpha: number): number {
    return xMin / Math.pow(1 - this.next(), 1 / alpha);
  }

  pick(weights: ArrayLike<number>, total: number): number {
    let u = this.next() * total;
    const last = weights.length - 1;
    for (let i = 0; i < last; i++) {
      u -= weights[i];
      if (u < 0) return i;
    }
    return last;
  }
}

/**
 * Creates the generator for one stream. Same words in, same sequence out, in any process.
 * @example
 * const rng = createRng(hashText("42|SPY"), 28_512_000);
 * rng.next(); // always the same number for these words
 */
export function createRng(a: number, b: number, c = 0x9e3779b9): Rng {
  return new Sfc32(a, b, c);
}
