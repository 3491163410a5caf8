// One fill pass's progress reports (server/daily-store/run-fill.ts): every kind is reported, a
// kind with rows planned is finished once its last step is written, and a kind with no planned
// step (here: no vol symbols, no contract tables) is finished from the start, never "pending".
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
