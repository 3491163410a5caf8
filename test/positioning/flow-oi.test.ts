// The flow open-interest estimate's rules on hand-built prints (docs/methodology.md#flow-open-interest):
// per print, size x (opening - closing) of its shares, the shares set by days to expiry, distance
// from spot and side; a print never closes more than is open; the board keeps the exchange's open
// interest on contracts that did not print.
import { describe, expect, it } from "vitest";
import type { ChainSnapshot } from "../../lib/market/market-data";
import { FLOW_OI, FlowOiEstimator, flowOiShares, printOiChange, withFlowOpenInterest, type FlowOiPrint } from "../../lib/positioning/flow-oi";
import { formatOptionSymbol } from "../../lib/symbols";
import { buildChain } from "./_chain";

const SESSION = "2025-03-05";
const FAR = "2025-06-20"; // 107 days out: new positions are opened
const SAME_DAY = SESSION; // 0DTE: positions are closed

/** A print of `size` on `expiry`/`strike`/`right` at the ask (buy), bid (sell) or mid; spot 100, IV 20%. */
function print(expiry: string, strike: number, right: "C" | "P", size: number, side: "buy" | "sell" | "mid", conditions = ["AUTO"]): FlowOiPrint {
  const [bid, ask] = [1.0, 1.2];
  const price = side === "buy" ? ask : side === "sell" ? bid : 1.1;
  return {
    symbol: formatOptionSymbol({ root: "TEST", expiry, strike, right }, "url"),
    expiry,
    strike,
    right,
    size,
    price,
    nbboBid: bid,
    nbboAsk: ask,
    conditions: conditions as FlowOiPrint["conditions"],
    underlyingPrice: 100,
    iv: 0.2,
  };
}

/** The methodology's shares written out (not imported): opening, closing, with the side tilt 0.25. */
function sharesByDoc(dteDays: number, distanceSd: number, aggression: number): [number, number] {
  const opening = 0.25 + 0.15 * Math.min(1, distanceSd / 2) + 0.1 * Math.min(1, dteDays / 60);
  const closing = 0.15 + 0.3 * Math.exp(-dteDays / 7);
  return [opening * (1 + 0.25 * aggression), closing * (1 - 0.25 * aggression)];
}

const sym = (expiry: string, strike: number, right: "C" | "P") => formatOptionSymbol({ root: "TEST", expiry, strike, right }, "url");

function estimateOf(opening: Record<string, number>, prints: FlowOiPrint[]): Map<string, number> {
  const est = new FlowOiEstimator(SESSION, new Map(Object.entries(opening)));
  est.add(prints);
  const r = est.result(0);
  return new Map(r.oi.map((oi, j) => [sym(r.expiry[j], r.strike[j], r.right[j] === 1 ? "C" : "P"), oi]));
}

describe("flow open interest: shares (docs/methodology.md#flow-open-interest)", () => {
  it("gives the documented shares at hand-computed points", () => {
    expect(FLOW_OI.sideTilt).toBe(0.25);
    for (const [d, x, a] of [
      [0, 0, 0],
      [1, 0.5, 1],
      [30, 1, -1],
      [107, 3, 0.5],
      [400, 10, -0.5],
    ]) {
      const s = flowOiShares(d, x, a);
      const [o, c] = sharesByDoc(d, x, a);
      expect(s.opening).toBeCloseTo(o, 12);
      expect(s.closing).toBeCloseTo(c, 12);
    }
    // Far out of the money and long-dated, mid: opening at its cap 0.5.
    expect(flowOiShares(90, 3, 0).opening).toBeCloseTo(0.5, 12);
  });

  it("a buyer-initiated print opens more and closes less than a seller-initiated one", () => {
    for (const d of [0, 2, 30, 200]) {
      const buy = flowOiShares(d, 0.5, 1);
      const sell = flowOiShares(d, 0.5, -1);
      expect(buy.opening - buy.closing).toBeGreaterThan(sell.opening - sell.closing);
    }
  });

  it("never closes more than is open", () => {
    expect(printOiChange(100, flowOiShares(0, 0, -1), 10)).toBe(-10);
    expect(printOiChange(100, flowOiShares(0, 0, -1), 0)).toBe(0);
    expect(printOiChange(100, flowOiShares(200, 3, 1), 0)).toBeGreaterThan(0);
  });
});

describe("flow open interest: the running estimate", () => {
  it("an opening buy adds: size x (opening - closing) at the print's distance", () => {
    // Strike 130 against spot 100 at 20% IV over 107 days: |ln 1.3| / (0.2 sqrt(107/365)) = 2.42 sd.
    const x = Math.abs(Math.log(1.3)) / (0.2 * Math.sqrt(107 / 365));
    const [o, c] = sharesByDoc(107, x, 1);
    const got = estimateOf({ [sym(FAR, 130, "C")]: 1000 }, [print(FAR, 130, "C", 400, "buy")]);
    expect(got.get(sym(FAR, 130, "C"))).toBe(Math.round(1000 + 400 * (o - c)));
    expect(got.get(sym(FAR, 130, "C"))).toBeGreaterThan(1000);
  });

  it("a closing sell removes: same-day at the money, seller-initiated", () => {
    const [o, c] = sharesByDoc(0, 0, -1);
    const got = estimateOf({ [sym(SAME_DAY, 100, "P")]: 1000 }, [print(SAME_DAY, 100, "P", 400, "sell")]);
    expect(got.get(sym(SAME_DAY, 100, "P"))).toBe(Math.round(1000 + 400 * (o - c)));
    expect(got.get(sym(SAME_DAY, 100, "P"))).toBeLessThan(1000);
  });

  it("never goes below zero, and opening volume after a close-out counts from zero", () => {
    const k = sym(SAME_DAY, 100, "C");
    expect(estimateOf({ [k]: 50 }, [print(SAME_DAY, 100, "C", 5000, "sell")]).get(k)).toBe(0);
    // Clamped to 0 by the first print; the far-dated buy on another contract is not affected.
    const far = sym(FAR, 130, "C");
    const both = estimateOf({ [k]: 50 }, [print(SAME_DAY, 100, "C", 5000, "sell"), print(SAME_DAY, 100, "C", 10, "sell"), print(FAR, 130, "C", 100, "buy")]);
    expect(both.get(k)).toBe(0);
    expect(both.get(far)).toBeGreaterThan(0); // a contract without morning open interest starts at 0
  });

  it("a pre-negotiated cross and a mid print take the untilted shares", () => {
    const [o, c] = sharesByDoc(107, Math.abs(Math.log(1.3)) / (0.2 * Math.sqrt(107 / 365)), 0);
    const k = sym(FAR, 130, "C");
    const cross = estimateOf({ [k]: 1000 }, [print(FAR, 130, "C", 1000, "buy", ["SLCN"])]).get(k);
    const mid = estimateOf({ [k]: 1000 }, [print(FAR, 130, "C", 1000, "mid")]).get(k);
    expect(cross).toBe(Math.round(1000 + 1000 * (o - c)));
    expect(mid).toBe(cross);
  });

  it("adding prints in two batches gives what one batch gives", () => {
    const prints = [print(FAR, 130, "C", 40, "buy"), print(SAME_DAY, 100, "P", 70, "sell"), print(FAR, 130, "C", 9, "sell"), print(SAME_DAY, 100, "P", 3, "mid")];
    const opening = new Map([[sym(SAME_DAY, 100, "P"), 120]]);
    const one = new FlowOiEstimator(SESSION, opening);
    one.add(prints);
    const two = new FlowOiEstimator(SESSION, opening);
    two.add(prints.slice(0, 2));
    two.add(prints.slice(2));
    expect(two.result(1)).toEqual(one.result(1));
    expect(one.result(1).prints).toBe(4);
  });
});

describe("flow open interest on a board", () => {
  const settle = Date.parse("2025-03-05T21:00:00Z");
  const chain = buildChain({ asOfMs: Date.parse("2025-03-05T16:00:00Z"), spot: 100, settleMs: { [SESSION]: settle, [FAR]: settle + 107 * 86_400_000 } }, [
    { expiry: SESSION, strike: 100, right: "P", oi: 300 },
    { expiry: SESSION, strike: 100, right: "C", oi: 200 },
    { expiry: FAR, strike: 130, right: "C", oi: 1000 },
  ]) as unknown as ChainSnapshot;

  it("replaces the open interest of the contracts that printed, and only theirs", () => {
    const opening = new Map([
      [sym(SESSION, 100, "P"), 300],
      [sym(SESSION, 100, "C"), 200],
      [sym(FAR, 130, "C"), 1000],
    ]);
    const est = new FlowOiEstimator(SESSION, opening);
    est.add([print(SESSION, 100, "P", 1000, "sell"), print(FAR, 130, "C", 10, "buy")]);
    const out = withFlowOpenInterest(chain, est.result(0));
    expect(est.result(0).oi[1]).toBeGreaterThan(1000);
    expect(Array.from(out.oi)).toEqual([0, 200, est.result(0).oi[1]]);
    expect(Array.from(chain.oi)).toEqual([300, 200, 1000]); // the exchange's board is not touched
    expect(out.strikes).toBe(chain.strikes);
  });

  it("leaves a board of another session, or an estimate without prints, as it is", () => {
    const other = new FlowOiEstimator("2025-03-04", new Map());
    other.add([print(FAR, 130, "C", 10, "buy")]);
    expect(withFlowOpenInterest(chain, other.result(0))).toBe(chain);
    expect(withFlowOpenInterest(chain, new FlowOiEstimator(SESSION, new Map()).result(0))).toBe(chain);
  });
});
