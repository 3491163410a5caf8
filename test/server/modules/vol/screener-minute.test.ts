// The screener per minute: one computation of the universe's rows per market minute, done in the
// background as soon as a new minute starts (once the screener has been used), and warm requests
// that only rank, filter and slice the minute's rows.
import { afterAll, describe, expect, it } from "vitest";
import { moduleStateOf } from "../../../../server/modules";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule } from "../../../../server/modules/vol";
import { rankRows, REFRESH_POLL_MS, universeRows } from "../../../../server/modules/vol/screener";
import { makeHarness, NOW_MS } from "../../_harness";
import { TEST_HISTORY_SESSIONS, TEST_SYMBOLS } from "./_vol-harness";
import { simulatedMarketAt } from "../../../_helpers/simulated-market";

const clock = {
  ms: NOW_MS,
  now() {
    return this.ms;
  },
};
const vol = createVolModule({ historySessions: TEST_HISTORY_SESSIONS, symbols: TEST_SYMBOLS });
const h = makeHarness({ market: simulatedMarketAt(42, NOW_MS), clock, credits: 100_000, modules: [metaModule, vol] });
const state = moduleStateOf(h.app.services, vol);
const minuteKey = (ms: number) => `rows|${Math.floor(ms / 60_000)}`;

afterAll(() => h.app.shutdown(0));

describe("screener per minute", () => {
  it("computes a new minute's rows in the background, before any request of that minute", async () => {
    await state.warmUp();
    const first = await h.get("/v1/vol/screener?limit=500");
    expect(first.status).toBe(200);
    clock.ms = NOW_MS + 60_000;
    expect(state.memo.has(minuteKey(clock.ms))).toBe(false);
    // The refresh polls the clock every REFRESH_POLL_MS; give it a few periods.
    const deadline = Date.now() + 20 * REFRESH_POLL_MS;
    while (!state.memo.has(minuteKey(clock.ms)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(state.memo.has(minuteKey(clock.ms))).toBe(true);
    await state.memo.get(minuteKey(clock.ms));
    const res = await h.get("/v1/vol/screener?limit=500&sort=iv_rank&order=asc");
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.meta.cached).toBe(true);
    // What the request served equals ranking a fresh computation of the minute.
    const fresh = rankRows(await universeRows(state, clock.ms), "iv_rank", "asc");
    expect(body.data.rows).toEqual(JSON.parse(JSON.stringify(fresh)));
  }, 60_000);

  it("two query shapes at one minute rank the same rows independently; filters apply before ranks", async () => {
    const all = (await (await h.get("/v1/vol/screener?limit=500&sort=svx30")).json()).data.rows as { symbol: string; svx30: number | null; rank: number | null }[];
    const lo = all
      .filter((r) => r.svx30 !== null)
      .map((r) => r.svx30!)
      .sort((a, b) => a - b)[1];
    const bounded = (await (await h.get(`/v1/vol/screener?limit=500&sort=svx30&min_svx30=${lo}`)).json()).data.rows as typeof all;
    expect(bounded.every((r) => r.svx30 !== null && r.svx30 >= lo)).toBe(true);
    expect(bounded.filter((r) => r.rank !== null).map((r) => r.rank)).toEqual(bounded.filter((r) => r.rank !== null).map((_, i) => i + 1));
    // The unbounded list is unchanged by the bounded one computed after it.
    const again = (await (await h.get("/v1/vol/screener?limit=500&sort=svx30")).json()).data.rows;
    expect(again).toEqual(all);
  }, 60_000);
});
