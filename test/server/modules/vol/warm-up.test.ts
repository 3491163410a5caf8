// The warm-up pays for what a process's first screener minute used to build: the closes of each
// stock's earnings record (outside the history window), today's boards and tapes, and its minute's
// rows. After it, a new minute reads no closing board at all, only the boards of the minute itself.
import { afterAll, describe, expect, it } from "vitest";
import { createSimulatedMarket } from "../../../../lib/market/simulated";
import { moduleStateOf } from "../../../../server/modules";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule } from "../../../../server/modules/vol";
import { makeHarness, NOW_MS } from "../../_harness";
import { TEST_HISTORY_SESSIONS, TEST_SYMBOLS } from "./_vol-harness";

const clock = {
  ms: NOW_MS,
  now() {
    return this.ms;
  },
};
const sim = createSimulatedMarket({ seed: 42, clock });
const asked: number[] = [];
// The simulator, with every board request's instant logged (a closing reading reads the head of
// its board first).
const market = new Proxy(sim, {
  get: (target, prop, receiver) =>
    prop === "chain"
      ? (symbol: string, at: number, o?: unknown) => {
          asked.push(at);
          return target.chain(symbol, at, o as never);
        }
      : prop === "chainHeadSync"
        ? (symbol: string, at: number, untilMs: number) => {
            asked.push(at);
            return target.chainHeadSync(symbol, at, untilMs);
          }
        : Reflect.get(target, prop, receiver),
});
const vol = createVolModule({ historySessions: TEST_HISTORY_SESSIONS, symbols: TEST_SYMBOLS });
const h = makeHarness({ market, clock, credits: 100_000, modules: [metaModule, vol] });
const state = moduleStateOf(h.app.services, vol);
const minute = (ms: number) => Math.floor(ms / 60_000);

afterAll(() => h.app.shutdown(0));

describe("vol warm-up", () => {
  it("leaves the first screener minute only the minute's own boards to read", async () => {
    await state.warmUp();
    const warmed = asked.length;
    // The warm-up read boards of other sessions (history, record closes) and today's.
    expect(asked.some((at) => minute(at) !== minute(NOW_MS))).toBe(true);
    expect(asked.filter((at) => minute(at) === minute(NOW_MS)).length).toBeGreaterThanOrEqual(TEST_SYMBOLS.length);
    // A new minute: every board is new, and only that minute's boards are read.
    clock.ms = NOW_MS + 60_000;
    const res = await h.get("/v1/vol/screener?limit=500");
    expect(res.status).toBe(200);
    expect((await res.clone().json()).meta.cached).toBe(false);
    const rows = (await res.json()).data.rows as { symbol: string; running_sigma: number | null; median_move_pct?: number }[];
    expect(rows.length).toBe(TEST_SYMBOLS.length);
    // The rows read sigma's prior close and the earnings records: all from the store now.
    expect(rows.some((r) => r.running_sigma !== null)).toBe(true);
    const during = asked.slice(warmed);
    expect(during.length).toBeGreaterThanOrEqual(TEST_SYMBOLS.length);
    expect(during.filter((at) => minute(at) !== minute(clock.ms))).toEqual([]);
  }, 120_000);

  it("serves a stock's earnings record from the warmed closes", async () => {
    const before = asked.length;
    const res = await h.get("/v1/vol/events?symbols=AAPL,NVDA,TSLA");
    expect(res.status).toBe(200);
    const events = (await res.json()).data.symbols.map((s: { events: { record: unknown[] } | null }) => s.events).filter((e: unknown) => e !== null);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.record.length).toBeGreaterThan(0);
    expect(asked.slice(before).filter((at) => minute(at) !== minute(clock.ms))).toEqual([]);
  }, 60_000);
});
