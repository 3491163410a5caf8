// The market-wide contract table of a finished session (daily-store kind `contract-top`): the
// first market-wide request computes the summaries and stores the table; a second app on the same
// store answers from the table without reading a print, with the same bytes as the compute path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketData } from "../../../../lib/market/market-data";
import { dailyDbPath, FLOW_SUMMARY, marketIdentity, openDailyStore, type DailyDataStore } from "../../../../server/daily-store";
import { CONTRACT_TOP, MARKET_SYMBOL } from "../../../../server/daily-store/kinds";
import { dailyProducer } from "../../../../server/daily-store/compute";
import { flowModule } from "../../../../server/modules/flow";
import { metaModule } from "../../../../server/modules/meta";
import { makeHarness, type Harness } from "../../_harness";
import { tempDir } from "../../daily-store/_store-fixtures";
import { narrowedMarket, NOW_MS, PRIOR, TODAY } from "./_flow-harness";

const UNIVERSE = ["TXN", "XLRE", "XLU", "LMT"];
const identity = marketIdentity({ kind: "simulated", seed: 7 });

/** The simulated market limited to `UNIVERSE`, counting print reads. */
function market(): { market: MarketData; prints: { n: number } } {
  const prints = { n: 0 };
  return { market: narrowedMarket(UNIVERSE, () => void prints.n++), prints };
}

const app = (store: DailyDataStore | undefined, plan: "top" | "index-etf" = "top") => {
  const m = market();
  return { h: makeHarness({ market: m.market, nowMs: NOW_MS, credits: 10_000, plan, modules: [metaModule, flowModule], dailyStore: store }), prints: m.prints };
};

const QUERIES = [
  "",
  "&limit=7&order_by=volume&order=asc",
  "&order_by=oi&right=P&min_volume=2",
  "&order_by=iv&min_dte=1&max_dte=30&only_sweeps=true",
  "&exclude_multi_leg=true&min_premium=1000&limit=500",
  "&only_multi_leg=true&min_strike=50&max_strike=400",
];

describe("contract-top table", () => {
  const t = tempDir();
  let store: DailyDataStore;
  let first: Harness;
  const computed = new Map<string, string>();

  beforeAll(async () => {
    store = openDailyStore(dailyDbPath(t.dir), identity);
    first = app(store).h;
    for (const q of QUERIES) {
      const res = await first.get(`/v1/contract/top/daily?date=${PRIOR}${q}`);
      expect(res.status).toBe(200);
      computed.set(q, JSON.stringify((await res.json()).data));
    }
  }, 120_000);
  afterAll(() => {
    store.close();
    t.remove();
  });

  it("the first market-wide request of a finished session stores the table (one row, symbol *)", () => {
    expect(store.count(FLOW_SUMMARY)).toBe(UNIVERSE.length);
    expect(store.count(CONTRACT_TOP)).toBe(1);
    expect(store.symbolsAt(CONTRACT_TOP, PRIOR)).toEqual(new Set([MARKET_SYMBOL]));
    expect(JSON.parse(computed.get("")!).length).toBe(100);
  });

  it("a cold app on the store answers from the table, reading no print, with the compute path's exact data", async () => {
    const { h, prints } = app(openDailyStore(dailyDbPath(t.dir), identity));
    for (const q of QUERIES) {
      const res = await h.get(`/v1/contract/top/daily?date=${PRIOR}${q}`);
      expect(res.status).toBe(200);
      expect(JSON.stringify((await res.json()).data)).toBe(computed.get(q));
    }
    expect(prints.n).toBe(0);
  }, 60_000);

  it("a plan limited to some tickers reads the table filtered to them, equal to computing them", async () => {
    const { h, prints } = app(openDailyStore(dailyDbPath(t.dir), identity), "index-etf");
    const viaTable = (await (await h.get(`/v1/contract/top/daily?date=${PRIOR}&limit=500`)).json()).data;
    expect(prints.n).toBe(0);
    const tickers = new Set(viaTable.map((r: { ticker: string }) => r.ticker));
    expect([...tickers].sort()).toEqual(["XLRE", "XLU"]);
    const computedPlan = (await (await app(undefined, "index-etf").h.get(`/v1/contract/top/daily?date=${PRIOR}&limit=500`)).json()).data;
    expect(viaTable).toEqual(computedPlan);
  }, 60_000);

  it("today's session (not finished) never uses or writes a table", async () => {
    const { h, prints } = app(openDailyStore(dailyDbPath(t.dir), identity));
    const res = await h.get(`/v1/contract/top/daily?date=${TODAY}&limit=5`);
    expect(res.status).toBe(200);
    expect(prints.n).toBeGreaterThan(0);
    expect(store.symbolsAt(CONTRACT_TOP, TODAY).size).toBe(0);
  }, 60_000);

  it("/v1/contract/top/weekly market-wide reads each session's table: a cold app gives the same data with no print read", async () => {
    const q = `/v1/contract/top/weekly?date=${PRIOR}&limit=50&order_by=volume`;
    const computedWeek = await (await first.get(q)).json();
    expect(store.count(CONTRACT_TOP)).toBe(5); // the week's five finished sessions
    const { h, prints } = app(openDailyStore(dailyDbPath(t.dir), identity));
    const viaTables = await (await h.get(q)).json();
    expect(prints.n).toBe(0);
    expect(viaTables.data.length).toBe(50);
    expect(viaTables.data).toEqual(computedWeek.data);
  }, 120_000);

  it("market-wide unusual volume and unusual OI read the tables: equal to an app reading only the summaries", async () => {
    const tables = app(openDailyStore(dailyDbPath(t.dir), identity));
    // The same store with the contract-top kind hidden: the routes read the stored summaries.
    const raw = openDailyStore(dailyDbPath(t.dir), identity);
    const summariesOnly = {
      ...raw,
      get: <T>(kind: typeof CONTRACT_TOP | typeof FLOW_SUMMARY, symbol: string, session: string) =>
        kind === CONTRACT_TOP ? undefined : raw.get<T>(kind, symbol, session),
      symbolsAt: (kind: typeof CONTRACT_TOP | typeof FLOW_SUMMARY, session: string) => (kind === CONTRACT_TOP ? new Set([MARKET_SYMBOL]) : raw.symbolsAt(kind, session)),
    } as unknown as DailyDataStore;
    const plain = app(summariesOnly);
    for (const q of [`/v1/contract/unusual-volume?date=${PRIOR}&avg_period=4d&min_rvol=1&min_avg_volume=1`, `/v1/contract/unusual-oi?date=${PRIOR}&min_oi_change=1`]) {
      const a = await (await tables.h.get(q)).json();
      const b = await (await plain.h.get(q)).json();
      expect(a.data.length).toBeGreaterThan(0);
      expect(a.data).toEqual(b.data);
    }
    expect(tables.prints.n).toBe(0);
    expect(plain.prints.n).toBe(0);
  }, 60_000);

  it("the fill worker's producer builds the same table from the stored summaries", async () => {
    const produce = dailyProducer(market().market, store);
    const built = await produce(CONTRACT_TOP, MARKET_SYMBOL, PRIOR);
    expect(built).toEqual(store.get(CONTRACT_TOP, MARKET_SYMBOL, PRIOR));
  }, 60_000);
});
