// Issue 33's recorder figures on a full SPXW session (about 21,500 contracts x 391 board minutes)
// of the simulated market: the recorder's CPU per SPXW minute (encoding, Parquet, durable write of
// the board and the minute's journal line; the simulator's own cost to make the board is left out),
// the session's store size once compacted, a cold replay of one recorded minute board, and a
// recorded full-session daily statistic (/v1/stats/daily's replay over the store); then the same
// boards and the extended session's through the recorder's worker thread: the recording thread's
// own time per minute and the store size with extended boards.
//
//   npx tsx bench/recording.bench.ts          (about four minutes: the session is recorded twice first)
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadKernels } from "../lib/kernels";
import { createSimulatedMarket, fixedClock } from "../lib/market";
import { etInstant, sessionBounds } from "../lib/time";
import { gridOptions } from "../server/modules/positioning/grid-route";
import { statsGridQuery } from "../server/modules/positioning/stats-daily";
import { replayStatsSession } from "../server/modules/positioning/stats-replay";
import { openRecordedMarket } from "../server/recording/recorded-market";
import { compactPartition, JournalWriter, journalPath, partitionBytes, recordedRoot, writePendingBoard } from "../server/recording/store";
import { createStoreWriter } from "../server/recording/writer";
import type { Suite, SuiteReport } from "./suites";

const DATE = "2025-03-05";
const SYMBOL = "SPXW";
const MB = 1_048_576;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** Records the session, then replays from the store; one row per figure. */
export async function runRecordingBench(): Promise<SuiteReport> {
  const dir = mkdtempSync(join(tmpdir(), "optionscope-recording-bench-"));
  try {
    const root = recordedRoot(dir);
    const nowMs = etInstant(DATE, "23:00");
    const market = createSimulatedMarket({ seed: 42, clock: fixedClock(nowMs) });
    const { openMs, closeMs } = sessionBounds(DATE);
    const journal = new JournalWriter(journalPath(root, DATE, SYMBOL));
    const perMinute: number[] = [];
    let contracts = 0;
    for (let t = openMs; t <= closeMs; t += 60_000) {
      const board = (await market.chain(SYMBOL, t))!;
      void board.oi;
      void board.volume;
      const prints = t > openMs ? await market.optionPrints(SYMBOL, t - 60_000, t) : [];
      const spot = await market.spot(SYMBOL, t);
      contracts = Math.max(contracts, board.strikeIndex.length);
      const c0 = cpuMs();
      writePendingBoard(root, board);
      journal.append({ t, minute: { t, spot, o: null, h: null, l: null, c: null, v: null, bv: null, sv: null, uv: null }, prints, off: [] });
      perMinute.push(cpuMs() - c0);
    }
    journal.close();

    // The same boards through the recorder's worker (server/recording/writer.ts), into another
    // store: the CPU the recording thread itself spends per minute (copying the board into the
    // message), and the extended session's boards (04:00-09:30, 16:01-20:00 ET) with their bytes.
    const other = join(dir, "worker");
    const otherRoot = recordedRoot(other);
    const writer = createStoreWriter();
    const postMs: number[] = [];
    const ext = sessionBounds(DATE, { extended: true });
    let extBoards = 0;
    for (let t = ext.openMs; t <= ext.closeMs; t += 60_000) {
      const regular = t >= openMs && t <= closeMs;
      const board = regular ? await market.chain(SYMBOL, t) : await market.chain(SYMBOL, t, { extended: true });
      if (!board || board.asOfMs !== t) continue;
      if (!regular) extBoards++;
      void board.oi;
      void board.volume;
      // CPU of the synchronous part (the copy into the message): the worker is idle until it arrives.
      const p0 = cpuMs();
      const done = writer.run<number>({ kind: "board", root: otherRoot, board });
      postMs.push(cpuMs() - p0);
      await done;
    }
    if (!writer.inWorker) throw new Error("the recorder's worker did not start");
    await writer.run({ kind: "compact", root: otherRoot, date: DATE, symbol: SYMBOL, retentionDays: 0 });
    await writer.close();
    const withExtendedBytes = partitionBytes(otherRoot, DATE, SYMBOL);
    const pendingBytes = partitionBytes(root, DATE, SYMBOL);
    const c0 = cpuMs();
    await compactPartition(root, DATE, SYMBOL);
    const compactCpu = cpuMs() - c0;
    const sessionBytes = partitionBytes(root, DATE, SYMBOL);

    // Cold: boards never read before (no decoded board kept), at spread-out minutes, the session's
    // file open; its first read (which opens the file and reads its footer) apart.
    const cold: number[] = [];
    const rec0 = openRecordedMarket(dir, { clock: fixedClock(nowMs) });
    let w0 = performance.now();
    await rec0.chain(SYMBOL, closeMs);
    const firstRead = performance.now() - w0;
    for (let i = 1; i <= 30; i++) {
      const t = openMs + ((i * 97) % 390) * 60_000;
      w0 = performance.now();
      const b = await rec0.chain(SYMBOL, t);
      cold.push(performance.now() - w0);
      if (b?.asOfMs !== t) throw new Error(`replayed board at ${t} is ${b?.asOfMs}`);
    }
    rec0.close();

    const engine = await loadKernels({ engine: "auto" });
    const options = gridOptions(statsGridQuery("gamma"));
    const stats: number[] = [];
    let frames = 0;
    for (let i = 0; i < 2; i++) {
      const rec = openRecordedMarket(dir, { clock: fixedClock(nowMs) });
      w0 = performance.now();
      const stat = await replayStatsSession(rec, engine, { symbol: SYMBOL, date: DATE, extended: false, nowMs, options });
      stats.push(performance.now() - w0);
      frames = stat?.frames ?? 0;
      rec.close();
    }

    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const table = [
      { figure: "recording CPU per SPXW minute (mean ms)", value: Number(mean(perMinute).toFixed(1)), target: "<= 200" },
      { figure: "recording CPU per SPXW minute (p99 ms)", value: Number(quantile(perMinute, 0.99).toFixed(1)), target: "" },
      { figure: "store size per SPXW session, compacted (MB)", value: Number((sessionBytes / MB).toFixed(1)), target: "<= 150" },
      { figure: "store size before compaction (MB)", value: Number((pendingBytes / MB).toFixed(1)), target: "" },
      { figure: `store size with the extended session's ${extBoards} boards, boards only (MB)`, value: Number((withExtendedBytes / MB).toFixed(1)), target: "" },
      { figure: "recording thread's CPU per SPXW minute, worker (mean ms)", value: Number(mean(postMs).toFixed(2)), target: "" },
      { figure: "recording thread's CPU per SPXW minute, worker (p99 ms)", value: Number(quantile(postMs, 0.99).toFixed(2)), target: "" },
      { figure: "compaction CPU (ms)", value: Number(compactCpu.toFixed(0)), target: "" },
      { figure: "replay of a minute board, cold (mean ms)", value: Number(mean(cold).toFixed(1)), target: "<= 20" },
      { figure: "replay of a minute board, cold (p99 ms)", value: Number(quantile(cold, 0.99).toFixed(1)), target: "" },
      { figure: "first read of a session (opens its file, ms)", value: Number(firstRead.toFixed(1)), target: "" },
      { figure: `recorded full-session daily statistic (${frames} frames, best ms)`, value: Number(Math.min(...stats).toFixed(0)), target: "<= 1000" },
    ];
    const checks = [
      { name: "recording CPU per SPXW minute", pass: mean(perMinute) <= 200, detail: `${mean(perMinute).toFixed(1)} ms mean` },
      { name: "store size per SPXW session", pass: sessionBytes <= 150 * MB, detail: `${(sessionBytes / MB).toFixed(1)} MB` },
      { name: "cold replay of a minute board", pass: mean(cold) <= 20, detail: `${mean(cold).toFixed(1)} ms mean` },
      { name: "recorded full-session daily statistic", pass: Math.min(...stats) <= 1000, detail: `${Math.min(...stats).toFixed(0)} ms` },
    ];
    const notes = [
      `${SYMBOL} ${DATE}, seed 42, ${contracts} contracts at most per board, ${perMinute.length} boards; ${engine.name} engine; load average ${loadavg()[0].toFixed(2)} at the end`,
      `bytes per ${SYMBOL} session ${sessionBytes} (${(sessionBytes / perMinute.length / contracts).toFixed(1)} B per contract-minute)`,
    ];
    return { table, checks, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The suite for bench/run.ts. */
export const recordingSuite: Suite = { name: "recording", run: runRecordingBench };

const isMain = typeof process !== "undefined" && process.argv[1]?.endsWith("recording.bench.ts");
if (isMain) {
  runRecordingBench().then(
    (r) => {
      console.table(r.table);
      for (const n of r.notes) console.log(n);
      for (const c of r.checks) console.log(`${c.pass ? "PASS" : "FAIL"} ${c.name}: ${c.detail}`);
    },
    (err) => {
      console.error(err);
      process.exitCode = 2;
    },
  );
}
