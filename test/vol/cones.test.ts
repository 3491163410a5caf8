import { describe, expect, it } from "vitest";
import { normCdf } from "../../lib/math";
import { etInstant, sessionBounds } from "../../lib/time";
import {
  chainTerms,
  coneHorizonTargets,
  coneLevel,
  coneLevelAnchors,
  cones,
  impliedMove,
  realizedVolPerSession,
  sessionsToSettle,
  smileCdf,
  smileQuantile,
  smileSides,
  type Smile,
} from "../../lib/vol";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));

const flat = (vol: number, tYears: number, forward = 100): Smile => {
  const strike = Float64Array.from({ length: 401 }, (_, i) => forward * Math.exp(-1 + i / 200));
  return { strike, ivDecimal: new Float64Array(strike.length).fill(vol), forward, tYears };
};

describe("smile quantiles", () => {
  it("match the lognormal closed form on a flat smile", () => {
    const s = flat(0.3, 0.25);
    const sd = 0.3 * Math.sqrt(0.25);
    for (const z of [-2, -1, 0, 1, 2]) {
      const k = smileQuantile(s, normCdf(z))!;
      expect(Math.log(k / 100)).toBeCloseTo((-sd * sd) / 2 + z * sd, 5);
    }
    const sides = smileSides(s)!;
    expect(sides.up1).toBeCloseTo(1 - sd / 2, 4);
    expect(sides.dn1).toBeCloseTo(1 + sd / 2, 4);
    expect(smileQuantile(flat(0.3, 25), normCdf(-2))).toBeNull();
  });

  it("give a CDF in [0, 1], increasing, and a wider downside under put skew", () => {
    const chain = market.chainSync("SPXW", etInstant("2024-05-01", "10:30"))!;
    const r = cones(chain);
    const week = r.horizons.find((h) => h?.name === "week")!;
    expect(week.tail_src).toBe("quantile");
    expect(week.dn2_pct!).toBeGreaterThan(week.up2_pct! * 1.2);
    const s: Smile = {
      strike: Float64Array.from({ length: 60 }, (_, i) => 70 + i),
      ivDecimal: Float64Array.from({ length: 60 }, (_, i) => 0.35 - 0.004 * i),
      forward: 100,
      tYears: 0.1,
    };
    let prev = -1;
    for (let k = 71; k < 128; k += 0.5) {
      const p = smileCdf(s, k);
      expect(p).toBeGreaterThanOrEqual(prev - 1e-9);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
      prev = p;
    }
  });
});

describe("cone horizons and anchors", () => {
  it("places the horizons on a Wednesday morning", () => {
    const h = coneHorizonTargets(etInstant("2024-05-01", "10:30"));
    expect(h.map((x) => x.sessionDate)).toEqual(["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-17", null]);
    expect(h[4].settleMs! - etInstant("2024-05-01", "10:30")).toBe(30 * 86_400_000);
  });

  it("has no close horizon after hours and rolls the week on Friday evening", () => {
    const h = coneHorizonTargets(etInstant("2024-05-03", "17:00"));
    expect(h[0].settleMs).toBeNull();
    expect(h.slice(1, 4).map((x) => x.sessionDate)).toEqual(["2024-05-06", "2024-05-10", "2024-05-17"]);
  });

  it("ends a holiday week on its last trading day", () => {
    // Good Friday 2024-03-29: the week ends Thursday.
    expect(coneHorizonTargets(etInstant("2024-03-26", "11:00"))[2].sessionDate).toBe("2024-03-28");
  });

  it("anchors the fixed levels at past closes", () => {
    const a = coneLevelAnchors(etInstant("2024-05-01", "10:30"));
    expect(a.map((x) => [x.name, x.anchor, x.until])).toEqual([
      ["day", "2024-04-30", "2024-05-01"],
      ["week", "2024-04-26", "2024-05-03"],
      ["month", "2024-04-19", "2024-05-17"],
    ]);
    const lvl = coneLevel(a[0], 5000, 1.2);
    expect([lvl.hi1, lvl.lo1, lvl.hi2, lvl.lo2]).toEqual([5060, 4940, 5120, 4880]);
    expect(lvl.priced_at).toBe("2024-04-30T20:00:00Z");
  });
});

describe("cones on a simulated board", () => {
  const at = etInstant("2024-05-01", "10:30");
  const chain = market.chainSync("SPXW", at)!;
  const closes = Array.from({ length: 30 }, (_, i) => 5000 * Math.exp(0.01 * (i % 2 === 0 ? 1 : -1) * i));

  it("prices each horizon from the constant-maturity variance to its settle", () => {
    const terms = chainTerms(chain);
    const r = cones(chain, { terms, closes });
    const names = r.horizons.map((h) => h?.name);
    expect(names).toEqual(["close", "1d", "week", "opex", "30d"]);
    let prev = 0;
    for (const h of r.horizons) {
      const settle = Date.parse(h!.settle_at);
      expect(h!.em1_pct).toBeCloseTo(impliedMove(terms, settle)!.em1Pct, 12);
      expect(h!.em1).toBeCloseTo((chain.spot * h!.em1_pct) / 100, 9);
      expect(h!.em2).toBeCloseTo(2 * h!.em1, 9);
      expect(h!.em1_pct).toBeGreaterThan(prev);
      prev = h!.em1_pct;
    }
    // 30 days: exactly SVX30 / sqrt(365/30).
    const d30 = r.horizons[4]!;
    expect(d30.minutes).toBe(43_200);
  });

  it("compares with realized moves over the same sessions", () => {
    const r = cones(chain, { closes });
    const rv = realizedVolPerSession(closes, 20)!;
    const week = r.horizons[2]!;
    const { openMs, closeMs } = sessionBounds("2024-05-01");
    const n = (closeMs - at) / (closeMs - openMs) + 2;
    expect(sessionsToSettle(at, Date.parse(week.settle_at))).toBeCloseTo(n, 12);
    expect(week.realized_em_pct!).toBeCloseTo(100 * rv * Math.sqrt(n), 10);
    expect(cones(chain).horizons[0]!.realized_em_pct).toBeNull();
  });

  it("drops the close horizon on a board after the close", () => {
    const after = market.chainSync("SPXW", etInstant("2024-05-01", "16:30"))!;
    expect(cones(after).horizons[0]).toBeNull();
    expect(cones(after).horizons[1]!.name).toBe("1d");
  });
});

describe("realizedVolPerSession", () => {
  it("is the zero-mean RMS of log returns", () => {
    const closes = [100, 101, 99, 102];
    const r = [Math.log(1.01), Math.log(99 / 101), Math.log(102 / 99)];
    expect(realizedVolPerSession(closes, 3)).toBeCloseTo(Math.sqrt((r[0] ** 2 + r[1] ** 2 + r[2] ** 2) / 3), 15);
    expect(realizedVolPerSession(closes, 4)).toBeNull();
  });
});

describe("scheduled macro releases in the horizons", () => {
  it("lists the FOMC decisions and CPI releases inside each horizon (Fed and BLS calendars)", () => {
    // Wednesday 2024-03-06 10:00 ET. CPI 2024-03-12 08:30 EDT; FOMC 2024-03-20 14:00 EDT;
    // the next CPI (2024-04-10) is after the 30-day settle (2024-04-05).
    const chain = market.chainSync("SPXW", Date.parse("2024-03-06T15:00:00Z"))!;
    const byName = Object.fromEntries(cones(chain).horizons.map((h) => [h!.name, h!]));
    expect(byName.close.events).toEqual([]);
    expect(byName["1d"].events).toEqual([]);
    expect(byName.week.events).toEqual([]);
    expect(byName.opex.events).toEqual([{ kind: "cpi", label: "CPI release", at: "2024-03-12T12:30:00Z" }]);
    expect(byName["30d"].events).toEqual([
      { kind: "cpi", label: "CPI release", at: "2024-03-12T12:30:00Z" },
      { kind: "fomc", label: "FOMC decision", at: "2024-03-20T18:00:00Z" },
    ]);
    // Listing a release does not claim a separated jump.
    for (const h of Object.values(byName)) expect(h.event_adjusted).toBe(false);
  });

  it("a release on the horizon's own day counts only when it lands after the board", () => {
    // 2024-03-20 15:00 EDT, an hour after the FOMC decision: it is no longer ahead.
    const chain = market.chainSync("SPXW", Date.parse("2024-03-20T19:00:00Z"))!;
    const close = cones(chain).horizons.find((h) => h?.name === "close")!;
    expect(close.events).toEqual([]);
    const before = market.chainSync("SPXW", Date.parse("2024-03-20T17:00:00Z"))!; // 13:00 EDT
    expect(cones(before).horizons.find((h) => h?.name === "close")!.events).toEqual([{ kind: "fomc", label: "FOMC decision", at: "2024-03-20T18:00:00Z" }]);
  });
});
