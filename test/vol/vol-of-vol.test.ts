// The VVIX proxy (realized vol of daily SVX30 log changes) against hand computation.
import { describe, expect, it } from "vitest";
import { VOL_OF_VOL_MIN, VOL_OF_VOL_SESSIONS, volOfVolPct } from "../../lib/vol/vol-of-vol";

describe("volOfVolPct", () => {
  it("alternating +-5% log changes: 100 x 0.05 x sqrt(252)", () => {
    const s = [15];
    for (let i = 0; i < 40; i++) s.push(s[i] * Math.exp(i % 2 === 0 ? 0.05 : -0.05));
    expect(volOfVolPct(s)).toBeCloseTo(100 * 0.05 * Math.sqrt(252), 10);
  });

  it("uses only the last 21 changes: older turbulence does not count", () => {
    const calm = Array.from({ length: VOL_OF_VOL_SESSIONS + 1 }, (_, i) => 15 * Math.exp(0.01 * (i % 2)));
    const series = [40, 12, 45, 11, ...calm];
    expect(volOfVolPct(series)).toBeCloseTo(100 * 0.01 * Math.sqrt(252), 10);
  });

  it("skips changes next to a missing reading and needs 15 usable changes", () => {
    const s = [20, 21, Number.NaN, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21];
    // 18 changes, 2 unusable (into and out of the NaN): 16 usable, each |ln(21/20)|.
    expect(volOfVolPct(s)).toBeCloseTo(100 * Math.log(21 / 20) * Math.sqrt(252), 10);
    expect(volOfVolPct(s.slice(0, VOL_OF_VOL_MIN + 2))).toBeNull();
    expect(volOfVolPct([])).toBeNull();
  });
});
