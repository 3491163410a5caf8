// Test helper: a columnar chain snapshot built from readable rows.
import type { PositioningChain } from "../../lib/positioning/types";

export interface Row {
  expiry: string;
  strike: number;
  right: "C" | "P";
  oi: number;
  iv?: number;
  bid?: number;
  ask?: number;
}

export interface Header {
  symbol?: string;
  asOfMs: number;
  spot: number;
  rate?: number;
  dividendYield?: number;
  /** Settlement instant per expiry date. */
  settleMs: Record<string, number>;
  roots?: Record<string, string>;
}

/** Build a snapshot with sorted expirations and strikes from rows (any order). */
export function buildChain(
  h: Header,
  rows: Row[],
): PositioningChain & { expiryRoot: string[]; last: Float64Array; volume: Float64Array; underlying: string; sessionDate: string } {
  const expirations = [...new Set(rows.map((r) => r.expiry).concat(Object.keys(h.settleMs)))].sort();
  const strikes = [...new Set(rows.map((r) => r.strike))].sort((a, b) => a - b);
  const n = rows.length;
  const col = () => new Float64Array(n);
  const snap = {
    symbol: h.symbol ?? "TEST",
    underlying: h.symbol ?? "TEST",
    sessionDate: "2025-03-05",
    asOfMs: h.asOfMs,
    spot: h.spot,
    rate: h.rate ?? 0.04,
    dividendYield: h.dividendYield ?? 0.01,
    simulated: true,
    expirations,
    expirySettleMs: expirations.map((e) => h.settleMs[e]),
    expiryRoot: expirations.map((e) => h.roots?.[e] ?? h.symbol ?? "TEST"),
    strikes: Float64Array.from(strikes),
    strikeIndex: new Int32Array(n),
    expIndex: new Int32Array(n),
    right: new Uint8Array(n),
    oi: col(),
    bid: col(),
    ask: col(),
    last: col(),
    iv: col(),
    volume: col(),
  };
  rows.forEach((r, i) => {
    snap.strikeIndex[i] = strikes.indexOf(r.strike);
    snap.expIndex[i] = expirations.indexOf(r.expiry);
    snap.right[i] = r.right === "C" ? 1 : 0;
    snap.oi[i] = r.oi;
    snap.iv[i] = r.iv ?? Number.NaN;
    snap.bid[i] = r.bid ?? 0;
    snap.ask[i] = r.ask ?? 0;
  });
  return snap;
}
