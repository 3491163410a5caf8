// The market-wide session table (daily-store kind `market-session`): the first request that reads
// every universe ticker's summaries of a finished session stores it; a fresh app on the same store
// answers /v1/underlying/top/weekly and /v1/market/tide from it without reading a print or a
// summary, byte for byte as the compute path answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketData } from "../../../../lib/market/market-data";
import { dailyDbPath, FLOW_SUMMARY, marketIdentity, openDailyStore, type DailyDataStore } from "../../../../server/daily-store";
import { dailyProducer } from "../../../../server/daily-store/compute";
import { MARKET_SESSION, MARKET_SYMBOL } from "../../../../server/daily-store/kinds";
import { fillPlan } from "../../../../server/daily-store/plan";
import { fillScopeOf } from "../../../../server/daily-store/scope";
import { flowModule } from "../../../../server/modules/flow";
import { metaModule } from "../../../../server/modules/meta";
import { trailingSessions } from "../../../../server/modules/flow/sessions/market-scan";
import { makeHarness } from "../../_harness";
import { tempDir } from "../../daily-store/_store-fixtures";
import { narrowedMarket, NOW_MS, PRIOR, TODAY } from "./_flow-harness";

const UNIVERSE = ["TXN", "XLRE", "XLU", "LMT"];
const identity = marketIdentity({ kind: "simulated", seed: 7 });

/** The simulated market limited to `UNIVERSE`, counting print reads. */
function market(): { market: MarketData; prints: { n: number } } {
  const prints = { n: 0 };
  return { market: narrowedMarket(UNIVERSE, () => void prints.n++), prints };
}

/** `store` with its reads of flow summaries counted. */
function countingStore(store: DailyDataStore): { store: DailyDataStore; summaryReads: { n: number } } {
  const summaryReads = { n: 0 };
  const wrapped = new Proxy(store, {
    get(target, key) {
      const v = Reflect.get(target, key);
      if (key === "get") {
        return (kind: string, ...rest: unknown[]) => {
          if (kind === FLOW_SUMMARY) summaryReads.n++;
          return (v as (...a: unknown[]) => unknown).call(target, kind, ...rest);
        };
      }
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { store: wrapped, summaryReads };
}

const app = (store: DailyDataStore | undefined, plan: "top" | "index-etf" = "top") => {
  const m = market();
  return { h: makeHarness({ market: m.market, nowMs: NOW_MS, credits: 100_000, plan, modules: [metaModule, flowModule], dailyStore: store }), prints: m.prints };
};

const WEEKLY = [
  `/v1/underlying/top/weekly?date=${PRIOR}`,
  `/v1/underlying/top/weekly?date=${PRIOR}&order_by=net_premium&order=asc&limit=3`,
  `/v1/underlying/top/weekly?date=${PRIOR}&order_by=call_put_ratio&min_volume=10`,
];
const TIDE = [
  `/v1/market/tide?date=${PRIOR}&interval=5D&bucket=5min`,
  `/v1/market/tide?date=${PRIOR}&interval=5D&bucket=1min&exclude_multi_leg=true`,
  `/v1/market/tide?date=${PRIOR}&interval=3D&bucket=30min&exclude_deep_itm=true`,
  `/v1/market/tide?date=${PRIOR}&interval=5D&bucket=1d&exclude_multi_leg=true&exclude_deep_itm=true`,
  `/v1/market/tide?date=${PRIOR}&interval=5D&bucket=1w`,
];
const QUERIES = [...WEEKLY, ...TIDE];
const WEEK = trailingSessions(PRIOR, 5);

async function dataOf(h: ReturnType<typeof app>["h"], path: string): Promise<string> {
  const res = await h.get(path);
  expect(res.status, path).toBe(200);
  return JSON.stringify((await res.json()).data);
}

describe("market-session table", () => {
  const t = tempDir();
  let store: DailyDataStore;
  /** Each query's data computed from the session summaries (the compute path). */
  const computed = new Map<string, string>();

  beforeAll(async () => {
    // The first app computes every answer from the summaries (and writes the tables as it goes).
    store = openDailyStore(dailyDbPath(t.dir), identity);
    const first = app(store).h;
    for (const q of QUERIES) computed.set(q, await dataOf(first, q));
  }, 180_000);
  afterAll(() => {
    store.close();
    t.remove();
  });

  it("the first market-wide requests store one table per finished session of the window (symbol *)", () => {
    expect(store.count(MARKET_SESSION)).toBe(WEEK.length);
    for (const d of WEEK) expect(store.symbolsAt(MARKET_SESSION, d)).toEqual(new Set([MARKET_SYMBOL]));
    const weekly = JSON.parse(computed.get(WEEKLY[0])!);
    expect(weekly.map((r: { ticker: string }) => r.ticker).sort()).toEqual([...UNIVERSE].sort());
    const tide = JSON.parse(computed.get(TIDE[0])!);
    expect(tide.bars.some((b: { ncp: number }) => b.ncp !== 0)).toBe(true);
  });

  it("a fresh app on the store answers from the tables: no print, no summary read, the compute path's exact bytes", async () => {
    const counted = countingStore(openDailyStore(dailyDbPath(t.dir), identity));
    const { h, prints } = app(counted.store);
    for (const q of QUERIES) expect(await dataOf(h, q), q).toBe(computed.get(q));
    expect(prints.n).toBe(0);
    expect(counted.summaryReads.n).toBe(0);
  }, 60_000);

  it("a plan limited to some tickers: top weekly from the table's rows, the tide from the summaries; both equal to computing them", async () => {
    const viaTable = app(openDailyStore(dailyDbPath(t.dir), identity), "index-etf");
    const computedPlan = app(undefined, "index-etf");
    for (const q of [WEEKLY[0], TIDE[0]]) {
      const a = await dataOf(viaTable.h, q);
      expect(a).toBe(await dataOf(computedPlan.h, q));
      if (q === WEEKLY[0])
        expect(
          JSON.parse(a)
            .map((r: { ticker: string }) => r.ticker)
            .sort(),
        ).toEqual(["XLRE", "XLU"]);
    }
    expect(viaTable.prints.n).toBe(0); // the tide's summaries are in the store
  }, 120_000);

  it("today's session (not finished) never writes a table", async () => {
    const { h } = app(openDailyStore(dailyDbPath(t.dir), identity));
    await dataOf(h, `/v1/market/tide?date=${TODAY}&interval=1D&bucket=5min`);
    await dataOf(h, `/v1/underlying/top/weekly?date=${TODAY}`);
    expect(store.symbolsAt(MARKET_SESSION, TODAY).size).toBe(0);
  }, 60_000);

  it("the fill worker plans the table after each session's summaries over the whole universe, and its producer builds the stored table", async () => {
    const m = market().market;
    const scope = await fillScopeOf(m, { volSessions: 0, flowFrom: PRIOR, flowSessions: 1 });
    const kinds = fillPlan(scope, NOW_MS)
      .filter((s) => s.session === PRIOR)
      .map((s) => s.kind);
    expect(kinds.indexOf(MARKET_SESSION)).toBeGreaterThan(kinds.indexOf(FLOW_SUMMARY));
    const narrowed = await fillScopeOf(m, { symbols: ["TXN"], volSessions: 0, flowFrom: PRIOR, flowSessions: 1 });
    expect(fillPlan(narrowed, NOW_MS).some((s) => s.kind === MARKET_SESSION)).toBe(false);
    const built = await dailyProducer(m, store)(MARKET_SESSION, MARKET_SYMBOL, PRIOR);
    expect(built).toEqual(store.get(MARKET_SESSION, MARKET_SYMBOL, PRIOR));
  }, 60_000);
});
