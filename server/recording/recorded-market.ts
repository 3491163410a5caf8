/**
 * `openRecordedMarket(dataDir)`: a `MarketData` over the store of record, so replay,
 * `/v1/historical/range`, daily statistics, flow history, RVOL baselines and volatility history
 * run over what was recorded (or imported). It answers what was stored, nothing more: a minute
 * that was not recorded is a gap (the board before it, with its own `asOfMs`), never filled in.
 * @see docs/data.md#replay-over-the-store
 */
import { systemClock } from "../../lib/market/clock";
import { boardWindowPlan, sliceBoardWindow } from "../../lib/market/recorded/board-codec";
import type { MinuteRow } from "../../lib/market/recorded/record-codec";
import type {
  ChainOptions,
  ChainSnapshot,
  ChainWindow,
  Clock,
  EarningsEvent,
  IsoDate,
  MarketData,
  MinuteBars,
  MinuteBarsOptions,
  OffExchangePrint,
  OptionPrint,
  SymbolInfo,
} from "../../lib/market/market-data";
import { etDateOf, isTradingDay, previousTradingDay, sessionBounds } from "../../lib/time";
import { LruCache } from "../cache/lru-cache";
import { listDates, openPartition, readManifest, recordedRoot, type PartitionReader, type StoreManifest } from "./store";

const MINUTE_MS = 60_000;
/** How long a read manifest is used before it is read again, wall-clock ms. */
const MANIFEST_TTL_MS = 5_000;

/** Options of `openRecordedMarket`. */
export interface RecordedMarketOptions {
  /** Source of "now"; nothing after it is returned. Default the system clock. */
  clock?: Clock;
  /** Bytes of decoded boards kept in memory (default 256 MB). */
  boardCacheBytes?: number;
}

/** A recorded market: `MarketData` plus what the store holds. */
export interface RecordedMarket extends MarketData {
  readonly dataDir: string;
  /** Recorded session dates, ascending. */
  dates(): IsoDate[];
  chainWindow(symbol: string, atMs: number, window: ChainWindow, options?: ChainOptions): Promise<ChainSnapshot | null>;
  /** Closes open files. */
  close(): void;
}

const boardBytes = (b: ChainSnapshot) => b.strikeIndex.length * 61 + b.strikes.length * 8 + 1024;

/**
 * Opens the store of record in `dataDir` (the folder `recorded/` inside it) as a market.
 * @example const market = openRecordedMarket(".optionscope"); await market.chain("SPXW", Date.parse("2024-03-06T15:00:00Z"));
 * @see docs/data.md#replay-over-the-store
 */
export function openRecordedMarket(dataDir: string, options: RecordedMarketOptions = {}): RecordedMarket {
  const root = recordedRoot(dataDir);
  const clock = options.clock ?? systemClock;
  // The manifest grows while a recorder runs beside this market: read again after MANIFEST_TTL_MS.
  let manifest: StoreManifest | null = readManifest(root);
  let manifestReadAt = Date.now();
  const manifestNow = (): StoreManifest => {
    if (manifest === null || Date.now() - manifestReadAt > MANIFEST_TTL_MS) {
      manifest = readManifest(root) ?? manifest;
      manifestReadAt = Date.now();
    }
    return manifest ?? { format: 1, simulated: false, symbols: [], earnings: {} };
  };
  // Finished partitions never change: kept open. Pending ones are reopened on each read (they grow).
  const complete = new Map<string, PartitionReader>();
  const partition = (date: string, symbol: string): PartitionReader | null => {
    const key = `${date}|${symbol}`;
    const kept = complete.get(key);
    if (kept) return kept;
    const p = openPartition(root, date, symbol);
    if (p?.complete) complete.set(key, p);
    return p;
  };
  const boards = new LruCache<string, ChainSnapshot>({ maxBytes: options.boardCacheBytes ?? 256 * 1024 * 1024, sizeOf: boardBytes });
  const tables = new LruCache<string, unknown[]>({ maxBytes: 256 * 1024 * 1024, sizeOf: (v) => v.length * 200 + 64 });

  const simulated = () => manifestNow().simulated;
  const dates = (): string[] => listDates(root);

  /** The board instant (regular or extended session bounds) `chain` answers for `t` (docs/methodology.md#recorded-market). */
  const boardTarget = (t: number, extended: boolean): { date: string; atMs: number } | null => {
    let date = etDateOf(t);
    for (let i = 0; i < 15; i++) {
      if (isTradingDay(date)) {
        const { openMs, closeMs } = sessionBounds(date, { extended });
        if (t >= openMs) return { date, atMs: t >= closeMs ? closeMs : openMs + Math.floor((t - openMs) / MINUTE_MS) * MINUTE_MS };
      }
      date = previousTradingDay(date);
      t = Number.POSITIVE_INFINITY;
    }
    return null;
  };

  const readBoard = async (p: PartitionReader, date: string, symbol: string, asOfMs: number): Promise<ChainSnapshot | null> => {
    const key = `${symbol}|${asOfMs}`;
    const hit = boards.get(key);
    if (hit) return cloneBoard(hit);
    const b = await p.readBoard(asOfMs);
    if (b && p.complete) boards.set(key, b);
    void date;
    return b ? (p.complete ? cloneBoard(b) : b) : null;
  };

  /**
   * The latest recorded board at or before the board instant of `atMs`: in its session, else an
   * earlier one; only boards inside the session's bounds of the asked kind count (a partition also
   * holds extended-session boards: docs/methodology.md#recorded-market).
   */
  const locate = (symbol: string, atMs: number, opts: ChainOptions): { p: PartitionReader; date: string; asOfMs: number } | null => {
    if (!Number.isFinite(atMs)) return null;
    const extended = opts.extended === true;
    const target = boardTarget(Math.min(atMs, clock.now()), extended);
    if (!target) return null;
    const all = dates();
    for (let i = upperBound(all, target.date) - 1; i >= 0; i--) {
      const date = all[i];
      const p = partition(date, symbol);
      if (!p) continue;
      const times = p.boardTimes;
      const { openMs, closeMs } = sessionBounds(date, { extended });
      const j = upperBound(times, date === target.date ? target.atMs : closeMs) - 1;
      if (j >= 0 && times[j] >= openMs) return { p, date, asOfMs: times[j] };
    }
    return null;
  };

  const chain = async (symbol: string, atMs: number, opts: ChainOptions = {}): Promise<ChainSnapshot | null> => {
    const at = locate(symbol, atMs, opts);
    return at ? readBoard(at.p, at.date, symbol, at.asOfMs) : null;
  };

  /**
   * `MarketData.chainWindow`: the same board as `chain`, only the window's rows, read from the
   * store without decoding the rest (or cut from the decoded board when it is kept). docs/data.md#windowed-reads
   */
  const chainWindow = async (symbol: string, atMs: number, window: ChainWindow, opts: ChainOptions = {}): Promise<ChainSnapshot | null> => {
    const at = locate(symbol, atMs, opts);
    if (!at) return null;
    const hit = boards.get(`${symbol}|${at.asOfMs}`);
    if (hit) return sliceBoardWindow(hit, boardWindowPlan({ ...hit, n: hit.strikeIndex.length }, window));
    return at.p.readBoardWindow(at.asOfMs, window);
  };

  /** A symbol's recorded rows of a table on one date (cached when the partition is finished). */
  const tableOf = async <T>(kind: "minutes" | "prints" | "off", date: string, symbol: string): Promise<T[]> => {
    const key = `${kind}|${date}|${symbol}`;
    const hit = tables.get(key);
    if (hit) return hit as T[];
    const p = partition(date, symbol);
    if (!p) return [];
    const rows = (kind === "minutes" ? await p.minutes() : kind === "prints" ? await p.prints() : await p.off()) as T[];
    if (p.complete) tables.set(key, rows as unknown[]);
    return rows;
  };

  /** Recorded dates whose sessions may hold instants in `[fromMs, toMs)`. */
  const datesIn = (fromMs: number, toMs: number): string[] => {
    const from = etDateOf(fromMs);
    const to = etDateOf(Math.max(fromMs, toMs - 1));
    return dates().filter((d) => d >= from && d <= to);
  };

  const spot = async (symbol: string, atMs: number): Promise<number | null> => {
    if (!Number.isFinite(atMs)) return null;
    const t = Math.min(atMs, clock.now());
    const all = dates();
    // From the next session's partition down: a partition may open with its previous close.
    for (let i = Math.min(upperBound(all, etDateOf(t)), all.length - 1); i >= 0; i--) {
      const rows = await tableOf<MinuteRow>("minutes", all[i], symbol);
      for (let j = upperBoundBy(rows, t, (r) => r.t) - 1; j >= 0; j--) {
        const s = rows[j].spot;
        if (s !== null) return s;
      }
    }
    return null;
  };

  const minuteBars = async (ticker: string, fromMs: number, toMs: number, opts: MinuteBarsOptions = {}): Promise<MinuteBars> => {
    const extended = opts.extended === true;
    const endMs = Math.min(toMs, clock.now() - MINUTE_MS + 1);
    const cols = {
      t: [] as number[],
      o: [] as number[],
      h: [] as number[],
      l: [] as number[],
      c: [] as number[],
      v: [] as number[],
      bv: [] as number[],
      sv: [] as number[],
      uv: [] as number[],
    };
    if (endMs > fromMs) {
      for (const date of datesIn(fromMs, endMs)) {
        const { openMs, closeMs } = sessionBounds(date);
        for (const r of await tableOf<MinuteRow>("minutes", date, ticker)) {
          if (r.o === null) continue;
          const start = r.t - MINUTE_MS;
          if (start < fromMs || start >= endMs) continue;
          if (!extended && (start < openMs || start >= closeMs)) continue;
          cols.t.push(start);
          cols.o.push(r.o);
          cols.h.push(r.h ?? Number.NaN);
          cols.l.push(r.l ?? Number.NaN);
          cols.c.push(r.c ?? Number.NaN);
          cols.v.push(r.v ?? 0);
          cols.bv.push(r.bv ?? 0);
          cols.sv.push(r.sv ?? 0);
          cols.uv.push(r.uv ?? 0);
        }
      }
    }
    const f = (a: number[]) => Float64Array.from(a);
    return {
      ticker,
      extended,
      simulated: simulated(),
      t: f(cols.t),
      o: f(cols.o),
      h: f(cols.h),
      l: f(cols.l),
      c: f(cols.c),
      v: f(cols.v),
      bv: f(cols.bv),
      sv: f(cols.sv),
      uv: f(cols.uv),
    };
  };

  const optionPrints = async (ticker: string, fromMs: number, toMs: number): Promise<OptionPrint[]> => {
    const end = Math.min(toMs, clock.now());
    if (!(end > fromMs)) return [];
    const out: OptionPrint[] = [];
    for (const date of datesIn(fromMs, end)) {
      const rows = await tableOf<OptionPrint>("prints", date, ticker);
      for (let i = lowerBoundBy(rows, fromMs, (r) => r.tsMs); i < rows.length && rows[i].tsMs < end; i++) out.push(rows[i]);
    }
    return out;
  };

  const offExchangePrints = async (tickers: readonly string[] | null, fromMs: number, toMs: number): Promise<OffExchangePrint[]> => {
    const end = Math.min(toMs, clock.now());
    if (!(end > fromMs)) return [];
    const out: OffExchangePrint[] = [];
    const names = tickers ?? manifestNow().symbols.map((s) => s.ticker);
    for (const date of datesIn(fromMs, end)) {
      for (const ticker of names) {
        const rows = await tableOf<OffExchangePrint>("off", date, ticker);
        for (let i = lowerBoundBy(rows, fromMs, (r) => r.tsMs); i < rows.length && rows[i].tsMs < end; i++) out.push(rows[i]);
      }
    }
    // One ticker's rows are in time order already; several are merged by time (stable).
    return names.length > 1 ? out.sort((a, b) => a.tsMs - b.tsMs) : out;
  };

  const universe = async (): Promise<SymbolInfo[]> => manifestNow().symbols.map((s) => ({ ...s, optionRoots: [...s.optionRoots], tiers: [...s.tiers] }));

  return {
    dataDir,
    get simulated() {
      return simulated();
    },
    clock,
    dates,
    universe,
    symbolInfo: async (ticker) => (await universe()).find((s) => s.ticker === ticker),
    chain,
    chainWindow,
    spot,
    minuteBars,
    optionPrints,
    offExchangePrints,
    earnings: async (ticker: string, fromDate: IsoDate, toDate: IsoDate): Promise<EarningsEvent[]> =>
      (manifestNow().earnings[ticker] ?? []).filter((e) => e.date >= fromDate && e.date <= toDate),
    close: () => {
      for (const p of complete.values()) p.close();
      complete.clear();
    },
  };
}

/** A board's copy whose arrays the caller may keep or change without touching the cache. */
function cloneBoard(b: ChainSnapshot): ChainSnapshot {
  return {
    ...b,
    expirations: [...b.expirations],
    expirySettleMs: [...b.expirySettleMs],
    expiryRoot: [...b.expiryRoot],
    strikes: b.strikes.slice(),
    strikeIndex: b.strikeIndex.slice(),
    expIndex: b.expIndex.slice(),
    right: b.right.slice(),
    oi: b.oi.slice(),
    bid: b.bid.slice(),
    ask: b.ask.slice(),
    last: b.last.slice(),
    iv: b.iv.slice(),
    volume: b.volume.slice(),
  };
}

/** First index with `sorted[i] > x`. */
function upperBound<T extends number | string>(sorted: readonly T[], x: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBoundBy<T>(rows: readonly T[], x: number, key: (r: T) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(rows[mid]) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBoundBy<T>(rows: readonly T[], x: number, key: (r: T) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(rows[mid]) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
