/**
 * The store of record: Parquet files under `<data-dir>/recorded/`, partitioned by ET session
 * date and symbol (`date=YYYY-MM-DD/symbol=SPXW/`). Within a session each minute is written as it
 * is recorded (a board file per minute, one journal line per minute for the minute's spot, bar and
 * prints), each durable before the minute is acknowledged; after the session the partition is
 * compacted into four files (`boards.parquet`, one row group per minute; `minutes.parquet`;
 * `prints.parquet`; `offexchange.parquet`) and `complete.json` marks it finished.
 * @see docs/data.md#store-of-record
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import {
  BOARD_COLUMN_NAMES,
  boardWindowPlan,
  decodeBoard,
  decodeBoardWindow,
  encodeBoard,
  WINDOW_COLUMN_NAMES,
  type BoardHeader,
} from "../../lib/market/recorded/board-codec";
import { columnsToRecords, MINUTE_LAYOUT, OFF_EXCHANGE_LAYOUT, OPTION_PRINT_LAYOUT, recordsToColumns, type MinuteRow } from "../../lib/market/recorded/record-codec";
import type { ChainSnapshot, ChainWindow, EarningsEvent, OffExchangePrint, OptionPrint, SymbolInfo } from "../../lib/market/market-data";
import { BOARD_PAGE_BYTES, fsyncDir, multiGroupWriter, openParquet, parquetBytes, unlinkQuiet, writeFileDurable, type ColumnIn, type ParquetFile } from "./parquet-io";

/** Format version of the store (manifest.json `format`). */
const STORE_FORMAT = 1;
const BOARDS_KV = "optionscope.boards";

/** What the store knows besides its partitions. */
export interface StoreManifest {
  format: number;
  /** True when what was recorded came from the simulator (answers must say so). */
  simulated: boolean;
  /** Recorded symbols, in the source universe's order. */
  symbols: SymbolInfo[];
  /** Earnings calendar of recorded tickers, by ticker, date order. */
  earnings: Record<string, EarningsEvent[]>;
}

/** One journal line: everything of one symbol's minute boundary `t` except its board. */
export interface JournalLine {
  t: number;
  minute: MinuteRow;
  prints: OptionPrint[];
  off: OffExchangePrint[];
}

/** The store's root folder inside a data directory. */
export const recordedRoot = (dataDir: string): string => join(dataDir, "recorded");

const dateDirName = (date: string) => `date=${date}`;
const symbolDirName = (symbol: string) => `symbol=${symbol}`;

/** The folder of one partition. */
export function partitionDir(root: string, date: string, symbol: string): string {
  return join(root, dateDirName(date), symbolDirName(symbol));
}

/** Recorded session dates, ascending. */
export function listDates(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => /^date=\d{4}-\d{2}-\d{2}$/.test(n))
    .map((n) => n.slice(5))
    .sort();
}

const manifestPath = (root: string) => join(root, "manifest.json");

/** The manifest, or null for a store never written. */
export function readManifest(root: string): StoreManifest | null {
  const p = manifestPath(root);
  if (!existsSync(p)) return null;
  const m = JSON.parse(readFileSync(p, "utf8")) as StoreManifest;
  if (m.format !== STORE_FORMAT) throw new Error(`${p}: store format ${m.format}, this version reads ${STORE_FORMAT}`);
  return m;
}

/** Writes the manifest durably, merging symbols (by ticker) and earnings into what is there. */
export function mergeManifest(root: string, add: { simulated: boolean; symbols: SymbolInfo[]; earnings?: Record<string, EarningsEvent[]> }): StoreManifest {
  mkdirSync(root, { recursive: true });
  const old = readManifest(root);
  const symbols = [...(old?.symbols ?? [])];
  for (const s of add.symbols) {
    const i = symbols.findIndex((x) => x.ticker === s.ticker);
    if (i >= 0) symbols[i] = s;
    else symbols.push(s);
  }
  const earnings: Record<string, EarningsEvent[]> = { ...(old?.earnings ?? {}) };
  for (const [ticker, events] of Object.entries(add.earnings ?? {})) {
    const byDate = new Map((earnings[ticker] ?? []).map((e) => [e.date, e]));
    for (const e of events) byDate.set(e.date, e);
    earnings[ticker] = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }
  const m: StoreManifest = { format: STORE_FORMAT, simulated: old ? old.simulated && add.simulated : add.simulated, symbols, earnings };
  writeFileDurable(manifestPath(root), JSON.stringify(m));
  return m;
}

// --- writing a partition in session ---

const boardFileName = (asOfMs: number) => `${asOfMs}.parquet`;

/**
 * Writes one minute's board into its partition's pending folder (durably unless `sync` is false:
 * a bulk import, compacted and fsynced at its end); returns its bytes.
 */
export function writePendingBoard(root: string, board: ChainSnapshot, sync = true): number {
  const dir = join(partitionDir(root, board.sessionDate, board.symbol), "boards");
  mkdirSync(dir, { recursive: true });
  const { header, columns } = encodeBoard(board);
  const bytes = parquetBytes(columns as ColumnIn[], { [BOARDS_KV]: JSON.stringify([header]) }, BOARD_PAGE_BYTES);
  writeFileDurable(join(dir, boardFileName(board.asOfMs)), bytes, sync);
  return bytes.length;
}

/** Appends journal lines to a partition, each fsynced before `append` returns (unless `sync` is false). */
export class JournalWriter {
  private fd: number | null = null;
  constructor(
    readonly path: string,
    readonly sync = true,
  ) {}

  append(line: JournalLine): number {
    if (this.fd === null) {
      const dir = join(this.path, "..");
      mkdirSync(dir, { recursive: true });
      const fresh = !existsSync(this.path);
      // A torn last line (a process killed mid-append) is cut off first, so the lines appended
      // now start on a line of their own.
      if (!fresh) truncateTornTail(this.path);
      this.fd = openSync(this.path, "a");
      if (fresh) fsyncDir(dir);
    }
    const text = `${JSON.stringify(line)}\n`;
    const buf = Buffer.from(text);
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    if (this.sync) fsyncSync(this.fd);
    return buf.length;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Cuts a file back to just after its last newline (nothing when it ends with one or is empty). */
function truncateTornTail(path: string): void {
  const fd = openSync(path, "r+");
  try {
    const size = fstatSync(fd).size;
    let end = size;
    const buf = Buffer.allocUnsafe(64 * 1024);
    while (end > 0) {
      const start = Math.max(0, end - buf.length);
      const n = readSync(fd, buf, 0, end - start, start);
      const nl = buf.subarray(0, n).lastIndexOf(10);
      if (nl >= 0) {
        end = start + nl + 1;
        break;
      }
      end = start;
    }
    if (end < size) {
      ftruncateSync(fd, end);
      fsyncSync(fd);
    }
  } finally {
    closeSync(fd);
  }
}

export const journalPath = (root: string, date: string, symbol: string) => join(partitionDir(root, date, symbol), "journal.ndjson");
const completePath = (dir: string) => join(dir, "complete.json");

/**
 * Complete journal lines of `text` (a torn last line, from a process killed mid-write, is left
 * out) and the byte length they cover.
 */
export function parseJournal(text: string): { lines: JournalLine[]; used: number } {
  const lines: JournalLine[] = [];
  let used = 0;
  let at = 0;
  for (;;) {
    const nl = text.indexOf("\n", at);
    if (nl < 0) break;
    const raw = text.slice(at, nl);
    at = nl + 1;
    // A line that does not parse (torn by a crash, before the writer cut such tails) is skipped.
    try {
      if (raw.trim() !== "") lines.push(JSON.parse(raw) as JournalLine);
    } catch {}
    used = at;
  }
  return { lines, used: Buffer.byteLength(text.slice(0, used)) };
}

/** Whether a partition has been compacted. */
export function isComplete(root: string, date: string, symbol: string): boolean {
  return existsSync(completePath(partitionDir(root, date, symbol)));
}

/** Bytes of a partition on disk. */
export function partitionBytes(root: string, date: string, symbol: string): number {
  const dir = partitionDir(root, date, symbol);
  let total = 0;
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else total += statSync(p).size;
    }
  };
  walk(dir);
  return total;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What compaction wrote. */
export interface CompactionResult {
  boards: number;
  minutes: number;
  prints: number;
  off: number;
  bytes: number;
}

/**
 * Compacts a finished partition: the pending board files and the journal into the four session
 * files, then `complete.json`, then the pending files go. Safe to run again after a crash at any
 * point (readers use the session files only once `complete.json` exists).
 */
export async function compactPartition(root: string, date: string, symbol: string): Promise<CompactionResult> {
  const dir = partitionDir(root, date, symbol);
  if (existsSync(completePath(dir))) {
    // Finished before: only what a crash between `complete.json` and the clean-up left goes.
    rmSync(join(dir, "boards"), { recursive: true, force: true });
    unlinkQuiet(join(dir, "journal.ndjson"));
    return JSON.parse(readFileSync(completePath(dir), "utf8")) as CompactionResult;
  }
  const pending = readPending(root, date, symbol);
  // Boards: one row group per minute, every file's columns (an `_x` column absent from a minute is null there).
  const headers: BoardHeader[] = [];
  const names = new Set<string>();
  const boards: { header: BoardHeader; cols: Record<string, ArrayLike<unknown>> }[] = [];
  for (const t of pending.boardTimes) {
    await yieldToLoop();
    const f = openParquet(join(dir, "boards", boardFileName(t)));
    try {
      const header = (JSON.parse(f.kv(BOARDS_KV) ?? "[]") as BoardHeader[])[0];
      // A board without rows has no row group to hold it (headers and groups must align).
      if (header.n === 0) continue;
      const cols = await f.read(0, header.n);
      for (const k of Object.keys(cols)) names.add(k);
      boards.push({ header, cols });
      headers.push(header);
    } finally {
      f.close();
    }
  }
  const ordered = BOARD_COLUMN_NAMES.filter((n) => names.has(n));
  const boardColumn = (name: string, data: ArrayLike<unknown>): ColumnIn =>
    name.endsWith("_x")
      ? { name, data, type: "DOUBLE", nullable: true, encoding: "PLAIN" }
      : name === "iv"
        ? { name, data, type: "DOUBLE", nullable: false, encoding: "PLAIN" }
        : { name, data, type: "INT32", nullable: false, encoding: "DELTA_BINARY_PACKED" };
  let bytes = 0;
  if (boards.length > 0) {
    const w = multiGroupWriter(
      ordered.map((n) => boardColumn(n, [])),
      BOARD_PAGE_BYTES,
    );
    for (const b of boards) {
      w.add(ordered.map((n) => boardColumn(n, b.cols[n] ?? new Array<null>(b.header.n).fill(null))));
      // One row group's encoding at a time (about 40 ms for SPXW): the event loop runs between them.
      await yieldToLoop();
    }
    const out = w.finish({ [BOARDS_KV]: JSON.stringify(headers) });
    writeFileDurable(join(dir, "boards.parquet"), out);
    bytes += out.length;
  }
  const minutes = pending.lines.map((l) => l.minute);
  const prints = pending.lines.flatMap((l) => l.prints);
  const off = pending.lines.flatMap((l) => l.off);
  for (const [file, records, layout] of [
    ["minutes.parquet", minutes, MINUTE_LAYOUT],
    ["prints.parquet", prints, OPTION_PRINT_LAYOUT],
    ["offexchange.parquet", off, OFF_EXCHANGE_LAYOUT],
  ] as const) {
    const out = parquetBytes(recordsToColumns(records, layout) as ColumnIn[], { "optionscope.rows": String(records.length) });
    writeFileDurable(join(dir, file), out);
    bytes += out.length;
  }
  const result: CompactionResult = { boards: boards.length, minutes: minutes.length, prints: prints.length, off: off.length, bytes };
  writeFileDurable(completePath(dir), JSON.stringify(result));
  rmSync(join(dir, "boards"), { recursive: true, force: true });
  unlinkQuiet(join(dir, "journal.ndjson"));
  journals.delete(join(dir, "journal.ndjson"));
  return result;
}

/** Deletes sessions older than `keepDays` calendar days before `today` (0 keeps everything); docs/methodology.md#recorded-market. */
export function applyRetention(root: string, keepDays: number, today: string): string[] {
  if (!(keepDays > 0)) return [];
  const cutoff = new Date(Date.parse(`${today}T00:00:00Z`) - keepDays * 86_400_000).toISOString().slice(0, 10);
  const gone: string[] = [];
  for (const date of listDates(root)) {
    if (date >= cutoff) continue;
    rmSync(join(root, dateDirName(date)), { recursive: true, force: true });
    gone.push(date);
  }
  if (gone.length > 0) fsyncDir(root);
  return gone;
}

// --- reading ---

/** A partition still being written: its board instants and complete journal lines. */
export interface PendingPartition {
  boardTimes: number[];
  lines: JournalLine[];
}

/** Reads a partition's pending files as they are now (finished files only; a torn journal line is left out). */
export function readPending(root: string, date: string, symbol: string): PendingPartition {
  const dir = partitionDir(root, date, symbol);
  const boardsDir = join(dir, "boards");
  const boardTimes = existsSync(boardsDir)
    ? readdirSync(boardsDir)
        .filter((n) => /^\d+\.parquet$/.test(n))
        .map((n) => Number(n.slice(0, -8)))
        .sort((a, b) => a - b)
    : [];
  return { boardTimes, lines: journalLines(join(dir, "journal.ndjson")) };
}

/** Journals read so far, by path: the complete lines and the bytes they cover (it only grows). */
const journals = new Map<string, { ino: number; used: number; byT: Map<number, JournalLine>; sorted: JournalLine[] | null }>();

/**
 * A journal's complete lines by minute, ascending; a minute written twice (a restart redoing an
 * unacknowledged minute) counts once, the last. Only the bytes appended since the last read are
 * parsed (a growing journal of a session in progress is read again and again by replay).
 */
function journalLines(path: string): JournalLine[] {
  if (!existsSync(path)) {
    journals.delete(path);
    return [];
  }
  const { size, ino } = statSync(path);
  let j = journals.get(path);
  // A new file at the path (a session imported again) or a shorter one: read from its start.
  if (!j || j.ino !== ino || size < j.used) {
    j = { ino, used: 0, byT: new Map(), sorted: null };
    journals.set(path, j);
  }
  if (size > j.used) {
    const fd = openSync(path, "r");
    try {
      const buf = Buffer.allocUnsafe(size - j.used);
      const n = readSync(fd, buf, 0, buf.length, j.used);
      const { lines, used } = parseJournal(buf.subarray(0, n).toString("utf8"));
      for (const l of lines) j.byT.set(l.t, l);
      if (lines.length > 0) j.sorted = null;
      j.used += used;
    } finally {
      closeSync(fd);
    }
  }
  j.sorted ??= [...j.byT.values()].sort((a, b) => a.t - b.t);
  return j.sorted;
}

/** A partition's readable contents: board instants and loaders. */
export interface PartitionReader {
  readonly complete: boolean;
  /** Board instants, ascending. */
  readonly boardTimes: number[];
  readBoard(asOfMs: number): Promise<ChainSnapshot | null>;
  /**
   * The window of the board at `asOfMs` (`MarketData.chainWindow`), decoding only the rows before
   * the window's last expiration ends and only the columns a grid reads. docs/data.md#windowed-reads
   */
  readBoardWindow(asOfMs: number, select: ChainWindow): Promise<ChainSnapshot | null>;
  minutes(): Promise<MinuteRow[]>;
  prints(): Promise<OptionPrint[]>;
  off(): Promise<OffExchangePrint[]>;
  close(): void;
}

/** Opens a partition for reading: the session files when complete, else the pending ones. */
export function openPartition(root: string, date: string, symbol: string): PartitionReader | null {
  const dir = partitionDir(root, date, symbol);
  if (!existsSync(dir)) return null;
  if (existsSync(completePath(dir))) return openCompletePartition(dir);
  const pending = readPending(root, date, symbol);
  return {
    complete: false,
    boardTimes: pending.boardTimes,
    readBoard: async (asOfMs) => {
      const p = join(dir, "boards", boardFileName(asOfMs));
      if (!existsSync(p)) return null;
      const f = openParquet(p);
      try {
        const header = (JSON.parse(f.kv(BOARDS_KV) ?? "[]") as BoardHeader[])[0];
        return decodeBoard(header, (await f.read(0, header.n)) as Record<string, ArrayLike<number | null>>);
      } finally {
        f.close();
      }
    },
    readBoardWindow: async (asOfMs, select) => {
      const p = join(dir, "boards", boardFileName(asOfMs));
      if (!existsSync(p)) return null;
      const f = openParquet(p);
      try {
        const header = (JSON.parse(f.kv(BOARDS_KV) ?? "[]") as BoardHeader[])[0];
        const plan = boardWindowPlan(header, select);
        const cols = await f.read(0, plan.rowEnd, windowColumns(f));
        return decodeBoardWindow(header, cols as Record<string, ArrayLike<number | null>>, plan);
      } finally {
        f.close();
      }
    },
    minutes: async () => pending.lines.map((l) => l.minute),
    prints: async () => pending.lines.flatMap((l) => l.prints),
    off: async () => pending.lines.flatMap((l) => l.off),
    close: () => {},
  };
}

function openCompletePartition(dir: string): PartitionReader {
  const boardsPath = join(dir, "boards.parquet");
  let boardsFile: ParquetFile | null = existsSync(boardsPath) ? openParquet(boardsPath) : null;
  const headers = boardsFile ? (JSON.parse(boardsFile.kv(BOARDS_KV) ?? "[]") as BoardHeader[]) : [];
  const index = new Map(headers.map((h, i) => [h.asOfMs, i]));
  const table = async <T>(file: string, layout: typeof MINUTE_LAYOUT): Promise<T[]> => {
    const f = openParquet(join(dir, file));
    try {
      const n = Number(f.metadata.num_rows);
      return columnsToRecords<T>(await f.read(0, n), layout, n);
    } finally {
      f.close();
    }
  };
  return {
    complete: true,
    boardTimes: headers.map((h) => h.asOfMs),
    readBoard: async (asOfMs) => {
      const i = index.get(asOfMs);
      if (i === undefined || !boardsFile) return null;
      const h = headers[i];
      // One row group per minute, in header order.
      return decodeBoard(h, (await boardsFile.readGroup(i)) as Record<string, ArrayLike<number | null>>);
    },
    readBoardWindow: async (asOfMs, select) => {
      const i = index.get(asOfMs);
      if (i === undefined || !boardsFile) return null;
      const h = headers[i];
      const plan = boardWindowPlan(h, select);
      const cols = plan.rowEnd > 0 ? await boardsFile.readGroup(i, windowColumns(boardsFile), plan.rowEnd) : {};
      return decodeBoardWindow(h, cols as Record<string, ArrayLike<number | null>>, plan);
    },
    minutes: () => table<MinuteRow>("minutes.parquet", MINUTE_LAYOUT),
    prints: () => table<OptionPrint>("prints.parquet", OPTION_PRINT_LAYOUT),
    off: () => table<OffExchangePrint>("offexchange.parquet", OFF_EXCHANGE_LAYOUT),
    close: () => {
      boardsFile?.close();
      boardsFile = null;
    },
  };
}

/** The window's columns that a board file has (`_x` columns exist only where some value needed one). */
function windowColumns(f: ParquetFile): string[] {
  const names = new Set(f.metadata.schema.map((e) => e.name));
  return WINDOW_COLUMN_NAMES.filter((n) => names.has(n));
}
