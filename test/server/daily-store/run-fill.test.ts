// One fill pass's progress reports (server/daily-store/run-fill.ts): every kind is reported, a
// kind with rows planned is finished once its last step is written, and a kind with no planned
// step (here: no vol symbols, no contract tables) is finished from the start, never "pending".
// With `concurrency`, a step's rows are computed that many at a time, and a stop still keeps
// every row computed before it.
import { afterEach, describe, expect, it } from "vitest";
import { dailyDbPath, marketIdentity, openDailyStore, type DailyDataStore } from "../../../server/daily-store";
import { CONTRACT_TOP, DAILY_KINDS, FLOW_SUMMARY, VOL_READING, type DailyKind } from "../../../server/daily-store/kinds";
import type { KindProgress } from "../../../server/daily-store/progress";
import { runFill } from "../../../server/daily-store/run-fill";
import { LAST_SESSION, NOW_MS, tempDir } from "./_store-fixtures";

const t = tempDir();
let store: DailyDataStore | null = null;
afterEach(() => {
  store?.close();
  store = null;
  t.remove();
});

describe("runFill progress", () => {
  it("reports a kind with no planned steps as finished (0 of 0), and the planned kind finished once written", async () => {
    store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
    const reports: [DailyKind, KindProgress][] = [];
    const computed = await runFill({
      store,
      produce: async (kind, symbol, session) => ({ kind, symbol, session }),
      scope: { flowTickers: ["KO", "PEP"], volSymbols: [], volSessions: 2, flowFrom: LAST_SESSION, contractTables: false },
      nowMs: NOW_MS,
      onProgress: (kind, p) => reports.push([kind, p]),
    });
    expect(computed).toBe(2);
    const last = (kind: DailyKind) => reports.filter(([k]) => k === kind).at(-1)?.[1];
    for (const kind of [VOL_READING, CONTRACT_TOP] as DailyKind[]) {
      expect(last(kind), kind).toEqual({ done: 0, total: 0, finished: true });
      // Never reported unfinished on the way.
      expect(reports.filter(([k, p]) => k === kind && !p.finished)).toEqual([]);
    }
    expect(last(FLOW_SUMMARY)).toEqual({ done: 2, total: 2, finished: true });
    expect(new Set(reports.map(([k]) => k))).toEqual(new Set(DAILY_KINDS));
    expect(store.count(FLOW_SUMMARY)).toBe(2);
  });
});

describe("runFill concurrency", () => {
  // More rows than a write batch (8): batches are written while other rows are still in flight.
  const tickers = Array.from({ length: 20 }, (_, i) => String.fromCharCode(65 + i));
  const scope = { flowTickers: tickers, volSymbols: [], volSessions: 2, flowFrom: LAST_SESSION, contractTables: false };
  /** A producer whose rows finish in an order other than the one they started in. */
  const tracked = () => {
    let inFlight = 0;
    let most = 0;
    const produce = async (kind: DailyKind, symbol: string, session: string) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, symbol.charCodeAt(0) % 3));
      inFlight--;
      return { kind, symbol, session };
    };
    return { produce, most: () => most };
  };

  it("keeps as many rows in flight as the kind's concurrency, and writes every row once", async () => {
    store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
    const p = tracked();
    const computed = await runFill({ store, produce: p.produce, scope, nowMs: NOW_MS, concurrency: (kind) => (kind === FLOW_SUMMARY ? 3 : 1) });
    expect(computed).toBe(20);
    expect(p.most()).toBe(3);
    expect([...store.symbolsAt(FLOW_SUMMARY, LAST_SESSION)].sort()).toEqual(scope.flowTickers);
    for (const s of scope.flowTickers) expect(store.get(FLOW_SUMMARY, s, LAST_SESSION)).toEqual({ kind: FLOW_SUMMARY, symbol: s, session: LAST_SESSION });
  });

  it("without concurrency computes one row at a time", async () => {
    store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
    const p = tracked();
    await runFill({ store, produce: p.produce, scope, nowMs: NOW_MS });
    expect(p.most()).toBe(1);
  });

  it("a stop keeps the rows already computed, and the next pass computes only the rest", async () => {
    store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
    const p = tracked();
    let produced = 0;
    const counting = (kind: DailyKind, symbol: string, session: string) => {
      produced++;
      return p.produce(kind, symbol, session);
    };
    const first = await runFill({ store, produce: counting, scope, nowMs: NOW_MS, concurrency: () => 2, stopped: () => produced >= 4 });
    expect(first).toBe(produced);
    expect(store.count(FLOW_SUMMARY)).toBe(first);
    const second = await runFill({ store, produce: p.produce, scope, nowMs: NOW_MS, concurrency: () => 2 });
    expect(first + second).toBe(20);
    expect(store.count(FLOW_SUMMARY)).toBe(20);
  });
});
