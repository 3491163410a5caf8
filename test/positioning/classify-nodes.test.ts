import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyNodes, kingIndex } from "../../lib/positioning/classify-nodes";
import { NODE_THRESHOLDS } from "../../lib/positioning/node-thresholds";

const cells = (pairs: [number, number][]) => pairs.map(([strike, value]) => ({ strike, value }));

describe("classifyNodes golden vectors (expected types written by hand from the DESIGN section 8 rule)", () => {
  it("empty and all-zero frames have no king and are all normal", () => {
    expect(classifyNodes([], 100)).toEqual([]);
    expect(
      classifyNodes(
        cells([
          [95, 0],
          [100, 0],
          [105, -0],
        ]),
        100,
      ),
    ).toEqual(["normal", "normal", "normal"]);
  });

  it("positive king above spot with a gatekeeper between and a barney below", () => {
    expect(
      classifyNodes(
        cells([
          [95, -30],
          [100, 50],
          [105, 100],
        ]),
        98,
      ),
    ).toEqual(["barney", "gatekeeper", "king"]);
  });

  it("negative king below spot; a strike equal to spot is not strictly between", () => {
    const frame = cells([
      [90, -200],
      [95, 100],
      [100, 80],
      [105, 60],
      [110, -10],
    ]);
    expect(classifyNodes(frame, 100)).toEqual(["king", "gatekeeper", "pika", "pika", "normal"]);
  });

  it("negative gatekeeper between a king below and spot above", () => {
    const frame = cells([
      [100, 300],
      [105, -150],
      [108, 60],
      [115, -80],
    ]);
    // M = 300; 105 and 108 lie in (100, 110); |-150| >= 120 -> gatekeeper; 60 < 120 -> pika? 60 < 75 -> significant
    expect(classifyNodes(frame, 110)).toEqual(["king", "gatekeeper", "significant", "barney"]);
  });

  it("thresholds are inclusive at exactly 0.40 M, 0.25 M, -0.25 M and 0.10 M", () => {
    // spot 100, king at 150 (M = 100): 110 is between spot and king.
    const frame = cells([
      [110, 40],
      [120, 39.99],
      [125, 25],
      [130, -25],
      [135, -24.99],
      [140, 10],
      [145, 9.99],
      [150, 100],
      [160, -10],
    ]);
    expect(classifyNodes(frame, 100)).toEqual(["gatekeeper", "pika", "pika", "barney", "significant", "significant", "normal", "king", "significant"]);
  });

  it("ties for the king go to the strike nearest spot, then to the lower strike", () => {
    expect(
      classifyNodes(
        cells([
          [95, -50],
          [105, 50],
        ]),
        100,
      ),
    ).toEqual(["king", "pika"]);
    expect(
      classifyNodes(
        cells([
          [96, 50],
          [103, -50],
        ]),
        100,
      ),
    ).toEqual(["pika", "king"]);
    expect(
      kingIndex(
        cells([
          [96, 50],
          [103, -50],
        ]),
        100,
      ),
    ).toBe(1);
  });

  it("a single non-zero cell is the king; the rest normal", () => {
    expect(
      classifyNodes(
        cells([
          [1, 0],
          [2, -1e-300],
          [3, 0],
        ]),
        10,
      ),
    ).toEqual(["normal", "king", "normal"]);
  });

  it("thresholds are the documented constants", () => {
    expect(NODE_THRESHOLDS).toEqual({ gatekeeperAbs: 0.4, pikaPos: 0.25, barneyNeg: 0.25, significantAbs: 0.1 });
  });
});

// Frames: unique strikes on a 5-point ladder, values mixing zeros, small and large magnitudes.
const valueArb = fc.oneof(fc.constant(0), fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }));
const frameArb = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { minLength: 0, maxLength: 40 }), fc.array(valueArb, { minLength: 40, maxLength: 40 }))
  .map(([ks, vs]) => ks.map((k, i) => ({ strike: k * 5, value: vs[i] })));
const spotArb = fc.double({ min: 0, max: 2100, noNaN: true });

describe("classifyNodes properties", () => {
  it("exactly one king iff a value is non-zero; it has the largest magnitude", () => {
    fc.assert(
      fc.property(frameArb, spotArb, (frame, spot) => {
        const types = classifyNodes(frame, spot);
        const kings = types.flatMap((t, i) => (t === "king" ? [i] : []));
        const m = Math.max(0, ...frame.map((c) => Math.abs(c.value)));
        if (m === 0) {
          expect(kings).toEqual([]);
          expect(types.every((t) => t === "normal")).toBe(true);
        } else {
          expect(kings.length).toBe(1);
          expect(Math.abs(frame[kings[0]].value)).toBe(m);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("every type satisfies its rule and fails every higher-priority rule", () => {
    const t = NODE_THRESHOLDS;
    fc.assert(
      fc.property(frameArb, spotArb, (frame, spot) => {
        const types = classifyNodes(frame, spot);
        const k = types.indexOf("king");
        if (k < 0) return;
        const m = Math.abs(frame[k].value);
        const lo = Math.min(spot, frame[k].strike);
        const hi = Math.max(spot, frame[k].strike);
        frame.forEach(({ strike, value }, i) => {
          const between = strike > lo && strike < hi;
          const r = value / m; // the documented comparison: ratios to M
          const isGate = Math.abs(r) >= t.gatekeeperAbs && between;
          const isPika = r >= t.pikaPos;
          const isBarney = r <= -t.barneyNeg;
          const isSig = Math.abs(r) >= t.significantAbs;
          if (value === 0 && i !== k) expect(types[i]).toBe("normal");
          const expected = i === k ? "king" : isGate ? "gatekeeper" : isPika ? "pika" : isBarney ? "barney" : isSig ? "significant" : "normal";
          expect(types[i]).toBe(expected);
          if (types[i] === "gatekeeper") expect(between).toBe(true);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it("scaling every value by a power of two (exact in floating point) changes no type", () => {
    fc.assert(
      fc.property(frameArb, spotArb, fc.integer({ min: -40, max: 40 }), (frame, spot, e) => {
        const c = 2 ** e;
        const scaled = frame.map((x) => ({ strike: x.strike, value: x.value * c }));
        // Exact only outside the subnormal range: require the scaling to round-trip.
        fc.pre(scaled.every((x, i) => Number.isFinite(x.value) && x.value / c === frame[i].value));
        expect(classifyNodes(scaled, spot)).toEqual(classifyNodes(frame, spot));
      }),
      { numRuns: 3000 },
    );
  });

  it("scaling by any positive constant changes no type away from exact threshold/tie boundaries", () => {
    const ratios = Object.values(NODE_THRESHOLDS);
    fc.assert(
      fc.property(frameArb, spotArb, fc.double({ min: 1e-6, max: 1e6, noNaN: true }), (frame, spot, c) => {
        const m = Math.max(0, ...frame.map((x) => Math.abs(x.value)));
        // Skip frames where rounding of c*v could flip a comparison: near-threshold ratios and near-ties with M.
        fc.pre(
          frame.every((x) => {
            const r = Math.abs(x.value) / (m || 1);
            return ratios.every((q) => Math.abs(r - q) > 1e-9) && (r === 1 || Math.abs(r - 1) > 1e-9) && (x.value === 0 || Math.abs(x.value) > 1e-290);
          }),
        );
        const scaled = frame.map((x) => ({ strike: x.strike, value: x.value * c }));
        expect(classifyNodes(scaled, spot)).toEqual(classifyNodes(frame, spot));
      }),
      { numRuns: 3000 },
    );
  });

  it("the order of the cells does not matter", () => {
    fc.assert(
      fc.property(frameArb, spotArb, fc.integer(), (frame, spot, seed) => {
        const perm = frame
          .map((x, i) => ({ x, key: Math.sin(seed + i * 7.3) }))
          .sort((a, b) => a.key - b.key)
          .map((p) => p.x);
        const byStrike = (f: typeof frame) => {
          const ty = classifyNodes(f, spot);
          return new Map(f.map((x, i) => [x.strike, ty[i]]));
        };
        expect(byStrike(perm)).toEqual(byStrike(frame));
      }),
      { numRuns: 1000 },
    );
  });
});
