// The `iv` module's weekend-adjusted readings and mean-reversion odds as served: the odds' median
// from the closing boards of the history read directly, and `*_adj` null until a year of history.
import { afterAll, describe, expect, it } from "vitest";
import { chainTerms, sessionCloseReading, svxAll } from "../../../../lib/vol";
import { sessionsBefore } from "../../../../server/modules/vol/daily-store";
import { NOW_MS } from "../../_harness";
import { json, market, TEST_HISTORY_SESSIONS, volHarness } from "./_vol-harness";

const h = volHarness();
afterAll(() => h.app.shutdown(0));

describe("/v1/vol/iv *_adj and reversion", () => {
  it("reversion reads SVX30's daily series; *_adj is null with a week of history", async () => {
    const res = await h.get("/v1/vol/iv?symbols=SPY");
    expect(res.status).toBe(200);
    const iv = (await json(res)).data.symbols[0].iv;
    const board = (await market.chain("SPY", NOW_MS))!;
    const today = svxAll(chainTerms(board)).svx30!.value;
    const days = sessionsBefore(board.sessionDate, TEST_HISTORY_SESSIONS);
    const past = await Promise.all(days.map(async (d) => (await sessionCloseReading(market, "SPY", d))!.svx30!));
    const all = [...past, today].sort((a, b) => a - b);
    expect(all.length).toBe(7);
    expect(iv.reversion.median).toBe(all[3]);
    expect(iv.reversion.direction).toBe(today >= all[3] ? "down" : "up");
    expect(iv.reversion.quintile).toBe(Math.min(5, 1 + Math.floor((5 * all.filter((v) => v < today).length) / 7)));
    // No reading has one 21 sessions after it in a week: no samples, no odds.
    expect(iv.reversion.samples).toBe(0);
    expect(iv.reversion.odds_pct).toBeNull();
    for (const t of ["svx1d", "svx9", "svx30", "svx3m", "svx6m"]) {
      expect(iv).toHaveProperty(`${t}_adj`);
      expect(iv[`${t}_adj`]).toBeNull();
    }
  }, 120_000);
});
