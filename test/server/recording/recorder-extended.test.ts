// Issue 33, the recorder's remaining parts: its encoding and writes run in a worker thread; one
// recorder per store (the second is told who holds it; a dead holder's lock is taken over); the
// extended session's boards are recorded and replay as the simulator served them, without leaking
// into regular-session answers; /v1/historical/range and the chart marks read only a window of
// each recorded board (bytes read counted, not timed) and answer what whole boards give.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatedMarket, fixedClock } from "../../../lib/market";
import type { MarketData } from "../../../lib/market/market-data";
import { etInstant, sessionBounds } from "../../../lib/time";
import { openFillLease } from "../../../server/daily-store/lease";
import { RECORDER_LEASE_FILE } from "../../../server/recording/lock";
import { parquetBytesRead } from "../../../server/recording/parquet-io";
import { openRecordedMarket } from "../../../server/recording/recorded-market";
import { RecordingError, startRecording, type MinuteAck } from "../../../server/recording/recorder";
import { compactPartition, recordedRoot } from "../../../server/recording/store";
import { createStoreWriter } from "../../../server/recording/writer";
import { makeHarness } from "../_harness";

const DATE = "2024-03-06";
const FROM = etInstant(DATE, "09:26");
const NOW = etInstant(DATE, "09:50");
// SPY: about 10,400 contracts a board, several data pages a column (a window's prefix is fewer).
const SYMBOL = "SPY";
const iso = (ms: number) => new Date(ms).toISOString();

/** Status and body (meta's per-request fields aside) of each path on an app over `market`. */
async function answers(market: MarketData, paths: readonly string[]): Promise<string[]> {
  const h = makeHarness({ market, credits: 10_000, nowMs: NOW });
  const out: string[] = [];
  for (const p of paths) {
    const res = await h.get(p);
    const body = (await res.json()) as { data?: unknown; meta?: Record<string, unknown>; error?: unknown };
    const { requestId: _r, creditsRemaining: _c, ...meta } = body.meta ?? {};
    out.push(`${res.status} ${JSON.stringify({ data: body.data, meta, error: body.error })}`);
  }
  return out;
}

/** Answers of `paths` on a fresh recorded market (nothing decoded before), and the store bytes read for them. */
async function measured(dir: string, paths: readonly string[], windowed: boolean): Promise<{ out: string[]; bytes: number }> {
  const rec = openRecordedMarket(dir, { clock: fixedClock(NOW) });
  // Without `chainWindow` the routes read whole boards (as before the windowed read).
  const market: MarketData = windowed ? rec : { ...rec, chainWindow: undefined };
  // What is read once per session, not per board, read first: the boards file's footer (by a
  // window at a minute the paths do not read) and the session's tables (prints, spot), kept.
  await rec.chainWindow(SYMBOL, etInstant(DATE, "09:36"), { maxExpirations: 1, strikeWindow: () => ({ lo: 0, hi: 1 }) });
  const { openMs } = sessionBounds(DATE, { extended: true });
  await Promise.all([rec.optionPrints(SYMBOL, openMs, NOW), rec.offExchangePrints([SYMBOL], openMs, NOW), rec.spot(SYMBOL, NOW)]);
  const before = parquetBytesRead();
  const out = await answers(market, paths);
  const bytes = parquetBytesRead() - before;
  rec.close();
  return { out, bytes };
}

/**
 * An extended-session board replays as the simulator served it (its arrays, and /v1/historical
 * with extended=true byte for byte), while regular-session answers never see it.
 */
async function expectExtendedReplay(dir: string): Promise<void> {
  const clock = fixedClock(NOW);
  const sim = createSimulatedMarket({ seed: 7, clock });
  const pre = etInstant(DATE, "09:27");
  const paths = [
    `/v1/historical?symbols=${SYMBOL}&at=${iso(pre + 20_000)}&extended=true`,
    `/v1/historical?symbols=${SYMBOL}&at=${iso(etInstant(DATE, "09:45"))}&extended=true`,
  ];
  const live = await answers(sim, paths);
  expect(live.filter((a) => !a.startsWith("200 "))).toEqual([]);
  const rec = openRecordedMarket(dir, { clock });
  const got = (await rec.chain(SYMBOL, pre, { extended: true }))!;
  const want = (await sim.chain(SYMBOL, pre, { extended: true }))!;
  expect(got.asOfMs).toBe(pre);
  for (const k of ["bid", "ask", "iv", "oi", "volume"] as const) expect(Array.from(got[k])).toEqual(Array.from(want[k]));
  // Regular session: 09:27 is before the open, so the answer is the previous close's board (not recorded).
  expect(await rec.chain(SYMBOL, pre)).toBeNull();
  expect((await rec.chain(SYMBOL, etInstant(DATE, "09:31")))!.asOfMs).toBe(etInstant(DATE, "09:31"));
  expect(await answers(rec, paths)).toEqual(live);
  rec.close();
}

/** /v1/historical/range and /v1/marks answer what whole boards give, reading a fraction of their bytes. */
async function expectWindowedBytes(dir: string): Promise<void> {
  const fromS = Math.floor(etInstant(DATE, "09:30") / 1000);
  const range = [`/v1/historical/range?symbols=${SYMBOL}&from=${iso(etInstant(DATE, "09:38"))}&to=${iso(etInstant(DATE, "09:48"))}`];
  const marks = [`/atlas/v1/marks?symbol=${SYMBOL}&from=${fromS}&to=${fromS + 1800}&resolution=5`];
  for (const paths of [range, marks]) {
    const win = await measured(dir, paths, true);
    const whole = await measured(dir, paths, false);
    expect(win.out[0].startsWith("200 "), win.out[0].slice(0, 300)).toBe(true);
    expect(win.out).toEqual(whole.out);
    expect(whole.bytes).toBeGreaterThan(0);
    // Only the pages of the window's rows (a prefix: the nearest expirations) and columns: about
    // 30 % of the whole boards' bytes on SPY.
    expect(win.bytes).toBeLessThan(whole.bytes * 0.4);
  }
}

describe("the recorder off the loop, locked, with extended boards", () => {
  let dir: string;
  const clock = fixedClock(NOW);
  const sim = createSimulatedMarket({ seed: 7, clock });
  const acks: MinuteAck[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "optionscope-extended-"));
    const rec = await startRecording(sim, { dataDir: dir, underlyings: [SYMBOL], fromMs: FROM, pollMs: 0, onMinute: (a) => acks.push(a) });
    // While it holds the store, a second recorder is refused, naming the holder.
    const second = startRecording(sim, { dataDir: dir, underlyings: [SYMBOL], fromMs: FROM, pollMs: 0 });
    await expect(second).rejects.toThrow(RecordingError);
    await expect(second).rejects.toThrow(`pid ${process.pid} on host ${hostname()}`);
    await rec.catchUp();
    await rec.stop();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes boards in a worker thread, readable as written", async () => {
    const w = createStoreWriter();
    const root = join(dir, "writer");
    const board = (await sim.chain("AAPL", NOW))!;
    const bytes = await w.run<number>({ kind: "board", root: recordedRoot(root), board });
    expect(w.inWorker).toBe(true);
    expect(w.stats()?.completed).toBe(1);
    expect(bytes).toBeGreaterThan(0);
    await w.close();
    const back = (await openRecordedMarket(root, { clock }).chain("AAPL", NOW))!;
    expect(Array.from(back.bid)).toEqual(Array.from(board.bid));
    expect(Array.from(back.oi)).toEqual(Array.from(board.oi));
  });

  it("takes over a lock left by a process that is gone, and releases its own on stop", async () => {
    const other = join(dir, "stale");
    // A recorder that died holding the lock: a pid that has exited, on this host.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    mkdirSync(recordedRoot(other), { recursive: true });
    const lease = openFillLease(join(recordedRoot(other), RECORDER_LEASE_FILE), { pid: dead });
    expect(lease.take().held).toBe(true);
    lease.close();
    const rec = await startRecording(sim, { dataDir: other, underlyings: ["AAPL"], fromMs: NOW, pollMs: 0 });
    await rec.stop();
    // Released: the next one starts at once.
    const again = await startRecording(sim, { dataDir: other, underlyings: ["AAPL"], fromMs: NOW, pollMs: 0 });
    await again.stop();
  });

  it("records a board at every minute, the extended session's included", () => {
    const times = Array.from({ length: (NOW - FROM) / 60_000 + 1 }, (_, i) => FROM + i * 60_000);
    expect(acks.filter((a) => a.symbol === SYMBOL).map((a) => a.t)).toEqual(times);
    expect(acks.filter((a) => a.board).map((a) => a.t)).toEqual(times);
  });

  it("from the pending files: an extended board replays as the simulator served it; range and marks read windows", async () => {
    await expectExtendedReplay(dir);
    await expectWindowedBytes(dir);
  });

  it("after compaction: the same", async () => {
    await compactPartition(recordedRoot(dir), DATE, SYMBOL);
    await expectExtendedReplay(dir);
    await expectWindowedBytes(dir);
  });
});
