// /v1/market/overview's premiumRvol: from the whole trailing 20-session baseline or null, never
// from the part of it this process happens to have built (the same request gave 0, 0.83, 0.69).
import { describe, expect, it } from "vitest";
import { PREMIUM_RVOL_LOOKBACK_SESSIONS } from "../../../../lib/flow";
import { addTradingDays, previousTradingDay, sessionBounds } from "../../../../lib/time";
import { moduleStateOf } from "../../../../server/modules";
import { flowModule } from "../../../../server/modules/flow";
import type { FlowState } from "../../../../server/modules/flow/flow-route";
import type { SessionSummary } from "../../../../server/modules/flow/sessions/session-summary";
import { body, flowHarness, NOW_MS, TODAY } from "./_flow-harness";

const h = flowHarness({ universe: ["AAPL", "SPY"] });
const state = moduleStateOf(h.app.services, flowModule) as FlowState;
const baselineDates = Array.from({ length: PREMIUM_RVOL_LOOKBACK_SESSIONS }, (_, i) => addTradingDays(TODAY, -(i + 1)));
const minute = Math.floor((NOW_MS - sessionBounds(TODAY).openMs) / 60_000);

/** A built summary of a baseline session whose premium through `minute` is `premium`. */
function putSummary(ticker: string, date: string, premium: number): void {
  const curve = new Float64Array(391);
  curve.fill(premium, minute);
  const summary = { ticker, date, premiumByMinute: curve } as unknown as SessionSummary;
  state.summaries.set(`summary|${ticker}|${date}|${sessionBounds(date).closeMs}`, Promise.resolve(summary));
}

const overview = async () => {
  const res = await h.get("/v1/market/overview?tickers=AAPL,SPY");
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
});
