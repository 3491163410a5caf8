/**
 * Simulated NBBO sizes (the tape's quotes carry prices only): a deterministic function of the
 * contract, the minute and the relative spread, so every read of one print shows the same sizes.
 * Used only for simulated symbols; a file-backed market has no sizes (null).
 * @see docs/methodology.md#simulated-quote-sizes
 */

/** Model constants: contracts at the reference spread, the reference relative spread, bounds. */
export const QUOTE_SIZE_MODEL = { baseContracts: 50, refRelSpread: 0.05, minRelSpread: 0.005, minScale: 0.1, maxScale: 10 } as const;

/** Two uniforms in [0, 1) from FNV-1a of `symbol|minute` (one per side). */
function uniforms(symbol: string, minute: number): [number, number] {
  let h = 0x811c9dc5;
  const key = `${symbol}|${minute}`;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  const a = h >>> 0;
  // A second, decorrelated draw: one more xorshift round of the hash.
  let b = a ^ (a << 13);
  b ^= b >>> 17;
  b ^= b << 5;
  return [a / 2 ** 32, (b >>> 0) / 2 ** 32];
}

/**
 * Bid and ask sizes, contracts: `max(1, round(base * scale * (0.5 + u)))` per side, with
 * `scale = clamp(refRelSpread / max(relSpread, minRelSpread), minScale, maxScale)` (tighter quotes
 * show more size) and `u` the side's uniform for the contract and minute. Null without a two-sided
 * quote (`bid <= 0` or `ask <= bid`).
 * @example simulatedQuoteSizes("SPY__240315C00510000", 28491200, 1.0, 1.02) // { bidSz: ..., askSz: ... }, same on every call
 * @see docs/methodology.md#simulated-quote-sizes
 */
export function simulatedQuoteSizes(symbol: string, tsMs: number, bidUsd: number, askUsd: number): { bidSz: number; askSz: number } | null {
  if (!(bidUsd > 0 && askUsd > bidUsd)) return null;
  const m = QUOTE_SIZE_MODEL;
  const rel = (askUsd - bidUsd) / ((askUsd + bidUsd) / 2);
  const scale = Math.min(m.maxScale, Math.max(m.minScale, m.refRelSpread / Math.max(rel, m.minRelSpread)));
  const [u, v] = uniforms(symbol, Math.floor(tsMs / 60_000));
  const size = (x: number) => Math.max(1, Math.round(m.baseContracts * scale * (0.5 + x)));
  return { bidSz: size(u), askSz: size(v) };
}
