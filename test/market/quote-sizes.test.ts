// Simulated NBBO sizes: deterministic per contract and minute, null without a two-sided quote,
// inside the model's bounds, larger for tighter quotes, and the formula recomputed by hand.
import { describe, expect, it } from "vitest";
import { QUOTE_SIZE_MODEL, simulatedQuoteSizes } from "../../lib/market/quote-sizes";

const SYM = "XOM__240315C00100000";
const T = Date.parse("2024-03-06T15:00:00Z");

/** The model written out independently: FNV-1a of `symbol|minute`, then one xorshift round. */
function byHand(symbol: string, tsMs: number, bid: number, ask: number) {
  const key = `${symbol}|${Math.floor(tsMs / 60_000)}`;
  let h = 2166136261;
  for (const ch of key) h = Number((BigInt((h ^ ch.charCodeAt(0)) >>> 0) * 16777619n) % 2n ** 32n);
  let b = (h ^ ((h << 13) >>> 0)) >>> 0;
  b = (b ^ (b >>> 17)) >>> 0;
  b = (b ^ ((b << 5) >>> 0)) >>> 0;
  const rel = (ask - bid) / ((ask + bid) / 2);
  const scale = Math.min(10, Math.max(0.1, 0.05 / Math.max(rel, 0.005)));
  return { bidSz: Math.max(1, Math.round(50 * scale * (0.5 + h / 2 ** 32))), askSz: Math.max(1, Math.round(50 * scale * (0.5 + b / 2 ** 32))) };
}

describe("simulatedQuoteSizes", () => {
  it("matches the formula by hand and repeats within a minute; changes across minutes and contracts", () => {
    for (const [bid, ask] of [
      [1, 1.02],
      [0.05, 0.1],
      [12.3, 12.9],
      [3, 3.001],
    ]) {
      expect(simulatedQuoteSizes(SYM, T, bid, ask)).toEqual(byHand(SYM, T, bid, ask));
      expect(simulatedQuoteSizes(SYM, T + 59_999, bid, ask)).toEqual(simulatedQuoteSizes(SYM, T, bid, ask));
    }
    const seen = new Set<string>();
    for (let k = 0; k < 50; k++) seen.add(JSON.stringify(simulatedQuoteSizes(SYM, T + k * 60_000, 1, 1.02)));
    expect(seen.size).toBeGreaterThan(25);
    expect(simulatedQuoteSizes("XOM__240315P00100000", T, 1, 1.02)).not.toEqual(simulatedQuoteSizes(SYM, T, 1, 1.02));
  });

  it("null without a two-sided quote; bounded; tighter quotes show at least as much size", () => {
    expect(simulatedQuoteSizes(SYM, T, 0, 1)).toBeNull();
    expect(simulatedQuoteSizes(SYM, T, 1, 1)).toBeNull();
    expect(simulatedQuoteSizes(SYM, T, 1.1, 1)).toBeNull();
    const { baseContracts: base, maxScale, minScale } = QUOTE_SIZE_MODEL;
    for (let k = 0; k < 200; k++) {
      const t = T + k * 60_000;
      const wide = simulatedQuoteSizes(SYM, t, 1, 2)!;
      const tight = simulatedQuoteSizes(SYM, t, 1, 1.01)!;
      for (const s of ["bidSz", "askSz"] as const) {
        expect(Number.isInteger(tight[s]) && tight[s] >= wide[s]).toBe(true);
        expect(wide[s]).toBeGreaterThanOrEqual(Math.max(1, Math.round(base * minScale * 0.5)));
        expect(tight[s]).toBeLessThanOrEqual(Math.round(base * maxScale * 1.5));
      }
    }
  });
});
