// Issue 33: the store of record's windowed read (`chainWindow`, docs/data.md#windowed-reads) on
// boards a real feed can give (missing IVs solved from sub-cent quotes, a settled expiration still
// listed, an expiration without every strike, rows out of expiration order): the grids and daily
// statistics over the window equal those over the whole board, from the pending files and after
// compaction, and a sorted board's read stops where the window's last expiration ends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsKernels } from "../../../lib/kernels";
import { fixedClock } from "../../../lib/market";
import type { ChainSnapshot, MarketData } from "../../../lib/market/market-data";
import { boardWindowPlan, encodeBoard } from "../../../lib/market/recorded/board-codec";
import { exposureGrid, strikeWindow } from "../../../lib/positioning";
import { etInstant } from "../../../lib/time";
import { gridOptions } from "../../../server/modules/positioning/grid-route";
import { statsGridQuery } from "../../../server/modules/positioning/stats-daily";
import { replayStatsSession } from "../../../server/modules/positioning/stats-replay";
import { openRecordedMarket, type RecordedMarket } from "../../../server/recording/recorded-market";
import { compactPartition, recordedRoot, writePendingBoard } from "../../../server/recording/store";

const DATE = "2024-03-06";
const MINUTES = ["10:00", "10:01", "10:02"].map((hm) => etInstant(DATE, hm));
const NOW = etInstant(DATE, "10:05");
const SYMBOL = "XYZ";
const DAY_MS = 86_400_000;

/**
 * A board at `asOfMs`: strikes 80..120, the first expiration settling at `asOfMs` (settled, still
 * listed), the last with every fifth strike only; every seventh IV missing and every eleventh 0
 * (solved from the mid), quotes off whole cents, some open interest zero. `shuffled`: the last
 * expiration's rows first (not in expiration order).
 */
function board(asOfMs: number, spot: number, shuffled = false): ChainSnapshot {
  const settle = [0, 1, 3, 10, 30].map((d) => asOfMs + d * DAY_MS);
  const strikes = Array.from({ length: 41 }, (_, i) => 80 + i);
  const rows: { e: number; s: number; r: number }[] = [];
  for (let e = 0; e < settle.length; e++) {
    for (let s = 0; s < strikes.length; s++) {
      if (e === settle.length - 1 && s % 5 !== 0) continue;
      rows.push({ e, s, r: 0 }, { e, s, r: 1 });
    }
  }
  if (shuffled) rows.sort((a, b) => (b.e === settle.length - 1 ? 1 : 0) - (a.e === settle.length - 1 ? 1 : 0));
  const col = (f: (row: { e: number; s: number; r: number }, i: number) => number) => Float64Array.from(rows.map(f));
  const bid = col(({ s, r }, i) => Math.max(0, r === 1 ? spot - strikes[s] : strikes[s] - spot) + 0.4 + 0.0013 * strikes[s] + (i % 3) * 0.01);
  return {
    symbol: SYMBOL,
    underlying: SYMBOL,
    asOfMs,
    sessionDate: DATE,
    spot,
    rate: 0.045,
    dividendYield: 0.01,
    simulated: false,
    expirations: settle.map((t) => new Date(t).toISOString().slice(0, 10)),
    expirySettleMs: settle,
    expiryRoot: settle.map(() => SYMBOL),
    strikes: Float64Array.from(strikes),
    strikeIndex: Int32Array.from(rows.map((x) => x.s)),
    expIndex: Int32Array.from(rows.map((x) => x.e)),
    right: Uint8Array.from(rows.map((x) => x.r)),
    oi: col((_, i) => (i % 17 === 0 ? 0 : 100 + (i % 13) * 50)),
    bid,
    ask: bid.map((b) => b + 0.1),
    last: bid.map((b) => b + 0.05),
    iv: col(({ s }, i) => (i % 7 === 0 ? Number.NaN : i % 11 === 0 ? 0 : 0.2 + 0.002 * Math.abs(strikes[s] - spot))),
    volume: col((_, i) => i % 5),
  };
}

const BOARDS = [board(MINUTES[0], 100.37), board(MINUTES[1], 101.02, true), board(MINUTES[2], 99.5)];

const WINDOWS: { maxExpirations: number | "all"; maxStrikes: number | "all" }[] = [
  { maxExpirations: 5, maxStrikes: 92 },
  { maxExpirations: 1, maxStrikes: 4 },
  { maxExpirations: 2, maxStrikes: 10 },
  { maxExpirations: "all", maxStrikes: "all" },
];

/** Every window of every recorded board: windowed grids equal whole-board grids; so do the daily statistics. */
async function expectWindowsMatch(rec: RecordedMarket): Promise<void> {
  for (const t of MINUTES) {
    for (const w of WINDOWS) {
      const win = (await rec.chainWindow(SYMBOL, t, { maxExpirations: w.maxExpirations, strikeWindow: (k, s) => strikeWindow(k, s, w.maxStrikes) }))!;
      const whole = (await rec.chain(SYMBOL, t))!;
      expect(win.asOfMs).toBe(t);
      expect(win.strikeIndex.length).toBeLessThan(whole.strikeIndex.length);
      for (const metric of ["gamma", "vanna"] as const) {
        const grid = exposureGrid(win, { metric, ...w }, jsKernels);
        // The missing IVs were solved from the window's quotes, as from the whole board's.
        expect(grid.meta.contracts.ivSolved).toBeGreaterThan(0);
        expect(grid).toEqual(exposureGrid(whole, { metric, ...w }, jsKernels));
      }
    }
  }
  const wholeBoards: MarketData = { ...rec, chainWindow: undefined };
  const task = { symbol: SYMBOL, date: DATE, extended: false, nowMs: NOW, options: gridOptions(statsGridQuery("gamma")) };
  const stat = await replayStatsSession(rec, jsKernels, task);
  expect(stat?.frames).toBe(3);
  expect(stat).toEqual(await replayStatsSession(wholeBoards, jsKernels, task));
}

describe("windowed read of recorded boards", () => {
  let dir: string;
  const clock = fixedClock(NOW);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "optionscope-window-"));
    for (const b of BOARDS) writePendingBoard(recordedRoot(dir), b, false);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads only the rows before the window's last expiration ends, when rows are in expiration order", () => {
    const sorted = encodeBoard(BOARDS[0]).header;
    // Expiration blocks: 82 rows each, the last 18 (every fifth strike).
    expect(sorted.expEnd).toEqual([82, 164, 246, 328, 346]);
    // Nearest two unsettled expirations (1 and 2): rows up to the end of expiration 2.
    expect(boardWindowPlan(sorted, { maxExpirations: 2, strikeWindow: (k, s) => strikeWindow(k, s, 10) }).rowEnd).toBe(246);
    // Out of expiration order: no block ends, the whole board is read.
    const shuffled = encodeBoard(BOARDS[1]).header;
    expect(shuffled.expEnd).toBeUndefined();
    expect(boardWindowPlan(shuffled, { maxExpirations: 2, strikeWindow: (k, s) => strikeWindow(k, s, 10) }).rowEnd).toBe(shuffled.n);
  });

  it("gives the whole board's grids and statistics from the pending files", async () => {
    const rec = openRecordedMarket(dir, { clock });
    await expectWindowsMatch(rec);
    rec.close();
  });

  it("gives the whole board's grids and statistics after compaction, from the file and from kept boards", async () => {
    await compactPartition(recordedRoot(dir), DATE, SYMBOL);
    const rec = openRecordedMarket(dir, { clock });
    await expectWindowsMatch(rec); // windows read from the file (each board is decoded after its windows)
    await expectWindowsMatch(rec); // windows cut from the kept decoded boards
    rec.close();
  });
});
