import { describe, expect, it } from "vitest";
import { etInstant, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { daysToEvent, optionVolume, spotVolCorrelation, svx30 } from "../../lib/vol";
import { rng } from "./_boards";
import { simulatedMarketAt } from "../_helpers/simulated-market";

describe("screener fields", () => {
  it("sums the chain's session volume", () => {
    const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
    const chain = market.chainSync("SPY", etInstant("2024-05-01", "12:00"))!;
    expect(optionVolume(chain)).toBe(Array.from(chain.volume).reduce((a, b) => a + b, 0));
  });

  it("correlates returns with SVX changes (exactly -1 for a linear inverse relation)", () => {
    const rand = rng(9);
    const closes = [100];
    const vols = [20];
    for (let i = 1; i < 80; i++) {
      const r = (rand() - 0.5) * 0.04;
      closes.push(closes[i - 1] * Math.exp(r));
      vols.push(vols[i - 1] - 300 * r);
    }
    expect(spotVolCorrelation(closes, vols)).toBeCloseTo(-1, 10);
    expect(spotVolCorrelation(closes.slice(0, 10), vols.slice(0, 10))).toBeNull();
  });

  it("finds negative spot-vol correlation on the simulated index", () => {
    const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
    const days = tradingDaysBetween("2024-02-01", "2024-05-01").slice(-61);
    const boards = days.map((d) => market.chainSync("SPY", sessionBounds(d).closeMs - 60_000)!);
    const corr = spotVolCorrelation(
      boards.map((b) => b.spot),
      boards.map((b) => svx30(b)!.value),
    )!;
    expect(corr).toBeLessThan(-0.3);
  });

  it("counts calendar days to an event", () => {
    expect(daysToEvent("2024-05-01", "2024-05-01")).toBe(0);
    expect(daysToEvent("2024-02-28", "2024-03-01")).toBe(2);
    expect(daysToEvent("2024-11-01", "2024-11-04")).toBe(3);
  });
});
