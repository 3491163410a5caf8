import { describe, expect, it } from "vitest";
import { STRIP_CALL, STRIP_K0, STRIP_PUT, constantMaturityVariance, varianceToIndex, vixTermVariance, type VixTerm } from "../../lib/vol";
import { NEAR_BOARD, NEXT_BOARD, parseBoard } from "./_vix-white-paper";

// Every printed intermediate value of the Cboe VIX white paper's worked example, at the printed
// precision (../shared/reference/vix-white-paper-example.md sections 3-4). The fixture is the
// independent check: nothing here is derived from our own output.

const near = vixTermVariance(parseBoard(NEAR_BOARD), { tMinutes: 854 + 510 + 34_560, rateAnnual: 0.000305 })!;
const next = vixTermVariance(parseBoard(NEXT_BOARD), { tMinutes: 854 + 900 + 44_640, rateAnnual: 0.000286 })!;

const range = (from: number, to: number, step: number): number[] => {
  const out: number[] = [];
  for (let k = from; k <= to; k += step) out.push(k);
  return out;
};

const sideOf = (t: VixTerm, k: number): number => t.strip.side[t.strip.strike.indexOf(k)];
const dKOf = (t: VixTerm, k: number): number => t.strip.dK[t.strip.strike.indexOf(k)];

describe("VIX white paper, near term (standard SPX, 25 days)", () => {
  it("has the printed N and T", () => {
    expect(near.tMinutes).toBe(35_924);
    expect(near.tYears.toFixed(7)).toBe("0.0683486");
  });

  it("finds the forward at the strike of the smallest call-put difference", () => {
    expect(near.parityStrike).toBe(1965);
    expect(near.parityCallMid.toFixed(2)).toBe("21.05");
    expect(near.parityPutMid.toFixed(2)).toBe("23.15");
    expect(near.forward.toFixed(5)).toBe("1962.89996");
    expect(near.k0).toBe(1960);
    expect(near.strip.q[near.strip.strike.indexOf(1960)]).toBeCloseTo(22.775, 12);
    expect(sideOf(near, 1960)).toBe(STRIP_K0);
  });

  it("selects the printed strikes (two zero bids in a row end each side)", () => {
    const puts = range(1370, 1955, 5).filter((k) => k !== 1405 && k !== 1415);
    const calls = [...range(1965, 2100, 5), 2125];
    expect(Array.from(near.strip.strike)).toEqual([...puts, 1960, ...calls]);
    expect(near.strip.strike.length).toBe(146);
    for (const k of puts) expect(sideOf(near, k)).toBe(STRIP_PUT);
    for (const k of calls) expect(sideOf(near, k)).toBe(STRIP_CALL);
    // Printed notes: 1350 and 1355 puts have bids but are out; so is the 2225 call.
    for (const k of [1350, 1355, 2225]) expect(near.strip.strike.includes(k)).toBe(false);
  });

  it("uses the printed dK", () => {
    const special: Record<number, number> = { 1400: 7.5, 1410: 10, 1420: 7.5, 2100: 15, 2125: 25 };
    for (const k of near.strip.strike) expect(dKOf(near, k), `dK at ${k}`).toBe(special[k] ?? 5);
  });

  it("prints the 1370 put contribution", () => {
    const i = near.strip.strike.indexOf(1370);
    expect(near.strip.q[i]).toBeCloseTo(0.2, 12);
    expect(near.strip.contribution[i].toFixed(10)).toBe("0.0000005328");
  });

  it("has the printed (2/T) sum, correction and sigma^2", () => {
    expect(near.strikeTermAnnual.toFixed(6)).toBe("0.018495");
    expect(near.correctionAnnual.toFixed(8)).toBe("0.00003203");
    expect(near.varianceAnnual.toFixed(8)).toBe("0.01846292");
    // Recomputed in the fixture (not printed for this edition): the sum of contributions.
    expect(near.contributionSum.toFixed(10)).toBe("0.0006320516");
  });
});

describe("VIX white paper, next term (SPX Weeklys, 32 days)", () => {
  it("has the printed N and T", () => {
    expect(next.tMinutes).toBe(46_394);
    expect(next.tYears.toFixed(7)).toBe("0.0882686");
  });

  it("finds the forward and K0", () => {
    expect(next.parityStrike).toBe(1960);
    expect(next.parityCallMid.toFixed(2)).toBe("27.30");
    expect(next.parityPutMid.toFixed(2)).toBe("24.90");
    expect(next.forward.toFixed(5)).toBe("1962.40006");
    expect(next.k0).toBe(1960);
    expect(next.strip.q[next.strip.strike.indexOf(1960)].toFixed(2)).toBe("26.10");
  });

  it("selects the printed strikes", () => {
    const puts = [1275, ...range(1325, 1500, 25), 1510, 1520, 1525, 1530, 1540, 1550, ...range(1555, 1955, 5)];
    const calls = [...range(1965, 2050, 5), 2060, 2070, 2075, 2100, 2125, 2150, 2200];
    expect(Array.from(next.strip.strike)).toEqual([...puts, 1960, ...calls]);
    expect(next.strip.strike.length).toBe(122);
    expect(next.strip.strike.includes(1300)).toBe(false);
    expect(next.strip.strike.includes(2175)).toBe(false);
  });

  it("uses the printed dK", () => {
    const special: Record<number, number> = {
      1275: 50,
      1325: 37.5,
      1500: 17.5,
      1510: 10,
      1520: 7.5,
      1525: 5,
      1530: 7.5,
      1540: 10,
      1550: 7.5,
      2050: 7.5,
      2060: 10,
      2070: 7.5,
      2075: 15,
      2100: 25,
      2125: 25,
      2150: 37.5,
      2200: 50,
    };
    for (const k of range(1350, 1475, 25)) special[k] = 25;
    for (const k of next.strip.strike) expect(dKOf(next, k), `dK at ${k}`).toBe(special[k] ?? 5);
  });

  it("has the printed (2/T) sum, correction and sigma^2", () => {
    expect(next.strikeTermAnnual.toFixed(6)).toBe("0.018838");
    expect(next.correctionAnnual.toFixed(8)).toBe("0.00001699");
    expect(next.varianceAnnual.toFixed(8)).toBe("0.01882101");
    expect(next.contributionSum.toFixed(10)).toBe("0.0008314022");
  });
});

describe("VIX white paper, the 30-day index", () => {
  it("interpolates to 13.69 (13.685821) with the printed weights", () => {
    const read = constantMaturityVariance(near, next, 43_200)!;
    expect(read.method).toBe("interpolated");
    expect(read.weightNear.toFixed(6)).toBe("0.305062");
    expect(read.weightNext.toFixed(6)).toBe("0.694938");
    const vix = varianceToIndex(read.varianceAnnual);
    expect(vix.toFixed(2)).toBe("13.69");
    expect(vix.toFixed(6)).toBe("13.685821");
  });

  it("gives 13.69 from the printed, rounded sigma^2 of the final line", () => {
    const read = constantMaturityVariance({ tMinutes: 35_924, varianceAnnual: 0.0184629 }, { tMinutes: 46_394, varianceAnnual: 0.018821 }, 43_200)!;
    expect(varianceToIndex(read.varianceAnnual).toFixed(2)).toBe("13.69");
  });
});

describe("Cboe methodology edition (same board, 2022-09-27 10:45:15 ET)", () => {
  const n1 = vixTermVariance(parseBoard(NEAR_BOARD), { tMinutes: 34_484, rateAnnual: 0.00031664 })!;
  const n2 = vixTermVariance(parseBoard(NEXT_BOARD), { tMinutes: 44_954, rateAnnual: 0.00028797 })!;

  it("has the printed T, forwards, sums and variances", () => {
    expect(n1.tYears.toFixed(7)).toBe("0.0656088");
    expect(n2.tYears.toFixed(7)).toBe("0.0855289");
    expect(n1.forward.toFixed(5)).toBe("1962.89996");
    expect(n2.forward.toFixed(5)).toBe("1962.40006");
    expect([n1.k0, n2.k0]).toEqual([1960, 1960]);
    expect(n1.contributionSum.toFixed(10)).toBe("0.0006320516");
    expect(n2.contributionSum.toFixed(10)).toBe("0.0008314016");
    expect(n1.strikeTermAnnual.toFixed(6)).toBe("0.019267");
    expect(n2.strikeTermAnnual.toFixed(6)).toBe("0.019441");
    expect(n1.correctionAnnual.toFixed(8)).toBe("0.00003337");
    expect(n2.correctionAnnual.toFixed(8)).toBe("0.00001753");
    expect(n1.varianceAnnual.toFixed(9)).toBe("0.019233906");
    expect(n2.varianceAnnual.toFixed(9)).toBe("0.019423884");
  });

  it("gives VIX 13.93 (0.13927842)", () => {
    const vix = varianceToIndex(constantMaturityVariance(n1, n2, 43_200)!.varianceAnnual);
    expect(vix.toFixed(2)).toBe("13.93");
    expect((vix / 100).toFixed(8)).toBe("0.13927842");
  });
});
