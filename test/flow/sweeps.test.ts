import { describe, expect, it } from "vitest";
import { groupSweeps } from "../../lib/flow/sweeps";
import { detectMultiLeg, packageStrategy } from "../../lib/flow/multi-leg";
import { isSweepPrint, isMultiLegPrint } from "../../lib/market/prints/conditions";
import { OPEN_MS, print } from "./_prints";
import { simulatedMarketAt } from "../_helpers/simulated-market";

describe("sweep grouping", () => {
  it("three exchanges within 3 ms on the ask: one sweep with its totals", () => {
    const t = OPEN_MS + 1_000;
    const prints = [
      print({ tsMs: t, exchange: "CBOE", price: 1.05, size: 10 }),
      print({ tsMs: t + 1, exchange: "PHLX", price: 1.05, size: 20 }),
      print({ tsMs: t + 3, exchange: "ISE", price: 1.06, nbboAsk: 1.06, size: 30 }),
    ];
    const { groups, groupOf } = groupSweeps(prints);
    expect(groups).toHaveLength(1);
    const g = groups[0];
    expect([...groupOf]).toEqual([0, 0, 0]);
    expect(g.exchanges).toEqual(["CBOE", "PHLX", "ISE"]);
    expect(g.executionTimeMs).toBe(3);
    expect(g.totalContracts).toBe(60);
    // premium: (1.05 * 10 + 1.05 * 20 + 1.06 * 30) * 100 = (10.5 + 21 + 31.8) * 100 = 6330
    expect(g.totalPremiumUsd).toBeCloseTo(6_330, 9);
    expect(g.vwapUsd).toBeCloseTo(63.3 / 60, 12);
    expect(g.sideSign).toBe(1);
    expect(g.spreadPosition).toBe("AT_ASK");
  });

  it("a gap over 50 ms, the other side, another contract, or one exchange without ISO: no sweep", () => {
    const t = OPEN_MS;
    expect(groupSweeps([print({ tsMs: t, exchange: "CBOE" }), print({ tsMs: t + 51, exchange: "PHLX" })]).groups).toHaveLength(0);
    expect(groupSweeps([print({ tsMs: t, exchange: "CBOE" }), print({ tsMs: t + 1, exchange: "PHLX", price: 1.0 })]).groups).toHaveLength(0);
    expect(groupSweeps([print({ tsMs: t, exchange: "CBOE" }), print({ tsMs: t + 1, exchange: "PHLX", strike: 515 })]).groups).toHaveLength(0);
    expect(groupSweeps([print({ tsMs: t, exchange: "CBOE" }), print({ tsMs: t + 1, exchange: "CBOE" })]).groups).toHaveLength(0);
    // mid prints, crosses and multi-leg legs never join
    expect(groupSweeps([print({ tsMs: t, price: 1.025 }), print({ tsMs: t + 1, exchange: "PHLX", price: 1.025 })]).groups).toHaveLength(0);
    expect(groupSweeps([print({ tsMs: t, conditions: ["SLCN"] }), print({ tsMs: t + 1, exchange: "PHLX", conditions: ["SLCN"] })]).groups).toHaveLength(0);
  });

  it("one exchange with an ISO condition is a sweep; the span cap splits a long chain", () => {
    expect(groupSweeps([print({ conditions: ["ISOI"] })]).groups[0].exchangeCount).toBe(1);
    // 40 ms steps stay within the 50 ms gap but the 1000 ms span cap cuts at the 26th print (25 * 40 = 1000).
    const chain = Array.from({ length: 30 }, (_, k) => print({ tsMs: OPEN_MS + 40 * k, exchange: k % 2 ? "CBOE" : "PHLX" }));
    const { groups } = groupSweeps(chain);
    expect(groups.map((g) => g.printIndices.length)).toEqual([26, 4]);
  });

  it("every simulated ISO sweep fill lands in a group of its contract with >= 3 exchanges (SPY, 20 minutes)", async () => {
    const from = Date.UTC(2024, 2, 15, 14, 0);
    const market = simulatedMarketAt(7, Date.UTC(2024, 3, 1));
    const prints = await market.optionPrints("SPY", from, from + 20 * 60_000);
    const { groups, groupOf } = groupSweeps(prints);
    const iso = prints.map((_p, i) => i).filter((i) => isSweepPrint(prints[i]));
    expect(iso.length).toBeGreaterThan(20);
    for (const i of iso) {
      expect(groupOf[i]).toBeGreaterThanOrEqual(0);
      const g = groups[groupOf[i]];
      expect(g.symbol).toBe(prints[i].symbol);
      expect(g.exchangeCount).toBeGreaterThanOrEqual(3);
      expect(g.executionTimeMs).toBeLessThanOrEqual(50 * g.printIndices.length);
    }
    // members share contract and side, and are in time order
    for (const g of groups) {
      for (let k = 1; k < g.printIndices.length; k++) {
        const a = prints[g.printIndices[k - 1]];
        const b = prints[g.printIndices[k]];
        expect(b.symbol).toBe(a.symbol);
        expect(b.tsMs - a.tsMs).toBeLessThanOrEqual(50);
      }
    }
  });
});

describe("multi-leg packages", () => {
  const leg = (expiry: string, strike: number, right: "C" | "P", size = 1) => ({ expiry, strike, right, size });

  it("names strategies by the documented rules", () => {
    const e = "2024-03-15";
    expect(packageStrategy([leg(e, 500, "C")])).toBe("unpaired");
    expect(packageStrategy([leg(e, 500, "C"), leg(e, 505, "C")])).toBe("vertical");
    expect(packageStrategy([leg(e, 500, "C"), leg(e, 505, "C", 2)])).toBe("ratio_spread");
    expect(packageStrategy([leg(e, 500, "C"), leg(e, 500, "P")])).toBe("straddle");
    expect(packageStrategy([leg(e, 510, "C"), leg(e, 490, "P")])).toBe("strangle");
    expect(packageStrategy([leg(e, 500, "C"), leg("2024-03-22", 500, "C")])).toBe("calendar");
    expect(packageStrategy([leg(e, 500, "C"), leg("2024-03-22", 505, "C")])).toBe("diagonal");
    expect(packageStrategy([leg(e, 495, "C"), leg(e, 500, "C", 2), leg(e, 505, "C")])).toBe("butterfly");
    expect(packageStrategy([leg(e, 480, "P"), leg(e, 490, "P"), leg(e, 510, "C"), leg(e, 520, "C")])).toBe("iron_condor");
    expect(packageStrategy([leg(e, 490, "P"), leg(e, 500, "P"), leg(e, 500, "C"), leg(e, 510, "C")])).toBe("iron_butterfly");
    expect(packageStrategy([leg(e, 490, "P"), leg(e, 500, "C"), leg(e, 510, "C")])).toBe("custom");
  });

  it("groups MLET legs by underlying and exchange within 1 ms; a repeated contract starts a new package", () => {
    const t = OPEN_MS;
    const prints = [
      print({ tsMs: t, conditions: ["MLET"], strike: 500 }),
      print({ tsMs: t, conditions: ["AUTO"], strike: 600 }), // single leg in between
      print({ tsMs: t, conditions: ["MLET"], strike: 505 }),
      print({ tsMs: t + 1, conditions: ["MLET"], strike: 500 }), // repeat of the first contract
      print({ tsMs: t + 1, conditions: ["MLET"], strike: 510, exchange: "ISE" }), // other exchange
      print({ tsMs: t + 5, conditions: ["MLAT"], strike: 495, exchange: "ISE" }), // 5 ms later
    ];
    const { packages, packageOf } = detectMultiLeg(prints);
    expect([...packageOf]).toEqual([0, -1, 0, 1, 2, 3]);
    expect(packages.map((p) => p.strategy)).toEqual(["vertical", "unpaired", "unpaired", "unpaired"]);
    // premium of package 0: (1.05 * 10 + 1.05 * 10) * 100 = 2100
    expect(packages[0].totalPremiumUsd).toBeCloseTo(2_100, 9);
  });

  it("simulated packages: every multi-leg print is a leg, most packages have 2-4 legs", async () => {
    const from = Date.UTC(2024, 2, 15, 14, 0);
    const market = simulatedMarketAt(7, Date.UTC(2024, 3, 1));
    const prints = await market.optionPrints("SPY", from, from + 20 * 60_000);
    const { packages, packageOf } = detectMultiLeg(prints);
    prints.forEach((p, i) => {
      expect(packageOf[i] >= 0).toBe(isMultiLegPrint(p));
    });
    const paired = packages.filter((p) => p.legCount >= 2 && p.legCount <= 4).length;
    expect(packages.length).toBeGreaterThan(10);
    expect(paired / packages.length).toBeGreaterThan(0.9);
  });
});
