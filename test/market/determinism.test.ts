import { describe, expect, it } from "vitest";
import { fixedClock } from "../../lib/market/clock";
import { createSimulatedMarket } from "../../lib/market/simulated";
import { fingerprint } from "./_fingerprint";

describe("simulated market determinism", () => {
  it("gives identical bytes for the same seed, and different bytes for another seed", () => {
    const a = fingerprint(42);
    expect(fingerprint(42)).toBe(a);
    expect(fingerprint(43)).not.toBe(a);
  });

  it("does not depend on the order of requests", () => {
    expect(fingerprint(42, "reverse")).toBe(fingerprint(42, "forward"));
  });

  it("gives the same minute the same board whatever was asked before, across instances", () => {
    const clock = fixedClock(Date.parse("2025-06-02T20:30:00Z"));
    const at = Date.parse("2024-09-10T15:31:00Z");
    const cold = createSimulatedMarket({ seed: 9, clock }).chainSync("SPY", at)!;
    const warm = createSimulatedMarket({ seed: 9, clock });
    for (const t of [Date.parse("2024-09-12T15:00:00Z"), Date.parse("2023-04-03T15:00:00Z")]) warm.chainSync("SPY", t);
    warm.minuteBarsSync("SPY", Date.parse("2024-09-01T00:00:00Z"), Date.parse("2024-09-20T00:00:00Z"));
    const again = warm.chainSync("SPY", at)!;
    expect(Array.from(again.bid)).toEqual(Array.from(cold.bid));
    expect(Array.from(again.oi)).toEqual(Array.from(cold.oi));
    expect(again.spot).toBe(cold.spot);
  });

  it("accepts string seeds (numeric strings as numbers, others hashed)", () => {
    const clock = fixedClock(Date.parse("2025-06-02T20:30:00Z"));
    const at = Date.parse("2024-09-10T15:31:00Z");
    expect(createSimulatedMarket({ seed: "7", clock }).spotSync("SPX", at)).toBe(createSimulatedMarket({ seed: 7, clock }).spotSync("SPX", at));
    expect(createSimulatedMarket({ seed: "alpha", clock }).spotSync("SPX", at)).toBe(createSimulatedMarket({ seed: "alpha", clock }).spotSync("SPX", at));
  });
});
