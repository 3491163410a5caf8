/**
 * The recorder: follows any `MarketData` (the simulator, a live feed) minute by minute and writes
 * what the analytics read into the store of record. For each symbol and each minute boundary of
 * the extended session (04:00-20:00 ET) it stores the spot, the bar that ended there and the
 * minute's option and off-exchange prints (one fsynced journal line), and the board of that very
 * minute (one Parquet file, fsynced, renamed into place) first: in the regular session (09:30-16:00,
 * both ends) and, where the market quotes them, the extended session's boards too. A minute is
 * acknowledged (`onMinute`) only once both are durable, so a process killed at any instant loses
 * at most the minute in progress; after a restart recording resumes after the last acknowledged
 * minute. At each session's extended close the partition is compacted and sessions older than the
 * retention are deleted. Encoding, writes and compaction run in a worker thread (writer.ts); one
 * recorder per store at a time (a lease, lock.ts).
 * @see docs/data.md#recorder
 */
import type { ChainSnapshot, MarketData, OffExchangePrint, OptionPrint } from "../../lib/market/market-data";
import type { MinuteRow } from "../../lib/market/recorded/record-codec";
import { etDateOf, isTradingDay, nextTradingDay, previousTradingDay, sessionBounds } from "../../lib/time";
import { tryRecorderLock } from "./lock";
import { isComplete, journalPath, listDates, mergeManifest, readPending, recordedRoot, type CompactionResult, type JournalLine } from "./store";
import type { CompactOutcome } from "./write-task";
import { createStoreWriter } from "./writer";

const MINUTE_MS = 60_000;
/** Days of the earnings calendar stored ahead of each recorded session. */
const EARNINGS_AHEAD_DAYS = 180;

/** A minute made durable. */
export interface MinuteAck {
  symbol: string;
  /** The minute boundary, ms. */
  t: number;
  /** Whether a board was stored for it (regular session minutes). */
  board: boolean;
  /** Bytes written for the minute (board file and journal line). */
  bytes: number;
}

/** Options of `startRecording`. */
export interface RecordingOptions {
  /** Data directory; the store is its `recorded/` folder. */
  dataDir: string;
  /** Symbols to record (universe tickers or option roots, as `MarketData.chain` takes them). */
  underlyings: readonly string[];
  /** Sessions older than this many calendar days are deleted (0 or absent: kept forever). */
  retentionDays?: number;
  /** First minute boundary to record when the store has nothing of a symbol (default the clock's current minute). */
  fromMs?: number;
  /** How often the clock is looked at, ms (default 5000). */
  pollMs?: number;
  /** Called once per minute and symbol made durable. */
  onMinute?: (ack: MinuteAck) => void;
  /** Called when a session's partition has been compacted. */
  onSession?: (date: string, symbol: string, result: CompactionResult) => void;
  /** Called with an error of one minute (the minute is tried again at the next poll). */
  onError?: (error: unknown) => void;
  /**
   * Boards of the extended session's minutes too (04:00-09:30 and 16:00-20:00 ET), where the market
   * quotes them (`chain(symbol, t, { extended: true })` answers a board of that very minute); default
   * true. docs/data.md#recorder
   */
  extendedBoards?: boolean;
  /** Encoding, writes and compaction in a worker thread (default true; false: in this thread). */
  worker?: boolean;
}

/** A running recorder. */
export interface RecordingHandle {
  /** Records every minute up to the clock's now; resolves when caught up. */
  catchUp(): Promise<void>;
  /** The last acknowledged minute boundary of a symbol (null before the first). */
  lastRecordedMs(symbol: string): number | null;
  /** Stops after the minute in progress; resolves once stopped. */
  stop(): Promise<void>;
}

/** Thrown for options the recorder cannot start with (an unknown symbol). */
export class RecordingError extends Error {
  readonly code = "recording_failed";
  constructor(message: string) {
    super(message);
    this.name = "RecordingError";
  }
}

/** The first minute boundary at or after `m` inside an extended session (04:00-20:00 ET). */
export function nextRecordedBoundary(m: number): number {
  let date = etDateOf(m);
  for (let i = 0; i < 20; i++) {
    if (isTradingDay(date)) {
      const { openMs, closeMs } = sessionBounds(date, { extended: true });
      if (m <= openMs) return openMs;
      if (m <= closeMs) return openMs + Math.ceil((m - openMs) / MINUTE_MS) * MINUTE_MS;
    }
    date = nextTradingDay(date);
  }
  return Number.POSITIVE_INFINITY;
}

/** Where a symbol's recording resumes: after its last acknowledged minute, or null when it has none. */
function resumePoint(root: string, symbol: string): number | null {
  const dates = listDates(root);
  for (let i = dates.length - 1; i >= 0; i--) {
    const date = dates[i];
    if (isComplete(root, date, symbol)) return sessionBounds(date, { extended: true }).closeMs + MINUTE_MS;
    const { lines } = readPending(root, date, symbol);
    if (lines.length > 0) return lines[lines.length - 1].t + MINUTE_MS;
  }
  return null;
}

/**
 * Starts recording `options.underlyings` from `market` into `options.dataDir`.
 * @example
 * const rec = await startRecording(market, { dataDir: ".optionscope", underlyings: ["SPXW", "SPY"], retentionDays: 400 });
 * // ... later
 * await rec.stop();
 * @see docs/data.md#recorder
 */
export async function startRecording(market: MarketData, options: RecordingOptions): Promise<RecordingHandle> {
  const root = recordedRoot(options.dataDir);
  const symbols = [...new Set(options.underlyings.map((s) => s.trim().toUpperCase()).filter((s) => s !== ""))];
  if (symbols.length === 0) throw new RecordingError("no underlyings to record: give one or more symbols");
  const universe = await market.universe();
  const known = new Map(universe.map((s) => [s.ticker, s]));
  const unknown = symbols.filter((s) => !known.has(s));
  if (unknown.length > 0) throw new RecordingError(`unknown underlying ${unknown.join(", ")}: not in the market's universe (${universe.length} symbols)`);
  let stopped = false;
  // One recorder per store: taken before anything is written (throws a RecordingError naming the holder).
  const took = tryRecorderLock(root, (error) => {
    stopped = true;
    options.onError?.(new RecordingError(error.message));
  });
  if (!took.held) throw new RecordingError(took.message);
  const lock = took.lock;
  const writer = createStoreWriter({ worker: options.worker });
  const extendedBoards = options.extendedBoards !== false;
  const infos = universe.filter((s) => symbols.includes(s.ticker));
  try {
    mergeManifest(root, { simulated: market.simulated, symbols: infos });
  } catch (error) {
    lock.release();
    throw error;
  }
  // The underlying tickers' spot and bars too (an SPXW board's previous close is SPX's), minutes only.
  const minutesOnly = new Set(infos.map((s) => s.underlying).filter((u) => !symbols.includes(u) && known.has(u)));
  const targets = [...symbols, ...minutesOnly];

  const pollMs = options.pollMs ?? 5000;
  const startAt = options.fromMs ?? Math.floor(market.clock.now() / MINUTE_MS) * MINUTE_MS;
  const next = new Map<string, number>();
  const last = new Map<string, number>();
  const fresh = new Set<string>();
  for (const s of targets) {
    const resume = resumePoint(root, s);
    if (resume === null) fresh.add(s);
    next.set(s, nextRecordedBoundary(resume ?? startAt));
  }
  const earningsDone = new Set<string>();
  const appendLine = (date: string, symbol: string, line: JournalLine) => writer.run<number>({ kind: "journal", path: journalPath(root, date, symbol), line });

  /** The board of minute `m` itself, or null (a market that has none answers an earlier one). */
  const boardOf = async (symbol: string, m: number, date: string): Promise<ChainSnapshot | null> => {
    const reg = sessionBounds(date);
    const regular = m >= reg.openMs && m <= reg.closeMs;
    if (!regular && !extendedBoards) return null;
    // Inside the regular session the extended board is the regular one (docs/methodology.md#extended-hours-boards).
    const snap = regular ? await market.chain(symbol, m) : await market.chain(symbol, m, { extended: true });
    return snap && snap.asOfMs === m && snap.sessionDate === date ? snap : null;
  };

  const recordMinute = async (symbol: string, m: number): Promise<MinuteAck> => {
    const date = etDateOf(m);
    const ext = sessionBounds(date, { extended: true });
    const full = !minutesOnly.has(symbol);
    if (fresh.delete(symbol)) {
      // A symbol's first minute ever: the spot at the previous session's close first (the previous
      // close every answer of this session is measured from), in this session's partition.
      const t = sessionBounds(previousTradingDay(date)).closeMs;
      const spot = await market.spot(symbol, t);
      const minute: MinuteRow = { t, spot, o: null, h: null, l: null, c: null, v: null, bv: null, sv: null, uv: null };
      await appendLine(date, symbol, { t, minute, prints: [], off: [] });
    }
    if (full && !earningsDone.has(`${date}|${symbol}`)) {
      const to = new Date(Date.parse(`${date}T00:00:00Z`) + EARNINGS_AHEAD_DAYS * 86_400_000).toISOString().slice(0, 10);
      const events = await market.earnings(symbol, date, to);
      if (events.length > 0) mergeManifest(root, { simulated: market.simulated, symbols: [], earnings: { [symbol]: events } });
      earningsDone.add(`${date}|${symbol}`);
    }
    let bytes = 0;
    let board = false;
    const snap = full ? await boardOf(symbol, m, date) : null;
    if (snap) {
      bytes += await writer.run<number>({ kind: "board", root, board: snap });
      board = true;
    }
    const from = m - MINUTE_MS;
    const [spot, bars, prints, off] = await Promise.all([
      market.spot(symbol, m),
      from >= ext.openMs ? market.minuteBars(symbol, from, m, { extended: true }) : null,
      full ? market.optionPrints(symbol, from, m) : [],
      full ? market.offExchangePrints([symbol], from, m) : [],
    ]);
    const i = bars ? bars.t.indexOf(from) : -1;
    const minute: MinuteRow =
      bars && i >= 0
        ? { t: m, spot, o: bars.o[i], h: bars.h[i], l: bars.l[i], c: bars.c[i], v: bars.v[i], bv: bars.bv[i], sv: bars.sv[i], uv: bars.uv[i] }
        : { t: m, spot, o: null, h: null, l: null, c: null, v: null, bv: null, sv: null, uv: null };
    bytes += await appendLine(date, symbol, { t: m, minute, prints: prints as OptionPrint[], off: off as OffExchangePrint[] });
    return { symbol, t: m, board, bytes };
  };

  const finishSession = async (date: string, symbol: string) => {
    await writer.run({ kind: "close-journals", paths: [journalPath(root, date, symbol)] });
    const { result } = await writer.run<CompactOutcome>({ kind: "compact", root, date, symbol, retentionDays: options.retentionDays ?? 0 });
    options.onSession?.(date, symbol, result);
  };

  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const runOnce = async (): Promise<void> => {
    const now = market.clock.now();
    for (const symbol of targets) {
      let m = next.get(symbol)!;
      while (!stopped && m <= now) {
        try {
          const ack = await recordMinute(symbol, m);
          last.set(symbol, m);
          options.onMinute?.(ack);
          const date = etDateOf(m);
          if (m === sessionBounds(date, { extended: true }).closeMs) await finishSession(date, symbol);
        } catch (error) {
          options.onError?.(error);
          break;
        }
        m = nextRecordedBoundary(m + MINUTE_MS);
        next.set(symbol, m);
      }
    }
  };

  const catchUp = (): Promise<void> => {
    running = (running ?? Promise.resolve()).then(runOnce);
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void catchUp().finally(schedule);
    }, pollMs);
    timer.unref?.();
  };
  // pollMs 0: no timer, the caller drives `catchUp` (tests, a pinned clock).
  if (options.pollMs !== 0) void catchUp().finally(schedule);

  let stopping: Promise<void> | null = null;
  return {
    catchUp,
    lastRecordedMs: (symbol) => last.get(symbol.toUpperCase()) ?? null,
    stop: () => {
      stopping ??= (async () => {
        stopped = true;
        if (timer) clearTimeout(timer);
        await running?.catch(() => {});
        await writer.close();
        lock.release();
      })();
      return stopping;
    },
  };
}
