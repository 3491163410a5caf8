// The diverging colour scale of the heatmaps (docs/methodology.md#heatmap-page-colour-scale):
// negative exposure red, zero the background, positive teal; the colour's strength is
// sqrt(|value| / scale), so mid-sized strikes stay visible beside one dominant node.

const NEG = [239, 83, 80];
const MID = [23, 27, 38];
const POS = [38, 166, 154];
const STEPS = 128;

/** 2 * STEPS + 1 CSS colours from -scale to +scale, computed once (the redraw only indexes it). */
const LUT: string[] = Array.from({ length: 2 * STEPS + 1 }, (_, k) => {
  const f = (k - STEPS) / STEPS;
  const end = f < 0 ? NEG : POS;
  const a = Math.abs(f);
  const c = MID.map((m, i) => Math.round(m + (end[i] - m) * a));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
});

/** The same colours as opaque RGBA pixels (bytes R, G, B, A in memory), for ImageData. */
const LUT_RGBA: Uint32Array = (() => {
  const bytes = new Uint8Array(4 * LUT.length);
  LUT.forEach((css, k) => {
    const [r, g, b] = css.match(/\d+/g)!.map(Number);
    bytes.set([r, g, b, 255], 4 * k);
  });
  return new Uint32Array(bytes.buffer);
})();

/** Index of `value` in the colour tables. */
function stepOf(value: number, scale: number): number {
  if (!(scale > 0) || !Number.isFinite(value)) return STEPS;
  const f = Math.sign(value) * Math.sqrt(Math.min(1, Math.abs(value) / scale));
  return STEPS + Math.round(f * STEPS);
}

/**
 * Colour of `value` on a scale symmetric about zero reaching full colour at `scale` (> 0).
 * @example colorOf(-2.5, 10) // halfway between the background and red
 */
export function colorOf(value: number, scale: number): string {
  return LUT[stepOf(value, scale)];
}

/**
 * `colorOf` as one pixel of a `Uint32Array` view over ImageData (R, G, B, A bytes in memory order).
 * @example new Uint8Array(Uint32Array.of(pixelOf(10, 10)).buffer) // [38, 166, 154, 255]
 */
export function pixelOf(value: number, scale: number): number {
  return LUT_RGBA[stepOf(value, scale)];
}

/** The scale of a set of values: the largest |value| (0 when none). */
export function scaleOf(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) {
    const a = Math.abs(values[i]);
    if (a > m) m = a;
  }
  return m;
}

/** The value drawn at fraction `f` (-1..1) of the legend: the inverse of the colour mapping. */
export function legendValue(f: number, scale: number): number {
  return Math.sign(f) * f * f * scale;
}
