// The background fill: a worker thread fills the planned sessions into the store, and a second
// app on the same data directory serves them without computing anything (no tape, no board).
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../../lib/market/clock";
import {
  dailyDbPath,
  fillPlan,
  FLOW_SUMMARY,
  lastFinishedSession,
  marketIdentity,
  openDailyStore,
  startDailyFill,
  VOL_READING,
  type DailyDataStore,
} from "../../../server/daily-store";
import { moduleStateOf } from "../../../server/modules";
import { flowModule } from "../../../server/modules/flow";
import { metaModule } from "../../../server/modules/meta";
import { createVolModule } from "../../../server/modules/vol";
import { makeHarness } from "../_harness";
import { countingMarket, LAST_SESSION, NOW_MS, tempDir } from "./_store-fixtures";
import { simulatedMarketAt } from "../../_helpers/simulated-market";

const identity = marketIdentity({ kind: "simulated", seed: 42 });
const SCOPE = { symbols: ["KO"], volSessions: 2, flowFrom: LAST_SESSION };

describe("fill plan", () => {
  it("starts with the vol window newest first, then the last finished session's flow, then flow backwards", () => {
    expect(lastFinishedSession(NOW_MS)).toBe("2024-03-05");
    expect(lastFinishedSession(Date.parse("2024-03-06T21:00:00Z"))).toBe("2024-03-06"); // 16:00 ET close passed
    expect(lastFinishedSession(Date.parse("2024-03-09T15:00:00Z"))).toBe("2024-03-08"); // Saturday
    const steps = fillPlan({ flowTickers: ["A"], volSymbols: ["B"], volSessions: 2, flowFrom: "2024-02-29" }, NOW_MS);
    expect(steps.map((s) => `${s.kind}:${s.session}`)).toEqual([
      "vol-reading:2024-03-05",
      "vol-reading:2024-03-04",
      "vol-reading:2024-03-01",
      "flow-summary:2024-03-05",
      "flow-summary:2024-03-04",
      "flow-summary:2024-03-01",
      "flow-summary:2024-02-29",
    ]);
  });
});

describe("worker fill and a second app", () => {
  const t = tempDir();
  let store: DailyDataStore;
  let computed = 0;
  const logs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    store = openDailyStore(dailyDbPath(t.dir), identity);
    const filler = startDailyFill({ store, source: { kind: "simulated", seed: 42 }, clock: fixedClock(NOW_MS), ...SCOPE, log: (l) => logs.push(l) });
    computed = await filler.idle();
    await filler.close();
  }, 120_000);
  afterAll(() => {
    store.close();
    t.remove();
  });

  it("computes every planned row once and reports progress", async () => {
    // Flow: KO at 2024-03-05; vol: KO at the 3 sessions of the window (2 + the last finished).
    expect(computed).toBe(4);
    expect(store.count(FLOW_SUMMARY)).toBe(1);
    expect(store.count(VOL_READING)).toBe(3);
    const p = store.fill.snapshot();
    expect(p.kinds[VOL_READING]).toEqual({ done: 3, total: 3, finished: true });
    expect(p.kinds[FLOW_SUMMARY]).toEqual({ done: 1, total: 1, finished: true });
    expect(logs.map((l) => l.msg)).toContain("daily_fill_idle");
    // A second pass over a filled store computes nothing.
    const again = startDailyFill({ store, source: { kind: "simulated", seed: 42 }, clock: fixedClock(NOW_MS), ...SCOPE });
    expect(await again.idle()).toBe(0);
    await again.close();
  }, 60_000);

  it("a second app on the same data directory serves top contracts from the store without a tape", async () => {
    const second = openDailyStore(dailyDbPath(t.dir), identity);
    try {
      const { market, calls } = countingMarket(simulatedMarketAt(42, NOW_MS));
      const h = makeHarness({ market, nowMs: NOW_MS, credits: 1000, modules: [metaModule, flowModule], dailyStore: second });
      const res = await h.get(`/v1/contract/top/daily?date=${LAST_SESSION}&ticker=KO&limit=50`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(calls.optionPrints).toBe(0);
      expect(calls.chain).toBe(0);
      expect(second.stats().hits).toBeGreaterThanOrEqual(1);
      // The same answer as an app that computes the session from the tape.
      const plain = makeHarness({
        market: simulatedMarketAt(42, NOW_MS),
        nowMs: NOW_MS,
        credits: 1000,
        modules: [metaModule, flowModule],
      });
      const expected = await (await plain.get(`/v1/contract/top/daily?date=${LAST_SESSION}&ticker=KO&limit=50`)).json();
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data).toEqual(expected.data);
    } finally {
      second.close();
    }
  }, 60_000);

  it("a second app's vol history comes from the store without a closing board", async () => {
    const second = openDailyStore(dailyDbPath(t.dir), identity);
    try {
      const { market, calls } = countingMarket(simulatedMarketAt(42, NOW_MS));
      const vol = createVolModule({ historySessions: 2, symbols: ["KO"] });
      const h = makeHarness({ market, nowMs: NOW_MS, modules: [metaModule, vol], dailyStore: second });
      const state = moduleStateOf(h.app.services, vol);
      const history = await state.daily.before("KO", "2024-03-06", 2);
      expect(calls.chain).toBe(0);
      expect(history.map((r) => r.date)).toEqual(["2024-03-04", "2024-03-05"]);
      const fresh = createVolModule({ historySessions: 2, symbols: ["KO"] });
      const p = makeHarness({ market: simulatedMarketAt(42, NOW_MS), nowMs: NOW_MS, modules: [metaModule, fresh] });
      expect(isDeepStrictEqual(history, await moduleStateOf(p.app.services, fresh).daily.before("KO", "2024-03-06", 2))).toBe(true);
    } finally {
      second.close();
    }
  }, 60_000);
});

describe("fill threads", () => {
  const one = tempDir();
  const two = tempDir();
  afterAll(() => {
    one.remove();
    two.remove();
  });

  it("a fill on two threads stores exactly the rows of a fill on one", async () => {
    const scope = { symbols: ["KO", "PEP"], volSessions: 2, flowFrom: LAST_SESSION };
    const fill = async (dir: string, threads: number) => {
      const store = openDailyStore(dailyDbPath(dir), identity);
      const filler = startDailyFill({ store, source: { kind: "simulated", seed: 42 }, clock: fixedClock(NOW_MS), ...scope, threads });
      const computed = await filler.idle();
      await filler.close();
      return { store, computed };
    };
    const [a, b] = [await fill(one.dir, 1), await fill(two.dir, 2)];
    try {
      // Flow: 2 tickers at the last session; vol: 2 symbols over 3 sessions.
      expect(a.computed).toBe(8);
      expect(b.computed).toBe(8);
      for (const kind of [FLOW_SUMMARY, VOL_READING] as const) {
        for (const symbol of scope.symbols) {
          const rows = b.store.range(kind, symbol, "2024-02-01", LAST_SESSION);
          expect(rows.size, `${kind} ${symbol}`).toBe(kind === FLOW_SUMMARY ? 1 : 3);
          expect(isDeepStrictEqual(rows, a.store.range(kind, symbol, "2024-02-01", LAST_SESSION)), `${kind} ${symbol}`).toBe(true);
        }
      }
    } finally {
      a.store.close();
      b.store.close();
    }
  }, 120_000);
});

describe("serve option", () => {
  it("the fill is on by default; --no-daily-fill and OPTIONSCOPE_DAILY_FILL=off turn it off", async () => {
    const { resolveServeConfig } = await import("../../../server/config");
    expect(resolveServeConfig([], {}).dailyFill).toBe(true);
    expect(resolveServeConfig(["--no-daily-fill"], {}).dailyFill).toBe(false);
    expect(resolveServeConfig([], { OPTIONSCOPE_DAILY_FILL: "off" }).dailyFill).toBe(false);
  });
});
