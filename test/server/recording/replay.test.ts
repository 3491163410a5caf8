// Issue 33: a session recorded from the simulated market replays byte for byte through
// /v1/historical, /v1/historical/range and /v1/stats/daily, from the files written minute by minute
// and again after the session's partition is compacted; the recorded market's other methods
// answer what the simulator answered.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsKernels } from "../../../lib/kernels";
import { createSimulatedMarket, fixedClock } from "../../../lib/market";
import type { MarketData } from "../../../lib/market/market-data";
import { exposureGrid, strikeWindow, type ExposureGridOptionsInput } from "../../../lib/positioning";
import { etInstant } from "../../../lib/time";
import { runRecordCli } from "../../../server/cli/record-cli";
import { gridOptions } from "../../../server/modules/positioning/grid-route";
import { statsGridQuery } from "../../../server/modules/positioning/stats-daily";
import { replayStatsSession } from "../../../server/modules/positioning/stats-replay";
import { openRecordedMarket, type RecordedMarket } from "../../../server/recording/recorded-market";
import { startRecording, type MinuteAck } from "../../../server/recording/recorder";
import { compactPartition, isComplete, recordedRoot } from "../../../server/recording/store";
import { makeHarness } from "../_harness";

const DATE = "2024-03-06";
// 10:00 ET: the session's first 31 boards exist (a whole SPXW-sized session is the bench's job).
const NOW = etInstant(DATE, "10:00");
const FROM = etInstant(DATE, "09:20");
const SYMBOL = "AAPL";
const iso = (ms: number) => new Date(ms).toISOString();

const PATHS = [
  `/v1/historical?symbols=${SYMBOL}&at=${iso(etInstant(DATE, "09:30"))}`,
  `/v1/historical?symbols=${SYMBOL}&at=${iso(etInstant(DATE, "09:47") + 30_000)}`,
  `/v1/historical?symbols=${SYMBOL}&at=${iso(NOW)}&metric=vanna&layout=net`,
  `/v1/historical/range?symbols=${SYMBOL}&from=${iso(etInstant(DATE, "09:40"))}&to=${iso(etInstant(DATE, "09:55"))}`,
  `/v1/stats/daily?symbols=${SYMBOL}&from=${DATE}&to=${DATE}`,
  `/v1/stats/daily?symbols=${SYMBOL}&from=${DATE}&to=${DATE}&metric=vanna`,
];

/** Each path's status and body text (meta's per-request fields aside), on an app over `market`. */
async function answers(market: MarketData): Promise<string[]> {
  const h = makeHarness({ market, credits: 10_000, nowMs: NOW });
  const out: string[] = [];
  for (const p of PATHS) {
    const res = await h.get(p);
    const body = (await res.json()) as { data?: unknown; meta?: Record<string, unknown>; error?: unknown };
    const { requestId: _r, creditsRemaining: _c, ...meta } = body.meta ?? {};
    out.push(`${res.status} ${JSON.stringify({ data: body.data, meta, error: body.error })}`);
  }
  return out;
}

// Windows of the grid: the replay default, the nearest expiration alone, every expiration, narrow and all strikes.
const WINDOWS: { maxExpirations: number | "all"; maxStrikes: number | "all" }[] = [
  { maxExpirations: 5, maxStrikes: 92 },
  { maxExpirations: 1, maxStrikes: 10 },
  { maxExpirations: "all", maxStrikes: "all" },
  { maxExpirations: 2, maxStrikes: 3 },
];

/**
 * Issue 33's windowed read: at every recorded minute, `chainWindow` holds exactly the window's rows
 * of `chain`'s board, and the gamma and vanna grids over it equal those over the whole board; the
 * session's daily statistics with and without `chainWindow` are equal.
 */
async function expectWindowsMatchBoards(rec: RecordedMarket): Promise<void> {
  let windowRows = 0;
  let boardRows = 0;
  for (let t = etInstant(DATE, "09:30"); t <= NOW; t += 60_000) {
    // Windows first: read from the files, before `chain` decodes (and, once compacted, keeps) the board.
    const wins = [];
    for (const w of WINDOWS) {
      wins.push((await rec.chainWindow(SYMBOL, t, { maxExpirations: w.maxExpirations, strikeWindow: (k, spot) => strikeWindow(k, spot, w.maxStrikes) }))!);
    }
    const board = (await rec.chain(SYMBOL, t))!;
    expect(board.asOfMs).toBe(t);
    for (const [wi, w] of WINDOWS.entries()) {
      const win = wins[wi];
      expect({ ...win, strikeIndex: [], expIndex: [], right: [], oi: [], bid: [], ask: [], last: [], iv: [], volume: [] }).toEqual({
        ...board,
        strikeIndex: [],
        expIndex: [],
        right: [],
        oi: [],
        bid: [],
        ask: [],
        last: [],
        iv: [],
        volume: [],
      });
      // The kept rows are the board's rows in the window, in board order, with the board's values.
      const { lo, hi } = strikeWindow(board.strikes, board.spot, w.maxStrikes);
      const live = board.expirations.map((_, j) => j).filter((j) => board.expirySettleMs[j] > t);
      const kept = new Set(w.maxExpirations === "all" ? live : live.slice(0, w.maxExpirations));
      const rows = [...board.strikeIndex.keys()].filter((i) => board.strikeIndex[i] >= lo && board.strikeIndex[i] < hi && kept.has(board.expIndex[i]));
      for (const col of ["strikeIndex", "expIndex", "right", "oi", "bid", "ask", "iv"] as const) {
        expect(Array.from(win[col]), col).toEqual(rows.map((i) => board[col][i]));
      }
      windowRows += rows.length;
      boardRows += board.strikeIndex.length;
      for (const metric of ["gamma", "vanna"] as const) {
        const options: ExposureGridOptionsInput = { metric, ...w };
        expect(exposureGrid(win, options, jsKernels)).toEqual(exposureGrid(board, options, jsKernels));
      }
    }
  }
  // A window is a small part of the board (what makes the statistics cheap).
  expect(windowRows).toBeLessThan(boardRows / 2);
  const wholeBoards: MarketData = { ...rec, chainWindow: undefined };
  for (const metric of ["gamma", "vanna"] as const) {
    const task = { symbol: SYMBOL, date: DATE, extended: false, nowMs: NOW, options: gridOptions(statsGridQuery(metric)) };
    const windowed = await replayStatsSession(rec, jsKernels, task);
    expect(windowed?.frames).toBe(31);
    expect(windowed).toEqual(await replayStatsSession(wholeBoards, jsKernels, task));
  }
}

describe("recorded session replay", () => {
  let dir: string;
  const clock = fixedClock(NOW);
  const sim = createSimulatedMarket({ seed: 7, clock });
  const acks: MinuteAck[] = [];
  let live: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "optionscope-replay-"));
    // Regular-session boards only here (extended ones: extended-boards.test.ts).
    const rec = await startRecording(sim, { dataDir: dir, underlyings: [SYMBOL], fromMs: FROM, pollMs: 0, extendedBoards: false, onMinute: (a) => acks.push(a) });
    await rec.catchUp();
    await rec.stop();
    live = await answers(sim);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("acknowledges every minute from the start to now, with a board in the regular session only", () => {
    expect(acks.map((a) => a.t)).toEqual(Array.from({ length: 41 }, (_, i) => FROM + i * 60_000));
    expect(acks.filter((a) => a.board).map((a) => a.t)).toEqual(Array.from({ length: 31 }, (_, i) => etInstant(DATE, "09:30") + i * 60_000));
  });

  it("reads a window of a pending board that gives the whole board's grids and statistics", async () => {
    const rec = openRecordedMarket(dir, { clock });
    await expectWindowsMatchBoards(rec);
    rec.close();
  });

  it("answers /v1/historical, /v1/historical/range and /v1/stats/daily byte for byte, before and after compaction", async () => {
    expect(live.map((a) => a.slice(0, 300)).filter((a) => !a.startsWith("200 "))).toEqual([]);
    const pending = openRecordedMarket(dir, { clock });
    expect(pending.simulated).toBe(true);
    expect(await answers(pending)).toEqual(live);
    pending.close();
    await compactPartition(recordedRoot(dir), DATE, SYMBOL);
    expect(isComplete(recordedRoot(dir), DATE, SYMBOL)).toBe(true);
    const compacted = openRecordedMarket(dir, { clock });
    expect(await answers(compacted)).toEqual(live);
    compacted.close();
  });

  it("reads a window of a compacted board that gives the whole board's grids and statistics, decoded board kept or not", async () => {
    expect(isComplete(recordedRoot(dir), DATE, SYMBOL)).toBe(true);
    const rec = openRecordedMarket(dir, { clock });
    await expectWindowsMatchBoards(rec);
    // Again: the finished session's boards are kept decoded now, and the windows are cut from them.
    await expectWindowsMatchBoards(rec);
    rec.close();
  });

  it("answers spot, bars, prints, off-exchange prints and earnings as the simulator did; nothing unrecorded", async () => {
    const rec = openRecordedMarket(dir, { clock });
    const from = FROM - 60_000;
    for (const t of [etInstant(DATE, "09:31") + 17_000, etInstant(DATE, "09:59"), NOW + 3_600_000]) {
      expect(await rec.spot(SYMBOL, t)).toBe(await sim.spot(SYMBOL, t));
    }
    for (const extended of [false, true]) {
      expect(await rec.minuteBars(SYMBOL, from, NOW, { extended })).toEqual(await sim.minuteBars(SYMBOL, from, NOW, { extended }));
    }
    expect(JSON.stringify(await rec.optionPrints(SYMBOL, from, NOW))).toBe(JSON.stringify(await sim.optionPrints(SYMBOL, from, NOW)));
    const off = await rec.offExchangePrints([SYMBOL], from, NOW);
    expect(off.length).toBeGreaterThan(0);
    expect(JSON.stringify(off)).toBe(JSON.stringify(await sim.offExchangePrints([SYMBOL], from, NOW)));
    expect(await rec.earnings(SYMBOL, DATE, "2024-09-01")).toEqual(await sim.earnings(SYMBOL, DATE, "2024-09-01"));
    expect((await rec.universe()).map((s) => s.ticker)).toEqual([SYMBOL]);
    // A symbol never recorded, and an instant before anything recorded.
    expect(await rec.chain("SPY", NOW)).toBeNull();
    expect(await rec.chain(SYMBOL, etInstant("2024-03-05", "12:00"))).toBeNull();
    rec.close();
  });

  it("optionscope record: an unknown underlying, a missing or bad flag are clear errors", async () => {
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => err.push(t) };
    const now = ["--now", iso(NOW), "--data-dir", dir];
    expect(await runRecordCli(["record", "--underlyings", "AAPL,NOPE", ...now], {}, io, { market: sim })).toBe(1);
    expect(err.join("")).toContain("unknown underlying NOPE");
    expect(await runRecordCli(["record", ...now], {}, io, { market: sim })).toBe(2);
    expect(err.join("")).toContain("Missing --underlyings.");
    expect(await runRecordCli(["record", "--underlyings", "AAPL", "--retention-days", "two", ...now], {}, io, { market: sim })).toBe(2);
    expect(err.join("")).toContain("Invalid --retention-days: expected a whole number >= 0");
  });
});
