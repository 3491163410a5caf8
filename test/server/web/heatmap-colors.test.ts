// The heatmap page's diverging colour scale (docs/methodology.md#heatmap-page-colour-scale).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { colorOf, legendValue, scaleOf } from "../../../server/web/heatmap/app/colors";

const rgb = (c: string) => c.match(/\d+/g)!.map(Number);
/** Distance of a colour from the zero colour (the background). */
const strength = (c: string) => {
  const z = rgb(colorOf(0, 1));
  return rgb(c).reduce((s, v, i) => s + Math.abs(v - z[i]), 0);
};

describe("heatmap colour scale", () => {
  it("zero is the background, the ends are red (negative) and teal (positive), beyond the scale clamps", () => {
    expect(rgb(colorOf(0, 10))).toEqual([23, 27, 38]);
    expect(rgb(colorOf(-10, 10))).toEqual([239, 83, 80]);
    expect(rgb(colorOf(10, 10))).toEqual([38, 166, 154]);
    expect(colorOf(-1e12, 10)).toBe(colorOf(-10, 10));
    expect(colorOf(5, 0)).toBe(colorOf(0, 1));
    expect(colorOf(Number.NaN, 10)).toBe(colorOf(0, 1));
  });

  it("strength grows with |value| and is symmetric in sign", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(strength(colorOf(lo, 1))).toBeLessThanOrEqual(strength(colorOf(hi, 1)));
        expect(strength(colorOf(-hi, 1))).toBeGreaterThanOrEqual(strength(colorOf(-lo, 1)));
      }),
    );
  });

  it("the legend's value at a position maps back to that position's colour", () => {
    for (let k = -20; k <= 20; k++) {
      const f = k / 20;
      const expected = colorOf(Math.sign(f) * f * f * 7, 7);
      expect(colorOf(legendValue(f, 7), 7)).toBe(expected);
    }
    expect(legendValue(0.5, 100)).toBe(25);
    expect(legendValue(-1, 100)).toBe(-100);
  });

  it("scaleOf is the largest |value|", () => {
    expect(scaleOf(new Float64Array([1, -7, 3]))).toBe(7);
    expect(scaleOf([])).toBe(0);
  });
});

describe("heatmap pixel colours (the board's ImageData path)", () => {
  it("each pixel is exactly colorOf's colour, opaque, in R, G, B, A byte order", async () => {
    const { pixelOf } = await import("../../../server/web/heatmap/app/colors");
    fc.assert(
      fc.property(fc.double({ noNaN: false }), fc.double({ min: -1, max: 1e9, noNaN: false }), (value, scale) => {
        const bytes = Array.from(new Uint8Array(Uint32Array.of(pixelOf(value, scale)).buffer));
        expect(bytes).toEqual([...rgb(colorOf(value, scale)), 255]);
      }),
    );
  });
});
