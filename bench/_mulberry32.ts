// mulberry32 (Tommy Ettinger's 32-bit generator): a small seeded PRNG, so every bench run and
// every test that builds synthetic inputs sees the same numbers. Not for anything statistical.

/**
 * A seeded stream of uniforms in [0, 1).
 * @example const r = mulberry32(7); r() === mulberry32(7)() // true
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
