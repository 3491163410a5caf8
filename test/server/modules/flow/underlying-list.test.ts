// /v1/underlying over a three-ticker universe: each ticker's premium and volume recomputed here
// from its raw option prints of the session so far, the order, floors and limit, and uncharged 4xx.
import { beforeAll, describe, expect, it } from "vitest";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, TODAY, type FlowHarness } from "./_flow-harness";

const UNIVERSE = ["AAPL", "XOM", "AMZN"];
let h: FlowHarness;
let expected: Array<{ ticker: string; totalPremium: number; totalVolume: number }>;
const balance = () => h.accounts.balance(h.accountId);

beforeAll(async () => {
  h = flowHarness({ credits: 10_000, universe: UNIVERSE });
  expected = [];
  for (const ticker of UNIVERSE) {
    const prints = await h.sim.optionPrints(ticker, sessionBounds(TODAY).openMs, NOW_MS);
    if (prints.length === 0) continue;
    expected.push({ ticker, totalPremium: prints.reduce((s, p) => s + p.price * p.size * 100, 0), totalVolume: prints.reduce((s, p) => s + p.size, 0) });
  }
  expected.sort((a, b) => b.totalPremium - a.totalPremium);
});

function expectRows(got: any[], want: typeof expected) {
  expect(got.map((r) => r.ticker)).toEqual(want.map((r) => r.ticker));
  got.forEach((r, i) => {
    expect(r.totalVolume).toBe(want[i].totalVolume);
    expect(r.totalPremium).toBeCloseTo(want[i].totalPremium, 1);
  });
}

describe("/v1/underlying", () => {
  it("every ticker that traded today, largest premium first, with premium and volume from the raw prints; 1 credit", async () => {
    const before = balance();
    const res = await h.get("/v1/underlying");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 1);
    expect(expected.length).toBe(3);
    expectRows((await body(res)).data, expected);
  });

  it("min_premium and min_volume are inclusive floors; limit cuts after ordering", async () => {
    const mid = expected[1];
    expectRows((await body(await h.get(`/v1/underlying?min_premium=${mid.totalPremium - 0.01}`))).data, expected.slice(0, 2));
    const minVol = Math.min(...expected.map((r) => r.totalVolume));
    expectRows(
      (await body(await h.get(`/v1/underlying?min_volume=${minVol + 1}`))).data,
      expected.filter((r) => r.totalVolume >= minVol + 1),
    );
    expectRows((await body(await h.get(`/v1/underlying?min_volume=${minVol}`))).data, expected);
    expectRows((await body(await h.get("/v1/underlying?limit=1"))).data, expected.slice(0, 1));
  });

  it("400 naming the parameter for a bad limit, floor or date; uncharged", async () => {
    const before = balance();
    for (const [qs, param] of [
      ["limit=0", "limit"],
      ["limit=501", "limit"],
      ["min_premium=-5", "min_premium"],
      ["min_volume=1.5", "min_volume"],
      ["date=2024-03-09", "date"],
      ["date=2024-03-07", "date"],
      ["date=03-06-2024", "date"],
    ] as const) {
      const res = await h.get(`/v1/underlying?${qs}`);
      expect(res.status, qs).toBe(400);
      const { error } = await body(res);
      expect(error.code, qs).toBe("INVALID_PARAMETER");
      expect(error.message, qs).toContain(param);
    }
    expect(balance()).toBe(before);
  });
});
