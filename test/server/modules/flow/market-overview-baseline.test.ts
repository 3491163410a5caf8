// /v1/market/overview's premiumRvol: from the whole trailing 20-session baseline or null, never
// from the part of it this process happens to have built (the same request gave 0, 0.83, 0.69).
import { getPriority } from "node:os";
import { describe, expect, it } from "vitest";
import { PREMIUM_RVOL_LOOKBACK_SESSIONS } from "../../../../lib/flow";
import { addTradingDays, previousTradingDay, sessionBounds } from "../../../../lib/time";
import { moduleStateOf } from "../../../../server/modules";
import { flowModule } from "../../../../server/modules/flow";
import type { FlowState } from "../../../../server/modules/flow/flow-route";
import type { SessionSummary } from "../../../../server/modules/flow/sessions/session-summary";
import { body, flowHarness, NOW_MS, TODAY } from "./_flow-harness";
import { dailyDbPath, marketIdentity, openDailyStore } from "../../../../server/daily-store";
import { createComputePool } from "../../../../server/daily-store/compute-pool";
import { FLOW_SUMMARY } from "../../../../server/daily-store/kinds";
import { tempDir } from "../../daily-store/_store-fixtures";

const h = flowHarness({ universe: ["AAPL", "SPY"] });
const state = moduleStateOf(h.app.services, flowModule) as FlowState;
const baselineDates = Array.from({ length: PREMIUM_RVOL_LOOKBACK_SESSIONS }, (_, i) => addTradingDays(TODAY, -(i + 1)));
const minute = Math.floor((NOW_MS - sessionBounds(TODAY).openMs) / 60_000);

/** A summary of a baseline session whose premium through `minute` is `premium` (with a few rows, as stored ones have). */
function summaryOf(ticker: string, date: string, premium: number): SessionSummary {
  const curve = new Float64Array(391);
  curve.fill(premium, minute);
  const rows = Array.from({ length: 20 }, (_, i) => ({ symbol: `${ticker}-${i}`, volume: i, premium: i * 10 }));
  return { ticker, date, premiumByMinute: curve, rows } as unknown as SessionSummary;
}

/** A summary this process built (held in the flow state's memo). */
function putSummary(ticker: string, date: string, premium: number): void {
  state.summaries.set(`summary|${ticker}|${date}|${sessionBounds(date).closeMs}`, Promise.resolve(summaryOf(ticker, date, premium)));
}

const overview = async (harness = h) => {
  const res = await harness.get("/v1/market/overview?tickers=AAPL,SPY");
  expect(res.status).toBe(200);
  return body(res);
};

describe("/v1/market/overview premiumRvol", () => {
  it("is null, not 0, with no baseline built; null with part of it; the whole baseline's ratio once complete", async () => {
    expect(baselineDates.at(-1)).toBe(addTradingDays(TODAY, -PREMIUM_RVOL_LOOKBACK_SESSIONS));
    expect(previousTradingDay(TODAY)).toBe(baselineDates[0]);
    const none = await overview();
    expect(none.data.premiumRvol).toBeNull();
    expect(none.meta).toMatchObject({ baselineSessions: 0, baselineSessionsWanted: 20 });

    // Half the sessions built (both tickers), and the other half for one ticker only.
    baselineDates.forEach((d, i) => {
      putSummary("AAPL", d, 1_000 * (i + 1));
      if (i < 10) putSummary("SPY", d, 500);
    });
    const part = await overview();
    expect(part.data.premiumRvol).toBeNull();
    expect(part.meta).toMatchObject({ baselineSessions: 10, baselineSessionsWanted: 20 });
    expect(part.data.totalPremium).toBe(none.data.totalPremium);

    baselineDates.forEach((d, i) => {
      if (i >= 10) putSummary("SPY", d, 500);
    });
    const full = await overview();
    // mean over the 20 sessions of AAPL's 1,000 x (i + 1) plus SPY's 500: 10,500 + 500.
    const mean = (1_000 * (20 * 21)) / 2 / 20 + 500;
    expect(full.meta).toMatchObject({ baselineSessions: 20, baselineSessionsWanted: 20 });
    expect(full.data.totalPremium).toBeGreaterThan(0);
    expect(full.data.premiumRvol).toBeCloseTo(full.data.totalPremium / mean, 12);
  });

  it("from the daily store: each stored summary decoded in a compute worker for its premium column, the same ratio; a body that does not decode leaves the baseline incomplete", async () => {
    const t = tempDir();
    const store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
    // At this process's priority: the test checks what is decoded, and a niced worker can starve behind busy test workers.
    const pool = createComputePool({ source: { kind: "simulated", seed: 42 } }, 1, "compute", getPriority());
    try {
      baselineDates.forEach((d, i) => {
        store.put(FLOW_SUMMARY, "AAPL", d, summaryOf("AAPL", d, 1_000 * (i + 1)));
        store.put(FLOW_SUMMARY, "SPY", d, summaryOf("SPY", d, 500));
      });
      const stored = flowHarness({ universe: ["AAPL", "SPY"], dailyStore: store, computePool: pool });
      const before = pool.stats().completed;
      const full = await overview(stored);
      expect(full.meta).toMatchObject({ baselineSessions: 20, baselineSessionsWanted: 20 });
      const mean = (1_000 * (20 * 21)) / 2 / 20 + 500;
      expect(full.data.premiumRvol).toBeCloseTo(full.data.totalPremium / mean, 12);
      // One task per session decoded the bodies; the flow state keeps the columns, not the summaries.
      expect(pool.stats().completed - before).toBeGreaterThanOrEqual(20);
      const storedState = moduleStateOf(stored.app.services, flowModule) as FlowState;
      expect(heldSummaryKeys(storedState)).toEqual([]);
      const afterFirst = pool.stats().completed;
      expect((await overview(stored)).data.premiumRvol).toBe(full.data.premiumRvol);
      // The second call decodes no session again (only today's summaries may go to the pool).
      expect(pool.stats().completed - afterFirst).toBeLessThan(20);
      await stored.app.shutdown(100);

      // A damaged body of one stored session: that session is not built, so neither is the baseline.
      store.putEncoded!(FLOW_SUMMARY, "SPY", baselineDates[3], new Uint8Array([1, 2, 3]));
      const damaged = flowHarness({ universe: ["AAPL", "SPY"], dailyStore: store, computePool: pool });
      const part = await overview(damaged);
      expect(part.meta).toMatchObject({ baselineSessions: 19, baselineSessionsWanted: 20 });
      expect(part.data.premiumRvol).toBeNull();
      await damaged.app.shutdown(100);
    } finally {
      await pool.close();
      store.close();
      t.remove();
    }
  }, 120_000);
});

/** The finished-session summaries a flow state holds. */
function heldSummaryKeys(s: FlowState): string[] {
  const keys: string[] = [];
  for (const d of baselineDates) for (const t of ["AAPL", "SPY"]) if (s.summaries.get(`summary|${t}|${d}|${sessionBounds(d).closeMs}`)) keys.push(`${t}|${d}`);
  return keys;
}
