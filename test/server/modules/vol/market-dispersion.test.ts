// /v1/vol/market's dispersion (the Magnificent Seven against QQQ) and fear-and-greed score, on an
// app covering the eight names and SPXW: each reading recomputed from the boards directly.
import { afterAll, describe, expect, it } from "vitest";
import { chainTerms, dispersionReading, sessionCloseReading, svxAll } from "../../../../lib/vol";
import { DISPERSION_MEMBERS } from "../../../../lib/vol/defaults";
import { moduleStateOf } from "../../../../server/modules";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule } from "../../../../server/modules/vol";
import { sessionsBefore } from "../../../../server/modules/vol/daily-store";
import { makeHarness, NOW_MS } from "../../_harness";
import { json, market } from "./_vol-harness";

const HISTORY = 3;
const vol = createVolModule({ historySessions: HISTORY, symbols: ["SPXW", "QQQ", ...DISPERSION_MEMBERS] });
const h = makeHarness({ market, credits: 1_000, modules: [metaModule, vol] });
const state = moduleStateOf(h.app.services, vol);
afterAll(() => h.app.shutdown(0));

const svx30At = async (symbol: string, atMs: number) => svxAll(chainTerms((await market.chain(symbol, atMs))!)).svx30?.value ?? null;

describe("/v1/vol/market dispersion and fear and greed", () => {
  it("dispersion from each member's and QQQ's SVX30 now; the score null without a year of history", async () => {
    const res = await h.get("/v1/vol/market");
    expect(res.status).toBe(200);
    const { data } = await json(res);
    const members = await Promise.all(DISPERSION_MEMBERS.map((s) => svx30At(s, NOW_MS)));
    const index = await svx30At("QQQ", NOW_MS);
    const mean = members.reduce((a, b) => a! + b!, 0)! / members.length;
    expect(data.dispersion.index).toBe("QQQ");
    expect(data.dispersion.members).toEqual([...DISPERSION_MEMBERS]);
    expect(data.dispersion.n).toBe(7);
    expect(data.dispersion.index_svx30).toBe(index);
    expect(data.dispersion.members_svx30).toBeCloseTo(mean, 10);
    expect(data.dispersion.spread).toBeCloseTo(mean - index!, 10);
    expect(data.dispersion.implied_corr).toBeCloseTo(dispersionReading(index, members).implied_corr!, 12);
    // Single names are more volatile than the index that holds them.
    expect(data.dispersion.spread).toBeGreaterThan(0);
    // Three sessions of history: no one-year percentile, no score.
    expect(data.dispersion.spread_pct_1y).toBeNull();
    expect(data.fear_greed.score).toBeNull();
    expect(data.fear_greed.label).toBeNull();
    expect(Object.keys(data.fear_greed.components).sort()).toEqual(["momentum", "skew", "term", "vol_level"]);
    expect(state.historySessions).toBe(HISTORY);
  }, 120_000);

  it("the daily spreads behind the percentile are the closing boards' (one session checked)", async () => {
    const day = sessionsBefore("2024-03-06", 1)[0];
    const idx = (await sessionCloseReading(market, "QQQ", day))!.svx30;
    const mem = await Promise.all(DISPERSION_MEMBERS.map(async (s) => (await sessionCloseReading(market, s, day))!.svx30));
    const stored = await state.daily.reading("QQQ", day);
    expect(stored!.svx30).toBe(idx);
    expect(dispersionReading(idx, mem).spread).toBeGreaterThan(0);
  }, 120_000);
});
