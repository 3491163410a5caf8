/**
 * Counter-based random numbers: every draw is a pure hash of integer words
 * (seed, symbol id, day, minute, stream), so nothing depends on the order of requests.
 * @see docs/methodology.md#determinism
 */

/** Mixes a word into a 32-bit state (murmur3-style multiply-xorshift). */
function mix(h: number, word: number): number {
  let k = Math.imul(word | 0, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  return h;
}

/** Final avalanche of a 32-bit state (murmur3 fmix32); returns an unsigned 32-bit integer. */
function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a hash of a string (symbol names to stable 32-bit ids). */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A key of up to four words, pre-mixed so per-minute draws cost one `mix` + `finish`. */
export function key(a: number, b = 0, c = 0, d = 0): number {
  return mix(mix(mix(mix(0x9747b28c, a), b), c), d);
}

const INV_2_32 = 1 / 4294967296;

/** Uniform in (0, 1) from a key and a counter. */
export function uniform(base: number, counter: number): number {
  return (finish(mix(base, counter)) + 0.5) * INV_2_32;
}

/** Standard normal from a key and a counter (Box-Muller on two hashed uniforms). */
export function normal(base: number, counter: number): number {
  const h = mix(base, counter);
  const u1 = (finish(h) + 0.5) * INV_2_32;
  const u2 = (finish(mix(h, 0x5bd1e995)) + 0.5) * INV_2_32;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(6.283185307179586 * u2);
}
