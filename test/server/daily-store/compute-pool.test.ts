// The compute pool builds the request path's cold rows in worker threads: each row equals the one
// built on the event loop over the same market, the modules' read paths use it when the app has one,
// and a pool whose workers cannot start falls back to the loop.
import { getPriority } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { previousTradingDay } from "../../../lib/time";
import { sessionCloseReading } from "../../../lib/vol";
import { RvolQuerySchema } from "../../../lib/api/flow";
import { computeOffLoop, createComputePool, DARK_POOL_LEVELS, FLOW_NORM, FLOW_OI, FLOW_RVOL, type ComputePool } from "../../../server/daily-store/compute-pool";
import { FlowOiSessions } from "../../../server/modules/positioning/flow-oi-sessions";
import { premiumNormFor } from "../../../server/modules/flow/sessions/tape";
import { rvolAnswer } from "../../../server/modules/flow/underlyings/rvol";
import { PRINT_SLICE_MS, printSlices, withPooledChains } from "../../../server/daily-store/pooled-chains";
import { CONTRACT_VOLUME, FLOW_SUMMARY, VOL_READING } from "../../../server/daily-store/kinds";
import { dailyDbPath, marketIdentity, openDailyStore } from "../../../server/daily-store";
import { contractVolumesOf } from "../../../server/modules/flow/sessions/contract-volumes";
import { tempDir } from "./_store-fixtures";
import { windowLevels } from "../../../server/modules/flow/dark-pool/dark-pool-levels";
import type { DarkPoolLevels } from "../../../lib/flow/dark-pool-levels";
import { createFlowState } from "../../../server/modules/flow/flow-route";
import { computeSessionSummary, summariesByDate } from "../../../server/modules/flow/sessions/session-summary";
import { createDailyStore } from "../../../server/modules/vol/daily-store";
import type { AppServices } from "../../../server/services";
import { WorkerPoolUnavailable } from "../../../server/workers/worker-pool";
import { WORKER_PROCESS_NICE } from "../../../server/daily-store/priority";
import { simulatedMarketAt } from "../../_helpers/simulated-market";
import { workerProcesses } from "../../_helpers/worker-processes";

const SEED = 11;
const NOW_MS = Date.parse("2024-03-06T16:00:00Z");
const market = simulatedMarketAt(SEED, NOW_MS);
const pool = createComputePool({ source: { kind: "simulated", seed: SEED } }, 2);
afterAll(() => pool.close());

/** Three finished sessions before 2024-03-06, oldest first. */
const DATES = ["2024-03-01", "2024-03-04", "2024-03-05"];

describe("compute pool", () => {
  it("a closing reading and a session summary from a worker equal the ones built on this thread", async () => {
    const reading = await pool.run({ kind: VOL_READING, symbol: "XOM", session: "2024-03-05", nowMs: NOW_MS });
    expect(reading).toEqual(await sessionCloseReading(market, "XOM", "2024-03-05"));
    const flow = createFlowState({ market } as unknown as AppServices);
    const summary = await pool.run({ kind: FLOW_SUMMARY, symbol: "XOM", session: "2024-03-05", nowMs: NOW_MS });
    expect(summary).toEqual(await computeSessionSummary(flow, "XOM", "2024-03-05", NOW_MS));
    // A session in progress is summarised up to the task's instant, as on the loop.
    const today = await pool.run({ kind: FLOW_SUMMARY, symbol: "XOM", session: "2024-03-06", nowMs: NOW_MS });
    expect(today).toEqual(await computeSessionSummary(flow, "XOM", "2024-03-06", NOW_MS));
    // The premium norm a tape is scored with (the prior session's prints).
    const norm = await pool.run({ kind: FLOW_NORM, ticker: "XOM", session: "2024-03-06", nowMs: NOW_MS });
    expect(norm).toBe(await premiumNormFor(flow, "XOM", "2024-03-06"));
    expect(norm).toBeGreaterThan(0);
  });

  it("the volatility history and the flow summaries read through the pool: same rows, each computed in a worker", async () => {
    const before = pool.stats().completed;
    const pooled = createDailyStore(market, { compute: pool, nowMs: () => NOW_MS });
    const inline = createDailyStore(market, { nowMs: () => NOW_MS });
    expect(await pooled.before("IBM", "2024-03-06", 3)).toEqual(await inline.before("IBM", "2024-03-06", 3));
    expect(pool.stats().completed - before).toBe(3);

    const flowPooled = createFlowState({ market, computePool: pool } as unknown as AppServices);
    const flowInline = createFlowState({ market } as unknown as AppServices);
    const a = await summariesByDate(flowPooled, "IBM", DATES, NOW_MS);
    expect(a).toEqual(await summariesByDate(flowInline, "IBM", DATES, NOW_MS));
    expect(pool.stats().completed - before).toBe(3 + DATES.length);
    expect(pool.stats()).toMatchObject({ name: "compute", workers: 2, queued: 0, running: 0 });
    expect(previousTradingDay("2024-03-06")).toBe(DATES[2]);
  });

  it("a finished summary computed for a request with a store: the worker encodes it, the rows read back equal to this thread's summary", async () => {
    const t = tempDir();
    const store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: SEED }));
    try {
      const before = store.stats().writes;
      const flow = createFlowState({ market, computePool: pool, dailyStore: store } as unknown as AppServices);
      const [summary] = await summariesByDate(flow, "CVX", ["2024-03-05"], NOW_MS);
      const inline = await computeSessionSummary(createFlowState({ market } as unknown as AppServices), "CVX", "2024-03-05", NOW_MS);
      expect(summary).toEqual(inline);
      // Written before the summary resolved, as `putEncoded` bytes: the summary and its contract volumes.
      expect(store.stats().writes - before).toBe(2);
      expect(store.get(FLOW_SUMMARY, "CVX", "2024-03-05")).toEqual(inline);
      expect(store.get(CONTRACT_VOLUME, "CVX", "2024-03-05")).toEqual(contractVolumesOf(inline));
      expect(inline.contracts.length).toBeGreaterThan(8);
    } finally {
      store.close();
      t.remove();
    }
  });

  it("a ticker's dark-pool levels over a window from a worker equal this thread's (day by day, sliced)", async () => {
    const window = { ticker: "XOM", dateStart: "2024-03-04", dateEnd: "2024-03-06", bucket: null, sort: "notional" as const };
    const pooled = await pool.run<DarkPoolLevels>({ kind: DARK_POOL_LEVELS, ...window, nowMs: NOW_MS });
    const inline = await windowLevels(createFlowState({ market } as unknown as AppServices), window, NOW_MS, true);
    expect(pooled).toEqual(inline);
    expect(inline.levels.length).toBeGreaterThan(3);
    expect(inline.totalShares).toBeGreaterThan(0);
  });

  it("its workers are processes of their own, every thread of each below the event loop's priority (nice WORKER_PROCESS_NICE); this process keeps its own", () => {
    // Processes, not threads: a thread's full garbage collections would share V8's process-wide lock with the loop's.
    // This file's pool (other files' pools in this test worker may run at other values, e.g. a boards pool's 5).
    const workers = workerProcesses("compute-worker").filter((w) => new Set(w.nices).size === 1 && w.nices[0] === WORKER_PROCESS_NICE);
    expect(workers.length).toBeGreaterThanOrEqual(2);
    expect(getPriority()).toBe(0);
  });

  it("an RVOL answer from a worker equals the one built here; a contract never listed is null", async () => {
    const flow = createFlowState({ market } as unknown as AppServices);
    const query = RvolQuerySchema.parse({ interval: "1D", avg_period: "5d" });
    const target = { kind: "ticker", ticker: "IBM" } as const;
    const pooled = await pool.run({ kind: FLOW_RVOL, target, query, nowMs: NOW_MS });
    expect(pooled).toEqual(await rvolAnswer(flow, target, query, NOW_MS));
    const never = { kind: "contract", ticker: "IBM", symbol: "IBM___240315C09999000", expiry: "2024-03-15" } as const;
    expect(await pool.run({ kind: FLOW_RVOL, target: never, query, nowMs: NOW_MS })).toBeNull();
  });

  it("a simulated board from a worker equals this thread's; concurrent asks for one board share a task; file markets stay as they are", async () => {
    const pooled = withPooledChains(market, pool);
    const before = pool.stats().completed;
    const at = Date.parse("2024-03-05T15:30:00Z");
    const [a, b] = await Promise.all([pooled.chain("SPY", at), pooled.chain("SPY", at)]);
    expect(a).toEqual(await market.chain("SPY", at));
    expect(b).toBe(a);
    expect(pool.stats().completed - before).toBe(1);
    expect(await pooled.chain("SPY", at, { extended: true })).toEqual(await market.chain("SPY", at, { extended: true }));
    expect(pooled.seed).toBe(market.seed);
    const files = { ...market, simulated: false } as typeof market;
    expect(withPooledChains(files, pool)).toBe(files);
  });

  it("contract minute quotes (premium lows) from a worker equal this thread's", async () => {
    const pooled = withPooledChains(market, pool);
    const board = (await market.chain("XOM", Date.parse("2024-03-06T14:45:00Z")))!;
    const contracts = [0, 7, 40].map((i) => ({
      expiration: board.expirations[board.expIndex[i]],
      strike: board.strikes[board.strikeIndex[i]],
      right: board.right[i] === 1 ? ("C" as const) : ("P" as const),
    }));
    const from = Date.parse("2024-03-06T14:30:00Z");
    const before = pool.stats().completed;
    const got = await pooled.contractMinuteQuotes!("XOM", contracts, from, NOW_MS);
    expect(pool.stats().completed - before).toBe(1);
    expect(got?.t.length).toBeGreaterThan(10);
    expect(got).toEqual(await market.contractMinuteQuotes!("XOM", contracts, from, NOW_MS));
  });

  it("minute bars (price history) from a worker equal this thread's, regular and extended, over a day and a part of today", async () => {
    const pooled = withPooledChains(market, pool);
    const before = pool.stats().completed;
    // [from, to, extended, minutes]: a regular session, an extended one (04:00-20:00 ET), today's two hours so far.
    const windows: [number, number, boolean, number][] = [
      [Date.parse("2024-03-05T06:00:00Z"), Date.parse("2024-03-06T06:00:00Z"), false, 390],
      [Date.parse("2024-03-05T06:00:00Z"), Date.parse("2024-03-06T06:00:00Z"), true, 960],
      [Date.parse("2024-03-06T14:00:00Z"), NOW_MS, true, 120],
    ];
    for (const [from, to, extended, minutes] of windows) {
      const got = await pooled.minuteBars("XOM", from, to, { extended });
      expect(got.t.length).toBe(minutes);
      expect(got).toEqual(await market.minuteBars("XOM", from, to, { extended }));
    }
    expect(pool.stats().completed - before).toBe(windows.length);
  });

  it("option prints from workers, a 15-minute slice per task, equal this thread's for any window", async () => {
    const pooled = withPooledChains(market, pool);
    const open = Date.parse("2024-03-05T14:30:00Z");
    const close = Date.parse("2024-03-05T21:00:00Z");
    // A whole session: 26 slices of the regular session, each one task.
    expect(printSlices(open, close)).toHaveLength(26);
    const before = pool.stats().completed;
    const whole = await pooled.optionPrints("XOM", open, close);
    expect(pool.stats().completed - before).toBe(26);
    expect(whole.length).toBeGreaterThan(100);
    expect(whole).toEqual(await market.optionPrints("XOM", open, close));
    // Edges off the slice grid, and a span over the night to the next session (cut at the clock).
    const from = open + 7 * 60_000 + 123;
    const to = Date.parse("2024-03-06T15:21:30Z");
    expect(await pooled.optionPrints("XOM", from, to)).toEqual(await market.optionPrints("XOM", from, to));
    expect(printSlices(from, NOW_MS).every(([a, b]) => b - a <= PRINT_SLICE_MS && b > a)).toBe(true);
    // Nights and weekends are no task; nothing before the window's start or after the clock.
    expect(printSlices(Date.parse("2024-03-02T00:00:00Z"), Date.parse("2024-03-04T00:00:00Z"))).toEqual([]);
    expect(await pooled.optionPrints("XOM", NOW_MS, NOW_MS + 3_600_000)).toEqual([]);
  });

  it("an oi=flow estimate from a worker equals this thread's, extended minute by minute (docs/methodology.md#flow-open-interest)", async () => {
    const inline = new FlowOiSessions(market);
    for (const uptoMs of [NOW_MS - 30 * 60_000, NOW_MS]) {
      const worker = await pool.run({ kind: FLOW_OI, symbol: "XOM", session: "2024-03-06", uptoMs, nowMs: NOW_MS });
      expect(worker).toEqual(await inline.estimate("XOM", "2024-03-06", uptoMs));
    }
  });

  it("off-exchange prints from workers, sliced over the extended session, equal this thread's", async () => {
    const pooled = withPooledChains(market, pool);
    // 04:00-20:00 ET is 64 slices; the day's prints, one ticker and all of them, in the same order.
    const from = Date.parse("2024-03-05T09:00:00Z");
    const to = Date.parse("2024-03-06T01:00:00Z");
    expect(printSlices(from, to, true)).toHaveLength(64);
    const one = await pooled.offExchangePrints(["AAPL"], from, to);
    expect(one.length).toBeGreaterThan(10);
    expect(one).toEqual(await market.offExchangePrints(["AAPL"], from, to));
    const noon = Date.parse("2024-03-05T17:03:00Z");
    expect(await pooled.offExchangePrints(null, noon, noon + 40 * 60_000)).toEqual(await market.offExchangePrints(null, noon, noon + 40 * 60_000));
  });

  it("falls back to this thread when the workers cannot start; other task errors propagate", async () => {
    const dead: ComputePool = { run: () => Promise.reject(new WorkerPoolUnavailable("none")), prestart: () => {}, stats: pool.stats, close: async () => {} };
    const task = { kind: VOL_READING, symbol: "XOM", session: "2024-03-05", nowMs: NOW_MS } as const;
    expect(await computeOffLoop(dead, task, async () => "inline")).toBe("inline");
    const failing: ComputePool = { ...dead, run: () => Promise.reject(new Error("boom")) };
    await expect(computeOffLoop(failing, task, async () => "inline")).rejects.toThrow("boom");
  });
});
