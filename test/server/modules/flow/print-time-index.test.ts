// The print-time index (daily-store kind `print-index`): for a finished session it names the
// tickers printing at each millisecond, so /v1/score/{trade_id} by a time form reads only those
// tickers' prints of that millisecond, with the same answer as the scan of every ticker.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketData, OptionPrint } from "../../../../lib/market/market-data";
import { sessionBounds } from "../../../../lib/time";
import { dailyDbPath, marketIdentity, openDailyStore, type DailyDataStore } from "../../../../server/daily-store";
import { dailyProducer } from "../../../../server/daily-store/compute";
import { FLOW_SUMMARY, MARKET_SYMBOL, PRINT_INDEX } from "../../../../server/daily-store/kinds";
import { fillPlan } from "../../../../server/daily-store/plan";
import { fillScopeOf } from "../../../../server/daily-store/scope";
import { flowModule } from "../../../../server/modules/flow";
import { metaModule } from "../../../../server/modules/meta";
import { printTimeIndex, type PrintTimeIndex } from "../../../../server/modules/flow/sessions/print-time-index";
import { makeHarness } from "../../_harness";
import { tempDir } from "../../daily-store/_store-fixtures";
import { narrowedMarket, NOW_MS, PRIOR, simMarket } from "./_flow-harness";

const UNIVERSE = ["XOM", "KO", "XLU", "SPY"];
const identity = marketIdentity({ kind: "simulated", seed: 7 });
const { openMs, closeMs } = sessionBounds(PRIOR);

/** The simulated market limited to `UNIVERSE`, counting one-millisecond print reads. */
function market(): { market: MarketData; oneMsReads: { n: number } } {
  const oneMsReads = { n: 0 };
  const count = (_ticker: string, fromMs: number, toMs: number) => void (toMs - fromMs === 1 && oneMsReads.n++);
  return { market: narrowedMarket(UNIVERSE, count), oneMsReads };
}

const app = (store: DailyDataStore | undefined) => {
  const m = market();
  return { h: makeHarness({ market: m.market, nowMs: NOW_MS, credits: 1_000, modules: [metaModule, flowModule], dailyStore: store }), reads: m.oneMsReads };
};

describe("print-time index", () => {
  const t = tempDir();
  let store: DailyDataStore;
  let order: string[];
  /** Every print of PRIOR by ticker (universe order). */
  const prints = new Map<string, readonly OptionPrint[]>();

  beforeAll(async () => {
    order = (await market().market.universe()).map((s) => s.ticker);
    for (const tk of order) prints.set(tk, await simMarket.optionPrints(tk, openMs, closeMs));
    store = openDailyStore(dailyDbPath(t.dir), identity);
    store.put(PRINT_INDEX, MARKET_SYMBOL, PRIOR, await dailyProducer(market().market, store)(PRINT_INDEX, MARKET_SYMBOL, PRIOR));
  }, 120_000);
  afterAll(() => {
    store.close();
    t.remove();
  });

  it("holds each (millisecond, ticker) with a print once, in time then universe order, and round-trips the store", async () => {
    const index = store.get<PrintTimeIndex>(PRINT_INDEX, MARKET_SYMBOL, PRIOR)!;
    expect(index.tickers).toEqual(order);
    const want: Array<[number, string]> = [];
    const seen = new Set<string>();
    for (const [tk, ps] of prints) {
      for (const p of ps) {
        if (seen.has(`${p.tsMs}|${tk}`)) continue;
        seen.add(`${p.tsMs}|${tk}`);
        want.push([p.tsMs, tk]);
      }
    }
    want.sort((a, b) => a[0] - b[0] || order.indexOf(a[1]) - order.indexOf(b[1]));
    let ms = openMs;
    const got = Array.from(index.gaps, (g, i) => {
      ms += g;
      return [ms, index.tickers[index.ticker[i]]];
    });
    expect(got).toEqual(want);
    expect(await printTimeIndex(PRIOR, order, async (tk) => prints.get(tk)!)).toEqual(index);
  });

  it("a time id of a finished session reads only the tickers printing in its millisecond; same answer as scanning every ticker", async () => {
    const indexed = app(openDailyStore(dailyDbPath(t.dir), identity));
    const scanned = app(undefined);
    const byMs = new Map<number, Set<string>>();
    for (const [tk, ps] of prints) for (const p of ps) byMs.set(p.tsMs, (byMs.get(p.tsMs) ?? new Set()).add(tk));
    // Prints of several tickers across the day, and one millisecond two tickers share when there is one.
    const picks = order.flatMap((tk) => [0.1, 0.5, 0.9].map((f) => prints.get(tk)![Math.floor(f * (prints.get(tk)!.length - 1))]));
    const shared = [...byMs].find(([, s]) => s.size > 1);
    if (shared) picks.push(...order.filter((tk) => shared[1].has(tk)).map((tk) => prints.get(tk)!.find((p) => p.tsMs === shared[0])!));
    for (const p of picks) {
      const id = `flow_${BigInt(p.tsNs).toString(16)}_0`;
      const before = indexed.reads.n;
      const a = await indexed.h.get(`/v1/score/${id}`);
      // The tickers printing in that millisecond, in universe order, up to the first with a print at the exact time.
      const atMs = order.filter((tk) => byMs.get(p.tsMs)!.has(tk));
      const firstHit = atMs.findIndex((tk) => prints.get(tk)!.some((x) => x.tsNs === p.tsNs));
      expect(indexed.reads.n - before, id).toBe(firstHit + 1);
      const b = await scanned.h.get(`/v1/score/${id}`);
      expect(a.status).toBe(b.status);
      expect(JSON.stringify((await a.json()).data), id).toBe(JSON.stringify((await b.json()).data));
    }
    // A millisecond with no print: 404 without a single read.
    let quiet = openMs + 3_600_000;
    while (byMs.has(quiet)) quiet++;
    const before = indexed.reads.n;
    const miss = await indexed.h.get(`/v1/score/${(BigInt(quiet) * 1_000_000n).toString()}`);
    expect(miss.status).toBe(404);
    expect(indexed.reads.n).toBe(before);
    expect((await scanned.h.get(`/v1/score/${(BigInt(quiet) * 1_000_000n).toString()}`)).status).toBe(404);
  }, 120_000);

  it("the fill plans the index after each session's summaries when it covers the whole universe", async () => {
    const m = market().market;
    const kinds = fillPlan(await fillScopeOf(m, { volSessions: 0, flowFrom: PRIOR, flowSessions: 1 }), NOW_MS).map((s) => s.kind);
    expect(kinds.indexOf(PRINT_INDEX)).toBeGreaterThan(kinds.indexOf(FLOW_SUMMARY));
    const narrowed = await fillScopeOf(m, { symbols: ["XOM"], volSessions: 0, flowFrom: PRIOR, flowSessions: 1 });
    expect(fillPlan(narrowed, NOW_MS).some((s) => s.kind === PRINT_INDEX)).toBe(false);
  });
});
