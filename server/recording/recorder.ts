/**
 * The recorder: follows any `MarketData` (the simulator, a live feed) minute by minute and writes
 * what the analytics read into the store of record. For each symbol and each minute boundary of
 * the extended session (04:00-20:00 ET) it stores the spot, the bar that ended there and the
 * minute's option and off-exchange prints (one fsynced journal line), and in the regular session
 * (09:30-16:00, both ends) the board (one Parquet file, fsynced, renamed into place) first. A
 * minute is acknowledged (`onMinute`) only once both are durable, so a process killed at any
 * instant loses at most the minute in progress; after a restart recording resumes after the last
 * acknowledged minute. At each session's extended close the partition is compacted and sessions
 * older than the retention are deleted.
 * @see docs/data.md#recorder
 */
import type { MarketData, OffExchangePrint, OptionPrint } from "../../lib/market/market-data";
import type { MinuteRow } from "../../lib/market/recorded/record-codec";
import { etDateOf, isTradingDay, nextTradingDay, previousTradingDay, sessionBounds } from "../../lib/time";
import {
  applyRetention,
  compactPartition,
  isComplete,
  journalPath,
  JournalWriter,
  listDates,
  mergeManifest,
  readPending,
  recordedRoot,
  writePendingBoard,
  type CompactionResult,
} from "./store";

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
  const infos = universe.filter((s) => symbols.includes(s.ticker));
  mergeManifest(root, { simulated: market.simulated, symbols: infos });
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
  const journals = new Map<string, JournalWriter>();
  const earningsDone = new Set<string>();

  const journalOf = (date: string, symbol: string): JournalWriter => {
    const key = `${date}|${symbol}`;
    let j = journals.get(key);
    if (!j) {
      j = new JournalWriter(journalPath(root, date, symbol));
      journals.set(key, j);
    }
    return j;
  };

  const recordMinute = async (symbol: string, m: number): Promise<MinuteAck> => {
    const date = etDateOf(m);
    const ext = sessionBounds(date, { extended: true });
    const reg = sessionBounds(date);
    const full = !minutesOnly.has(symbol);
    if (fresh.delete(symbol)) {
      // A symbol's first minute ever: the spot at the previous session's close first (the previous
      // close every answer of this session is measured from), in this session's partition.
      const t = sessionBounds(previousTradingDay(date)).closeMs;
      const spot = await market.spot(symbol, t);
      const minute: MinuteRow = { t, spot, o: null, h: null, l: null, c: null, v: null, bv: null, sv: null, uv: null };
      journalOf(date, symbol).append({ t, minute, prints: [], off: [] });
    }
    if (full && !earningsDone.has(`${date}|${symbol}`)) {
      const to = new Date(Date.parse(`${date}T00:00:00Z`) + EARNINGS_AHEAD_DAYS * 86_400_000).toISOString().slice(0, 10);
      const events = await market.earnings(symbol, date, to);
      if (events.length > 0) mergeManifest(root, { simulated: market.simulated, symbols: [], earnings: { [symbol]: events } });
      earningsDone.add(`${date}|${symbol}`);
    }
    let bytes = 0;
    let board = false;
    if (full && m >= reg.openMs && m <= reg.closeMs) {
      const snap = await market.chain(symbol, m);
      // Only the board of this very minute (a market that has none answers an earlier one).
      if (snap && snap.asOfMs === m && snap.sessionDate === date) {
        bytes += writePendingBoard(root, snap);
        board = true;
      }
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
    bytes += journalOf(date, symbol).append({ t: m, minute, prints: prints as OptionPrint[], off: off as OffExchangePrint[] });
    return { symbol, t: m, board, bytes };
  };

  const finishSession = async (date: string, symbol: string) => {
    const key = `${date}|${symbol}`;
    journals.get(key)?.close();
    journals.delete(key);
    const result = await compactPartition(root, date, symbol);
    options.onSession?.(date, symbol, result);
    applyRetention(root, options.retentionDays ?? 0, date);
  };

  let stopped = false;
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

  return {
    catchUp,
    lastRecordedMs: (symbol) => last.get(symbol.toUpperCase()) ?? null,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
      for (const j of journals.values()) j.close();
      journals.clear();
    },
  };
}
