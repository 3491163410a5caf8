// The fill horizon: the default keeps the flow endpoints' default windows warm, a pass fills
// exactly the planned sessions (each kind newest first) and nothing older, and `all` goes back
// to the first session. Runs `runFill` in this thread over a recording producer: what is under
// test is which rows are computed, in which order, and what the store then holds.
import { afterEach, describe, expect, it } from "vitest";
import { HISTORICAL_COMPARE_PARAMS, PREMIUM_RVOL_LOOKBACK_SESSIONS } from "../../../lib/flow";
import { previousTradingDay, tradingDaysBetween } from "../../../lib/time";
import {
  dailyDbPath,
  DEFAULT_FLOW_FILL_SESSIONS,
  fillPlan,
  FLOW_SUMMARY,
  marketIdentity,
  openDailyStore,
  runFill,
  VOL_READING,
  type DailyKind,
  type FillScope,
} from "../../../server/daily-store";
import { surveyFill } from "../../../server/daily-store/survey";
import { flowModule } from "../../../server/modules/flow";
import { metaModule } from "../../../server/modules/meta";
import { makeHarness } from "../_harness";
import { LAST_SESSION, NOW_MS, tempDir } from "./_store-fixtures";
import { simulatedMarketAt } from "../../_helpers/simulated-market";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** `n` sessions ending at LAST_SESSION, newest first (built independently of the plan's helper). */
function lastSessions(n: number): string[] {
  const out = [LAST_SESSION];
  while (out.length < n) out.push(previousTradingDay(out[out.length - 1]));
  return out;
}

function fresh() {
  const t = tempDir();
  const store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
  cleanups.push(() => {
    store.close();
    return t.remove();
  });
  return store;
}

/** A producer that records each (kind, symbol, session) it is asked for and returns it as the value. */
function recorder() {
  const calls: string[] = [];
  const produce = async (kind: DailyKind, symbol: string, session: string) => {
    calls.push(`${kind}|${symbol}|${session}`);
    return { kind, symbol, session };
  };
  return { calls, produce };
}

describe("default horizon", () => {
  it("is one session more than the longest default 20-session baseline read from stored summaries", () => {
    expect(PREMIUM_RVOL_LOOKBACK_SESSIONS).toBe(20);
    expect(HISTORICAL_COMPARE_PARAMS.lookbackSessions).toBe(20);
    expect(DEFAULT_FLOW_FILL_SESSIONS).toBe(21);
  });

  it("covers the overview's premium-RVOL baseline both during the session and after the close", () => {
    const scope: FillScope = { flowTickers: ["A"], volSymbols: [], volSessions: 0, flowFrom: "2023-03-28", flowSessions: DEFAULT_FLOW_FILL_SESSIONS };
    for (const now of [NOW_MS, Date.parse("2024-03-06T21:30:00Z")]) {
      const filled = new Set(fillPlan(scope, now).map((s) => s.session));
      // The baseline of the current ET date: the 20 sessions before it.
      let d = "2024-03-06";
      for (let i = 0; i < PREMIUM_RVOL_LOOKBACK_SESSIONS; i++) {
        d = previousTradingDay(d);
        expect(filled.has(d)).toBe(true);
      }
    }
  });
});

describe("a pass over a tiny horizon", () => {
  it("computes exactly the last N flow sessions and the vol window, each kind newest first, and nothing older", async () => {
    const store = fresh();
    const { calls, produce } = recorder();
    const scope: FillScope = { flowTickers: ["KO", "T"], volSymbols: ["SPY"], volSessions: 2, flowFrom: "2023-03-28", flowSessions: 4 };
    const computed = await runFill({ store, produce, scope, nowMs: NOW_MS });
    const flowDates = lastSessions(4);
    const volDates = lastSessions(3);
    expect(computed).toBe(4 * 2 + 3);
    // Order: each kind's sessions strictly newest first.
    for (const kind of [FLOW_SUMMARY, VOL_READING]) {
      const sessions = calls.filter((c) => c.startsWith(kind + "|")).map((c) => c.split("|")[2]);
      const distinct = sessions.filter((s, i) => sessions.indexOf(s) === i);
      expect(distinct).toEqual(kind === FLOW_SUMMARY ? flowDates : volDates);
    }
    // The vol window first (the last finished session's readings first), then the flow sessions.
    expect(calls.slice(0, 3).map((c) => c.split("|")[0])).toEqual([VOL_READING, VOL_READING, VOL_READING]);
    expect(calls[0].endsWith(LAST_SESSION)).toBe(true);
    expect(calls[3]).toBe(`${FLOW_SUMMARY}|KO|${LAST_SESSION}`);
    // The store: exactly those rows, and the value each was computed as.
    expect(store.count(FLOW_SUMMARY)).toBe(8);
    expect(store.count(VOL_READING)).toBe(3);
    expect([...store.range(FLOW_SUMMARY, "KO", "2000-01-01", "2100-01-01").keys()].sort()).toEqual([...flowDates].sort());
    expect(store.get(FLOW_SUMMARY, "T", flowDates[3])).toEqual({ kind: FLOW_SUMMARY, symbol: "T", session: flowDates[3] });
    expect(store.symbolsAt(FLOW_SUMMARY, previousTradingDay(flowDates[3])).size).toBe(0);
    // A survey of the same plan finds it complete; a wider horizon is not.
    expect(surveyFill(store, scope, NOW_MS)[FLOW_SUMMARY]).toEqual({ done: 8, total: 8, finished: true });
    expect(surveyFill(store, { ...scope, flowSessions: 5 }, NOW_MS)[FLOW_SUMMARY]).toEqual({ done: 8, total: 10, finished: false });
    // Widening the horizon computes only the new, older session.
    const again = recorder();
    expect(await runFill({ store, produce: again.produce, scope: { ...scope, flowSessions: 5 }, nowMs: NOW_MS })).toBe(2);
    expect(again.calls).toEqual([`${FLOW_SUMMARY}|KO|${lastSessions(5)[4]}`, `${FLOW_SUMMARY}|T|${lastSessions(5)[4]}`]);
  });

  it("0 flow sessions fills only the vol window; `all` (Infinity) goes back to flowFrom and no further", () => {
    const base: FillScope = { flowTickers: ["KO"], volSymbols: ["SPY"], volSessions: 1, flowFrom: "2024-02-26" };
    expect(fillPlan({ ...base, flowSessions: 0 }, NOW_MS).map((s) => s.kind)).toEqual([VOL_READING, VOL_READING]);
    const all = fillPlan({ ...base, flowSessions: Number.POSITIVE_INFINITY }, NOW_MS)
      .filter((s) => s.kind === FLOW_SUMMARY)
      .map((s) => s.session);
    expect(all).toEqual(tradingDaysBetween("2024-02-26", LAST_SESSION).reverse());
  });

  it("a stop between rows ends the pass; the next pass resumes with the rows left", async () => {
    const store = fresh();
    const { calls, produce } = recorder();
    const scope: FillScope = { flowTickers: ["KO", "T", "F"], volSymbols: [], volSessions: 0, flowFrom: "2023-03-28", flowSessions: 2 };
    const first = await runFill({ store, produce, scope, nowMs: NOW_MS, stopped: () => calls.length >= 4 });
    expect(first).toBe(4);
    const rest = recorder();
    expect(await runFill({ store, produce: rest.produce, scope, nowMs: NOW_MS })).toBe(2);
    expect(store.count(FLOW_SUMMARY)).toBe(6);
  });
});

describe("outside the horizon", () => {
  it("a session the fill does not keep is still answered, computed on demand and then stored", async () => {
    const store = fresh();
    const old = "2023-12-01"; // ~65 sessions before the last finished one: far outside the default 21
    expect(
      fillPlan({ flowTickers: ["KO"], volSymbols: [], volSessions: 0, flowFrom: "2023-03-28", flowSessions: DEFAULT_FLOW_FILL_SESSIONS }, NOW_MS).some(
        (s) => s.session === old,
      ),
    ).toBe(false);
    const h = makeHarness({
      market: simulatedMarketAt(42, NOW_MS),
      nowMs: NOW_MS,
      credits: 1000,
      modules: [metaModule, flowModule],
      dailyStore: store,
    });
    const res = await h.get(`/v1/contract/top/daily?date=${old}&ticker=KO&limit=5`);
    expect(res.status).toBe(200);
    expect((await res.json()).data.length).toBeGreaterThan(0);
    expect(store.symbolsAt(FLOW_SUMMARY, old)).toEqual(new Set(["KO"]));
  }, 60_000);
});
