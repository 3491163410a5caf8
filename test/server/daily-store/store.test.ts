// The persisted daily store: exact round trips (synthetic values with every awkward number, and
// real summaries and readings over random symbols and sessions), stale fingerprints recomputed,
// and all-or-nothing batches.
import { writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { previousTradingDay } from "../../../lib/time";
import { sessionCloseReading, type SessionCloseReading } from "../../../lib/vol";
import { decodeDaily, encodeDaily, encodeDailyOffThread } from "../../../server/daily-store/codec";
import { dailyProducer } from "../../../server/daily-store/compute";
import { FLOW_SUMMARY, VOL_READING } from "../../../server/daily-store/kinds";
import { dailyDbPath, marketIdentity, openDailyStore, type DailyDataStore } from "../../../server/daily-store";
import { createDailyStore } from "../../../server/modules/vol/daily-store";
import { countingMarket, LAST_SESSION, NOW_MS, tempDir } from "./_store-fixtures";
import { simulatedMarketAt } from "../../_helpers/simulated-market";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function freshStore(identity = marketIdentity({ kind: "simulated", seed: 42 })): { store: DailyDataStore; path: string } {
  const t = tempDir();
  const path = dailyDbPath(t.dir);
  const store = openDailyStore(path, identity);
  cleanups.push(() => {
    store.close();
    t.remove();
  });
  return { store, path };
}

/** The last `n` sessions up to LAST_SESSION. */
function recentSessions(n: number): string[] {
  const out = [LAST_SESSION];
  while (out.length < n) out.push(previousTradingDay(out[out.length - 1]));
  return out;
}

describe("codec", () => {
  // Every number a reading can hold, including the ones JSON loses (NaN, -0, infinities).
  const num = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY), fc.integer());
  // Plain objects, as every stored record is (V8's serializer gives objects Object.prototype).
  const plain = { noNullPrototype: true } as const;
  const row = fc.record({ symbol: fc.string(), right: fc.constantFrom("C", "P"), premium: num, iv: fc.oneof(num, fc.constant(null)), sweep: fc.boolean() }, plain);
  const value = fc.record(
    {
      ticker: fc.string(),
      row: fc.oneof(fc.constant(null), fc.record({ total: num, date: fc.string() }, plain)),
      contracts: fc.array(row, { maxLength: 40 }),
      curve: fc.float64Array({ maxLength: 50 }),
    },
    plain,
  );

  it("decodes exactly what it encoded (SameValue for every number, typed arrays kept)", () => {
    fc.assert(
      fc.property(value, (v) => {
        const back = decodeDaily(encodeDaily(v));
        return isDeepStrictEqual(back, v);
      }),
      { numRuns: 300 },
    );
  });

  it("deflated off the thread, decodes exactly to what was encoded", async () => {
    // Not byte for byte the synchronous deflate: zlib's stream may place its blocks differently
    // (a counterexample of fast-check's); the stored value is what must not change.
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        expect(isDeepStrictEqual(decodeDaily(await encodeDailyOffThread(v)), v)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("keeps a '__proto__' key a key", () => {
    const rows = Array.from({ length: 10 }, (_, i) => JSON.parse(`{"__proto__": ${i}, "a": ${i}}`));
    const back = decodeDaily<Record<string, unknown>[]>(encodeDaily(rows));
    expect(isDeepStrictEqual(back, rows)).toBe(true);
    expect(Object.getPrototypeOf(back[3])).toBe(Object.prototype);
    expect(Object.keys(back[3])).toEqual(["__proto__", "a"]);
  });
});

describe("store round trip over real values", () => {
  const market = simulatedMarketAt(42, NOW_MS);
  const produce = dailyProducer(market);

  it("a volatility reading read back equals the one computed (random symbols and sessions)", async () => {
    const { store } = freshStore();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("SPY", "QQQ", "AAPL", "KO", "IWM", "XLE"), fc.constantFrom(...recentSessions(30)), async (symbol, session) => {
        const computed = await produce(VOL_READING, symbol, session);
        // Half of them through the loop's off-thread write.
        if (session.endsWith("1") || session.endsWith("3")) await store.putOffThread!(VOL_READING, symbol, session, computed);
        else store.put(VOL_READING, symbol, session, computed);
        const read = store.get<SessionCloseReading | null>(VOL_READING, symbol, session);
        expect(read).not.toBeUndefined();
        expect(isDeepStrictEqual(read, computed)).toBe(true);
      }),
      { numRuns: 6 },
    );
  }, 60_000);

  it("a flow session summary read back equals the one computed (random small tickers and sessions)", async () => {
    const { store } = freshStore();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("KO", "T", "F"), fc.constantFrom(...recentSessions(10)), async (ticker, session) => {
        const computed = await produce(FLOW_SUMMARY, ticker, session);
        store.putMany(FLOW_SUMMARY, [{ symbol: ticker, session, value: computed }]);
        const read = store.get(FLOW_SUMMARY, ticker, session);
        expect(isDeepStrictEqual(read, computed)).toBe(true);
        // The same row through the one-session read the market-wide scans use.
        expect(isDeepStrictEqual(store.session(FLOW_SUMMARY, session).get(ticker), computed)).toBe(true);
      }),
      { numRuns: 2 },
    );
  }, 90_000);
});

describe("fingerprints", () => {
  it("a row written for another market (seed) reads as missing, is recomputed and replaced", async () => {
    const seed42 = marketIdentity({ kind: "simulated", seed: 42 });
    const seed7 = marketIdentity({ kind: "simulated", seed: 7 });
    const { store: a, path } = freshStore(seed42);
    const m42 = simulatedMarketAt(42, NOW_MS);
    const r42 = await sessionCloseReading(m42, "SPY", LAST_SESSION);
    a.put(VOL_READING, "SPY", LAST_SESSION, r42);
    expect(a.count(VOL_READING)).toBe(1);

    const b = openDailyStore(path, seed7);
    cleanups.push(() => b.close());
    expect(b.get(VOL_READING, "SPY", LAST_SESSION)).toBeUndefined();
    expect(b.count(VOL_READING)).toBe(0);

    // The vol module's daily store over seed 7 computes the reading (one closing board) and writes it.
    const { market: m7, calls } = countingMarket(simulatedMarketAt(7, NOW_MS));
    const daily = createDailyStore(m7, { persisted: b, nowMs: () => NOW_MS });
    const r7 = await daily.reading("SPY", LAST_SESSION);
    expect(calls.chain).toBe(1);
    expect(r7?.close).not.toBe(r42?.close);
    expect(isDeepStrictEqual(b.get(VOL_READING, "SPY", LAST_SESSION), r7)).toBe(true);
    // The seed-42 row was replaced, not kept beside it.
    expect(a.get(VOL_READING, "SPY", LAST_SESSION)).toBeUndefined();
  }, 60_000);

  it("a changed formula version changes the fingerprint; identities differ by seed and folder content", () => {
    expect(marketIdentity({ kind: "simulated", seed: 42 })).not.toBe(marketIdentity({ kind: "simulated", seed: 43 }));
    const t = tempDir();
    cleanups.push(t.remove);
    const before = marketIdentity({ kind: "files", dir: t.dir });
    writeFileSync(`${t.dir}/spot.csv`, "x\n");
    expect(marketIdentity({ kind: "files", dir: t.dir })).not.toBe(before);
  });

  it("the session being traded is neither read from nor written to the store", async () => {
    const { store } = freshStore();
    const { market, calls } = countingMarket(simulatedMarketAt(42, NOW_MS));
    const daily = createDailyStore(market, { persisted: store, nowMs: () => NOW_MS });
    await daily.reading("SPY", "2024-03-06");
    expect(calls.chain).toBe(1);
    expect(store.count(VOL_READING)).toBe(0);
  }, 30_000);
});

describe("transactions", () => {
  it("a batch that fails part-way writes none of its rows", () => {
    const { store } = freshStore();
    store.put(VOL_READING, "SPY", "2024-03-01", { close: 1 });
    const rows = [
      { symbol: "QQQ", session: LAST_SESSION, value: { close: 2 } },
      { symbol: "IWM", session: LAST_SESSION, value: { close: 3 } },
      // A function cannot be serialised: the third row throws inside the transaction.
      { symbol: "DIA", session: LAST_SESSION, value: { close: () => 4 } },
    ];
    expect(() => store.putMany<unknown>(VOL_READING, rows)).toThrow();
    expect(store.count(VOL_READING)).toBe(1);
    expect(store.get(VOL_READING, "QQQ", LAST_SESSION)).toBeUndefined();
    expect(store.symbolsAt(VOL_READING, LAST_SESSION).size).toBe(0);
  });
});
