import { describe, expect, it } from "vitest";
import { etInstant } from "../../lib/time";
import { IvModuleSchema, TermModuleSchema, chainQuality, ivModule, ivPercentile, svxAll, termModule, termStructure, zScore } from "../../lib/vol";
import { rng } from "./_boards";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
const at = etInstant("2024-05-01", "10:30");

describe("ivModule", () => {
  const spx = svxAll(market.chainSync("SPXW", at)!);
  const aapl = svxAll(market.chainSync("AAPL", at)!);
  const rand = rng(5);
  const series = Array.from({ length: 300 }, () => 15 + rand() * 20);
  series.push(aapl.svx30!.value);
  const ratios = Array.from({ length: 260 }, () => 1.5 + rand());

  it("assembles the readings, percentiles, ratio, slope and curve", () => {
    const m = IvModuleSchema.parse(ivModule(aapl, { daily: { svx30: series }, referenceSvx30: spx.svx30!.value, ratioDaily: ratios }));
    expect(m.svx30).toBe(aapl.svx30!.value);
    expect(m.iv_pct).toBeCloseTo(ivPercentile(series.slice(-253, -1), series[300])!, 12);
    expect(m.pct_by.svx30["1y"]).toBe(m.iv_pct);
    expect(m.pct_by.svx9["1y"]).toBeNull();
    expect(m.ratio_vix).toBeCloseTo(aapl.svx30!.value / spx.svx30!.value, 12);
    expect(m.ratio_z).toBeCloseTo(zScore(ratios.slice(-252), m.ratio_vix!)!, 12);
    expect(m.term_slope).toBeCloseTo(100 * (aapl.svx3m!.value / aapl.svx30!.value - 1), 12);
    expect(m.curve).not.toBeNull();
  });

  it("grades chain quality from the 30-day strips", () => {
    expect(chainQuality(spx.svx30)).toBe("good");
    expect(chainQuality(null)).toBe("thin");
    const few = { ...spx.svx30!, near: { ...spx.svx30!.near!, strikesUsed: 12 } };
    expect(chainQuality(few)).toBe("fair");
    expect(ivModule({ ...spx, svx30: null }).thin).toBe(true);
  });
});

describe("termModule", () => {
  it("serves ATM IV in vol points and no forwards", () => {
    const rows = termStructure(market.chainSync("SPY", at)!);
    const m = TermModuleSchema.parse(termModule(rows));
    expect(m.rows[0].iv).toBeCloseTo(100 * rows[0].atmIvDecimal, 12);
    expect(Object.keys(m.rows[0])).toEqual(["expiration", "dte", "iv"]);
  });
});
