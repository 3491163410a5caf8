import { describe, expect, it } from "vitest";
import type { ChainSnapshot } from "../../lib/market";
import { bsmPrice, inverseNormCdf } from "../../lib/math";
import { etInstant } from "../../lib/time";
import { deltaIvs, skew30, strikeAtCallDelta, termStructure, tilt, zScore, type Smile } from "../../lib/vol";
import { rng } from "./_boards";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
const board = market.chainSync("SPXW", etInstant("2024-05-01", "10:30"))!;

/** The same board repriced at one flat vol (mid = BSM, a fixed half-spread). */
function flatBoard(chain: ChainSnapshot, vol: number): ChainSnapshot {
  const n = chain.right.length;
  const bid = new Float64Array(n);
  const ask = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const tYears = (chain.expirySettleMs[chain.expIndex[i]] - chain.asOfMs) / 60_000 / 525_600;
    const p = bsmPrice({
      spot: chain.spot,
      strike: chain.strikes[chain.strikeIndex[i]],
      tYears: Math.max(tYears, 1 / 525_600),
      vol,
      rate: chain.rate,
      dividendYield: chain.dividendYield,
      right: chain.right[i] === 1 ? "C" : "P",
    });
    bid[i] = Math.max(p - 0.05, 0);
    ask[i] = p + 0.05;
  }
  return { ...chain, bid, ask, iv: new Float64Array(n).fill(vol) };
}

describe("25-delta strikes", () => {
  it("solve the forward delta in closed form on a flat smile", () => {
    const s: Smile = { strike: Float64Array.from({ length: 300 }, (_, i) => 50 + i * 0.5), ivDecimal: new Float64Array(300).fill(0.3), forward: 100, tYears: 0.1 };
    const sd = 0.3 * Math.sqrt(0.1);
    for (const delta of [0.25, 0.5, 0.75]) {
      const k = strikeAtCallDelta(s, delta)!;
      expect(Math.log(k / 100)).toBeCloseTo(-inverseNormCdf(delta) * sd + (sd * sd) / 2, 6);
    }
    const d = deltaIvs(s)!;
    expect(d.call25 - d.put25).toBeCloseTo(0, 12);
  });
});

describe("skew30", () => {
  it("is zero on a flat-vol board and negative under index put skew", () => {
    const flat = skew30(flatBoard(board, 0.2))!;
    expect(flat.rr25_30).toBeCloseTo(0, 9);
    expect(flat.bf25_30).toBeCloseTo(0, 9);
    expect(flat.atm_30).toBeCloseTo(20, 9);
    const s = skew30(board)!;
    expect(s.rr25_30).toBeLessThan(-1);
    expect(s.bf25_30).toBeGreaterThan(0);
    const rows = termStructure(board);
    const near = rows.find((r) => r.expiration === s.near.expiration)!;
    const next = rows.find((r) => r.expiration === s.next!.expiration)!;
    expect(s.atm_30).toBeGreaterThanOrEqual(100 * Math.min(near.atmIvDecimal, next.atmIvDecimal) - 1e-9);
    expect(s.atm_30).toBeLessThanOrEqual(100 * Math.max(near.atmIvDecimal, next.atmIvDecimal) + 1e-9);
  });
});

describe("tilt", () => {
  it("is zero when every premium is priced at the ATM vol", () => {
    const t = tilt(flatBoard(board, 0.25));
    expect(t.tilt_21).toBeCloseTo(0, 8);
    for (const r of t.rows) expect(r.ratio_fwd).toBeCloseTo(1, 8);
    expect(t.headline!.dte).toBeGreaterThanOrEqual(21);
  });

  it("reads rich puts under index put skew, one strike either side of the forward", () => {
    const t = tilt(board);
    expect(t.rows.length).toBe(6);
    expect(t.tilt_21!).toBeLessThan(0);
    expect(t.headline!.cheap).toBe("call");
    for (const r of t.rows) {
      expect(r.put_strike).toBeLessThan(r.call_strike);
      expect(r.ratio_fwd).toBeCloseTo(Math.exp(r.tilt / 100), 12);
    }
  });

  it("scores against a trailing window", () => {
    const rand = rng(11);
    const w = Array.from({ length: 252 }, () => rand() * 10 - 5);
    const mean = w.reduce((a, b) => a + b, 0) / w.length;
    const sd = Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / (w.length - 1));
    expect(zScore(w, 3)).toBeCloseTo((3 - mean) / sd, 12);
    expect(zScore(w.slice(0, 10), 3)).toBeNull();
  });
});
