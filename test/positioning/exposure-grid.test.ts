import { describe, expect, it } from "vitest";
import { jsKernels, loadKernelsSync } from "../../lib/kernels";
import { bsmPrice } from "../../lib/math/black-scholes";
import { exposureGrid } from "../../lib/positioning/exposure-grid";
import { PositioningError } from "../../lib/positioning/errors";
import { settlementInstantMs } from "../../lib/symbols";
import { etInstant } from "../../lib/time";
import { buildChain, type Row } from "./_chain";
import { referenceCells } from "./_reference";

// 2025-03-05 is a Wednesday in EST (UTC-5): 09:30 ET = 14:30Z, 16:00 ET = 21:00Z.
const D0 = "2025-03-05";
const at = (hhmm: string, date = D0) => etInstant(date, hhmm);
const EXPS = ["2025-03-05", "2025-03-06", "2025-03-07", "2025-03-10", "2025-03-14", "2025-03-21", "2025-04-17"];
const settle = Object.fromEntries(EXPS.map((e) => [e, settlementInstantMs("SPXW", e)]));

function ladderRows(strikes: number[], exps: string[], spot: number): Row[] {
  const rows: Row[] = [];
  for (const e of exps) {
    for (const k of strikes) {
      const m = Math.log(k / spot);
      const iv = 0.18 - 0.6 * m + 2 * m * m; // a skewed smile, strictly positive here
      const oi = 100 + Math.round(5000 * Math.exp(-((k - spot) ** 2) / 2000)) + (k % 50 === 0 ? 3000 : 0);
      rows.push({ expiry: e, strike: k, right: "C", oi, iv });
      rows.push({ expiry: e, strike: k, right: "P", oi: Math.round(oi * 1.3), iv: iv + 0.01 });
    }
  }
  return rows;
}

const STRIKES = Array.from({ length: 61 }, (_, i) => 5650 + 5 * i); // 5650..5950
const SPOT = 5801.3;
const chainAt = (asOfMs: number, spot = SPOT) => buildChain({ symbol: "SPXW", asOfMs, spot, settleMs: settle }, ladderRows(STRIKES, EXPS, spot));

const engines = [jsKernels, loadKernelsSync()];

function expectClose(a: number, b: number, rel = 1e-9) {
  expect(Math.abs(a - b)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
}

describe.each(engines.map((e) => [e.name, e] as const))("exposureGrid vs a slow per-contract reference (%s engine)", (name, engine) => {
  for (const metric of ["gamma", "vanna"] as const) {
    it(`${metric}: every cell, per-strike net and total match lib/math bsmGreeks`, () => {
      const chain = chainAt(at("10:17"));
      const grid = exposureGrid(chain, { metric, maxStrikes: "all", maxExpirations: "all", includeEmpty: true }, engine);
      const ref = referenceCells(chain, metric);
      expect(grid.meta.engine).toBe(name);
      expect(grid.expirations).toEqual(EXPS);
      expect(Array.from(grid.strikes)).toEqual(STRIKES);
      const nExp = grid.expirations.length;
      let total = 0;
      grid.strikes.forEach((k, i) => {
        let rowSum = 0;
        grid.expirations.forEach((e, j) => {
          const want = ref.get(`${k}|${e}`) ?? 0;
          expectClose(grid.matrix[i * nExp + j], want);
          rowSum += want;
        });
        expectClose(grid.net[i], rowSum);
        total += rowSum;
      });
      expectClose(grid.total, total);
    });
  }
});

describe("window and filter semantics", () => {
  const engine = jsKernels;
  it("defaults: the nearest 5 expirations and 92 strikes (all 61 here)", () => {
    const g = exposureGrid(chainAt(at("10:00")), undefined, engine);
    expect(g.expirations).toEqual(EXPS.slice(0, 5));
    expect(g.strikes.length).toBe(61);
    expect(g.meta.window).toMatchObject({ maxStrikes: 92, maxExpirations: 5, includeEmpty: false });
    expect(g.meta.signModel).toEqual({ calls: 1, puts: -1 });
    expect(g.meta.layout).toBe("net");
  });

  it("maxStrikes picks the strikes nearest spot (ties to the lower strike)", () => {
    // spot 5801.3: nearest 3 are 5800, 5805, 5795 (5795 is 6.3 away, 5810 is 8.7 away)
    expect(Array.from(exposureGrid(chainAt(at("10:00")), { maxStrikes: 3 }, engine).strikes)).toEqual([5795, 5800, 5805]);
    // spot 5802.5 is halfway between 5800 and 5805: maxStrikes 1 takes 5800, 2 takes both, 3 adds 5795
    const mid = chainAt(at("10:00"), 5802.5);
    expect(Array.from(exposureGrid(mid, { maxStrikes: 1 }, engine).strikes)).toEqual([5800]);
    expect(Array.from(exposureGrid(mid, { maxStrikes: 3 }, engine).strikes)).toEqual([5795, 5800, 5805]);
    // below 1 is treated as 1; above 1000 is invalid
    expect(exposureGrid(mid, { maxStrikes: 0 }, engine).strikes.length).toBe(1);
    expect(() => exposureGrid(mid, { maxStrikes: 1001 }, engine)).toThrow(PositioningError);
    // a spot beyond the ladder takes the top strikes
    expect(Array.from(exposureGrid(chainAt(at("10:00"), 6100), { maxStrikes: 2 }, engine).strikes)).toEqual([5945, 5950]);
  });

  it("maxExpirations and explicit expirations; settled expirations never count", () => {
    const c = chainAt(at("10:00"));
    expect(exposureGrid(c, { maxExpirations: 2 }, engine).expirations).toEqual(["2025-03-05", "2025-03-06"]);
    expect(exposureGrid(c, { maxExpirations: "all" }, engine).expirations).toEqual(EXPS);
    expect(() => exposureGrid(c, { maxExpirations: 61 }, engine)).toThrow(/maxExpirations/);
    // explicit: unknown dates ignored, order normalised
    const g = exposureGrid(c, { expirations: ["2025-04-17", "2030-01-01", "2025-03-07"] }, engine);
    expect(g.expirations).toEqual(["2025-03-07", "2025-04-17"]);
    try {
      exposureGrid(c, { expirations: ["2030-01-01"] }, engine);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PositioningError);
      expect((e as PositioningError).code).toBe("expiration_not_found");
      expect((e as Error).message).toContain("2025-03-05");
    }
    // after the 16:00 close the 0DTE expiration is settled: the nearest 2 move on
    const after = chainAt(at("16:00"));
    expect(exposureGrid(after, { maxExpirations: 2 }, engine).expirations).toEqual(["2025-03-06", "2025-03-07"]);
    expect(() => exposureGrid(after, { expirations: ["2025-03-05"] }, engine)).toThrow(/None of the requested/);
  });

  it("interior strikes whose every cell is below $50 are dropped unless includeEmpty; the outermost stay", () => {
    const rows: Row[] = [5790, 5795, 5800, 5805, 5810].flatMap((k) => [
      { expiry: "2025-03-07", strike: k, right: "C" as const, oi: k === 5795 || k === 5810 ? 0 : 1000, iv: 0.2 },
    ]);
    const c = buildChain({ symbol: "SPXW", asOfMs: at("10:00"), spot: 5800, settleMs: settle }, rows);
    expect(Array.from(exposureGrid(c, {}, engine).strikes)).toEqual([5790, 5800, 5805, 5810]);
    expect(Array.from(exposureGrid(c, { includeEmpty: true }, engine).strikes)).toEqual([5790, 5795, 5800, 5805, 5810]);
    // a tiny but non-zero interior cell (below $50) is empty too: 1 contract far OTM
    const rows2 = rows.map((r) => (r.strike === 5795 ? { ...r, oi: 1, strike: 5795 } : r));
    const c2 = buildChain({ symbol: "SPXW", asOfMs: at("10:00"), spot: 5800, settleMs: settle }, [
      ...rows2,
      { expiry: "2025-03-07", strike: 7000, right: "C", oi: 1, iv: 0.2 },
    ]);
    const g2 = exposureGrid(c2, { maxStrikes: "all" }, engine);
    expect(Array.from(g2.strikes)).toContain(7000); // outermost: kept although ~0
    expect(g2.meta.window.strikesInWindow).toBe(6);
  });

  it("the sign model is a parameter and is echoed", () => {
    const c = chainAt(at("11:00"));
    const base = exposureGrid(c, { maxStrikes: "all" }, engine);
    const allLong = exposureGrid(c, { maxStrikes: "all", signModel: { calls: 1, puts: 1 } }, engine);
    const callsOnly = exposureGrid(c, { maxStrikes: "all", signModel: { calls: 1, puts: 0 } }, engine);
    expect(allLong.meta.signModel).toEqual({ calls: 1, puts: 1 });
    // net(default) = calls - puts and net(all long) = calls + puts, so their mean is the calls-only grid
    base.net.forEach((v, i) => {
      expectClose((v + allLong.net[i]) / 2, callsOnly.net[i], 1e-12);
    });
    // with dealers long both sides every gamma cell is non-negative
    expect(allLong.matrix.every((x) => x >= 0)).toBe(true);
  });

  it("layout=matrix is echoed; the matrix rows sum to the net", () => {
    const g = exposureGrid(chainAt(at("12:00")), { layout: "matrix", maxStrikes: 10 }, engine);
    expect(g.meta.layout).toBe("matrix");
    const nExp = g.expirations.length;
    g.net.forEach((v, i) => {
      let s = 0;
      for (let j = 0; j < nExp; j++) s += g.matrix[i * nExp + j];
      expectClose(v, s, 1e-12);
    });
  });
});

describe("time to expiry", () => {
  it("the test clock is ET (checked against UTC by hand)", () => {
    expect(at("09:30")).toBe(Date.UTC(2025, 2, 5, 14, 30));
    expect(at("09:30", "2025-03-21")).toBe(Date.UTC(2025, 2, 21, 13, 30)); // EDT after 2025-03-09
  });

  const engine = jsKernels;
  const zeroDte = (asOfMs: number, strike: number) =>
    buildChain({ symbol: "SPXW", asOfMs, spot: 5800, rate: 0, dividendYield: 0, settleMs: { [D0]: settle[D0] } }, [
      { expiry: D0, strike, right: "C", oi: 1000, iv: 0.15 },
    ]);

  it("a 0DTE contract's gamma exposure decays through the day: ATM rises, OTM falls, each matching the reference", () => {
    const times = ["09:30", "11:00", "13:00", "15:00", "15:55"].map((t) => at(t));
    const atm = times.map((t) => exposureGrid(zeroDte(t, 5800), {}, engine).total);
    const otm = times.map((t) => exposureGrid(zeroDte(t, 5900), {}, engine).total);
    for (let i = 1; i < times.length; i++) {
      expect(atm[i]).toBeGreaterThan(atm[i - 1]);
      expect(otm[i]).toBeLessThan(otm[i - 1]);
    }
    times.forEach((t, i) => {
      const ref = referenceCells(zeroDte(t, 5800), "gamma").get(`5800|${D0}`)!;
      expectClose(atm[i], ref);
    });
  });

  it("floors at one minute and drops the contract at the settlement instant", () => {
    const last = exposureGrid(zeroDte(at("15:59") + 30_000, 5800), {}, engine).total;
    const oneMinute = exposureGrid(zeroDte(at("15:59"), 5800), {}, engine).total;
    expect(last).toBe(oneMinute); // 30 s to go is floored to the same one minute
    expect(() => exposureGrid(zeroDte(at("16:00"), 5800), {}, engine)).toThrow(PositioningError);
  });

  it("AM-settled SPX monthlies settle at 09:30 ET, PM-settled SPXW at 16:00 ET on the same date", () => {
    // 2025-03-21 is the March monthly (third Friday).
    const day = "2025-03-21";
    const s = { SPX: settlementInstantMs("SPX", day), SPXW: settlementInstantMs("SPXW", day) };
    expect(s.SPXW - s.SPX).toBe(6.5 * 3600_000);
    const mk = (root: "SPX" | "SPXW", asOfMs: number) =>
      buildChain({ symbol: root, asOfMs, spot: 5800, settleMs: { [day]: s[root] } }, [{ expiry: day, strike: 5800, right: "C", oi: 100, iv: 0.2 }]);
    const before = at("09:00", day);
    const am = exposureGrid(mk("SPX", before), {}, engine).total;
    const pm = exposureGrid(mk("SPXW", before), {}, engine).total;
    expect(am).toBeGreaterThan(pm); // 30 minutes left vs 7 hours: ATM gamma is larger for the AM contract
    expectClose(am, referenceCells(mk("SPX", before), "gamma").get(`5800|${day}`)!);
    const after = at("10:00", day);
    expect(() => exposureGrid(mk("SPX", after), {}, engine)).toThrow(/No unexpired/);
    expect(exposureGrid(mk("SPXW", after), {}, engine).total).toBeGreaterThan(0);
  });
});

describe("implied vol from the bid/ask mid when the snapshot has none", () => {
  it("recovers the grid computed with the true IVs", () => {
    const engine = jsKernels;
    const asOfMs = at("10:30");
    const withIv = chainAt(asOfMs);
    const rows = ladderRows(STRIKES, EXPS.slice(0, 3), SPOT).map((r) => {
      const tYears = (settle[r.expiry] - asOfMs) / 60_000 / 525_600;
      const p = bsmPrice({ spot: SPOT, strike: r.strike, tYears, vol: r.iv!, rate: 0.04, dividendYield: 0.01, right: r.right });
      return { ...r, iv: undefined, bid: p * 0.999, ask: p * 1.001 };
    });
    const noIv = buildChain({ symbol: "SPXW", asOfMs, spot: SPOT, settleMs: settle }, rows);
    const opts = { maxStrikes: 20, maxExpirations: 3 } as const;
    const a = exposureGrid(withIv, opts, engine);
    const b = exposureGrid(noIv, opts, engine);
    expect(b.meta.contracts.ivSolved).toBeGreaterThan(0);
    // bid/ask are +-0.1% around the model price, so the mid is the model price
    a.net.forEach((v, i) => {
      expectClose(b.net[i], v, 1e-6);
    });
    // a contract with no quote and no IV is left out and counted
    const broken = buildChain({ symbol: "SPXW", asOfMs, spot: SPOT, settleMs: settle }, [
      { expiry: EXPS[1], strike: 5800, right: "C", oi: 10 },
      { expiry: EXPS[1], strike: 5805, right: "C", oi: 10, iv: 0.2 },
    ]);
    expect(exposureGrid(broken, {}, engine).meta.contracts).toEqual({ selected: 2, ivSolved: 0, ivMissing: 1 });
  });
});
