// An AM-settled root (SPX monthlies) through the volatility routes: covered, read on its own board
// (spec: index options are served per root), terms and the opex cone to the 09:30 ET settlement.
import { beforeAll, describe, expect, it } from "vitest";
import { chainTerms, svxAll } from "../../../../lib/vol";
import { skewIndex } from "../../../../lib/vol/skew-index";
import { NOW_MS } from "../../_harness";
import { json, market, volHarness, type VolHarness } from "./_vol-harness";

let h: VolHarness;
beforeAll(() => {
  h = volHarness();
});

describe("SPX in the volatility module", () => {
  it("is covered: /v1/vol/iv and /v1/vol/cones read SPX's own AM-settled board", async () => {
    const res = await h.get("/v1/vol/snapshot?symbols=SPX,SPXW");
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.missing).toEqual([]);
    const [spx, spxw] = data.symbols;
    expect(spx.symbol).toBe("SPX");
    const board = market.chainSync("SPX", NOW_MS)!;
    const direct = svxAll(chainTerms(board));
    for (const t of ["svx1d", "svx9", "svx30", "svx3m", "svx6m"] as const) expect(spx.iv[t], t).toBe(direct[t]?.value ?? null);
    // Not SPXW's reading: a different set of contracts (monthlies only), the same S&P surface.
    expect(spx.iv.svx30).not.toBe(spxw.iv.svx30);
    expect(Math.abs(spx.iv.svx30 / spxw.iv.svx30 - 1)).toBeLessThan(0.05);
    // 2024-03-06 10:00 ET: the March standard settles 2024-03-15 09:30 EDT (13:30Z).
    const opex = spx.cones.horizons.find((hz: any) => hz?.name === "opex");
    expect(opex.settle_at).toBe("2024-03-15T13:30:00Z");
    expect(spxw.cones.horizons.find((hz: any) => hz?.name === "opex").settle_at).toBe("2024-03-15T20:00:00Z");
    // Term rows count elapsed days to the 09:30 settlement: 9 days less 30 minutes on the wall
    // clock, less the hour that the 2024-03-10 spring-forward removes.
    expect(spx.term.rows[0].dte).toBeCloseTo((9 * 1440 - 30 - 60) / 1440, 9);
    // The surface carries SPX's own SKEW-style index.
    expect(spx.surface.skew_index).toBe(skewIndex(chainTerms(board))!.value);
    // An index has no earnings calendar.
    expect(spx.events).toBeNull();
  });

  it("is listed as covered by /v1/vol/symbols", async () => {
    const { data } = await json(await h.get("/v1/vol/symbols"));
    expect(JSON.stringify(data)).toContain('"SPX"');
  });
});
