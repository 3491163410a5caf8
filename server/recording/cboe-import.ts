/**
 * Backfill from Cboe DataShop "Option Quotes" interval files (one row per contract per minute,
 * the public layout of the 1-minute "Option Quotes with Calcs" product and its open interest
 * option): each (root, minute) becomes a board in the store of record, each minute's underlying
 * price a spot row, and each (root, session) a compacted partition. Importing a session again
 * replaces it. A malformed row stops the file with a `DataFileError` naming the file, the line and
 * the field; nothing of that file is kept.
 * @see docs/data.md#cboe-datashop-option-quotes
 */
import { createReadStream, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { DataFileError } from "../../lib/market/files/data-file-error";
import { DEFAULT_FILE_RATE } from "../../lib/market/files/file-market-builder";
import { splitCsvRecord } from "../../lib/market/files/csv";
import { contractColumns } from "../../lib/market/contract-columns";
import type { ChainSnapshot, SymbolInfo } from "../../lib/market/market-data";
import type { MinuteRow } from "../../lib/market/recorded/record-codec";
import { symbolSpecs, toSymbolInfo } from "../../lib/market/universe";
import { settlementInstantMs } from "../../lib/symbols";
import { etInstant, isTradingDay, sessionBounds } from "../../lib/time";
import { compactPartition, JournalWriter, journalPath, mergeManifest, partitionDir, recordedRoot, writePendingBoard } from "./store";

/** Columns the importer reads; the first group is required. */
const CBOE_REQUIRED_COLUMNS = [
  "underlying_symbol",
  "quote_datetime",
  "root",
  "expiration",
  "strike",
  "option_type",
  "close",
  "trade_volume",
  "bid",
  "ask",
  "underlying_bid",
  "underlying_ask",
  "implied_volatility",
  "open_interest",
] as const;
/** Read when present: the price the file's calcs used (preferred as the board's spot). */
const OPTIONAL_COLUMNS = ["active_underlying_price"] as const;

/** Progress of an import, reported after each board and at the end of each file. */
export interface ImportProgress {
  file: string;
  fileIndex: number;
  fileCount: number;
  bytesRead: number;
  bytesTotal: number;
  lines: number;
  boards: number;
  done: boolean;
}

/** What an import wrote. */
export interface ImportSummary {
  files: number;
  rows: number;
  boards: number;
  /** Partitions written, as `date/root`. */
  sessions: string[];
}

/** Options of `importCboeQuotes`. */
export interface ImportOptions {
  onProgress?: (p: ImportProgress) => void;
  /** Continuous risk-free rate of the boards (the files carry none); default the file provider's. */
  rate?: number;
}

/** The import's files in `dir`: `*.csv` and `*.csv.gz`, by name. */
function cboeFilesIn(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new DataFileError("missing_file", dir, 0, null, "not a folder");
  const files = readdirSync(dir)
    .filter((n) => /\.csv(\.gz)?$/i.test(n))
    .sort();
  if (files.length === 0) throw new DataFileError("missing_file", dir, 0, null, "no .csv or .csv.gz files in it");
  return files.map((n) => join(dir, n));
}

/** One contract row of a minute. */
interface QuoteRow {
  expiration: string;
  strike: number;
  right: 0 | 1;
  bid: number;
  ask: number;
  last: number;
  iv: number;
  oi: number;
  tradeVolume: number;
}

/** A root's rows of one minute. */
interface MinuteGroup {
  root: string;
  underlying: string;
  underlyingType: "index" | "stock";
  date: string;
  asOfMs: number;
  spot: number;
  rows: QuoteRow[];
}

const KNOWN = (() => {
  let m: Map<string, SymbolInfo> | null = null;
  return () => (m ??= new Map(symbolSpecs().map((s) => [s.ticker, { ...toSymbolInfo(s), simulated: false }])));
})();

/** The universe record of an imported root: the known one when the root is known, else a plain one. */
function symbolInfoOf(root: string, underlying: string, type: "index" | "stock"): SymbolInfo {
  const known = KNOWN().get(root);
  if (known) return known;
  return {
    ticker: root,
    name: root,
    type,
    underlying,
    sector: type === "index" ? "Index" : "Unknown",
    industry: type === "index" ? "Index" : "Unknown",
    optionRoots: [root],
    dividendYield: 0,
    tiers: ["full"],
    simulated: false,
  };
}

/** The board of a minute group (rows sorted by expiration, strike, put before call); docs/methodology.md#recorded-market. */
function boardOf(g: MinuteGroup, cumVolume: Map<string, number>, rate: number, dividendYield: number): ChainSnapshot | null {
  const rows = g.rows.filter((r) => settlementInstantMs(g.root, r.expiration) > g.asOfMs);
  if (rows.length === 0) return null;
  rows.sort((a, b) => (a.expiration < b.expiration ? -1 : a.expiration > b.expiration ? 1 : a.strike - b.strike || a.right - b.right));
  const expirations = [...new Set(rows.map((r) => r.expiration))];
  const strikes = Float64Array.from(new Set(rows.map((r) => r.strike))).sort();
  const expIdx = new Map(expirations.map((e, i) => [e, i]));
  const strikeIdx = new Map(Array.from(strikes, (k, i) => [k, i]));
  const n = rows.length;
  const b: ChainSnapshot = {
    symbol: g.root,
    underlying: g.underlying,
    asOfMs: g.asOfMs,
    sessionDate: g.date,
    spot: g.spot,
    rate,
    dividendYield,
    simulated: false,
    expirations,
    expirySettleMs: expirations.map((e) => settlementInstantMs(g.root, e)),
    expiryRoot: expirations.map(() => g.root),
    strikes,
    ...contractColumns(n),
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const key = `${r.expiration}|${r.strike}|${r.right}`;
    const vol = (cumVolume.get(key) ?? 0) + r.tradeVolume;
    cumVolume.set(key, vol);
    b.strikeIndex[i] = strikeIdx.get(r.strike)!;
    b.expIndex[i] = expIdx.get(r.expiration)!;
    b.right[i] = r.right;
    b.oi[i] = r.oi;
    b.bid[i] = r.bid;
    b.ask[i] = r.ask;
    b.last[i] = r.last;
    b.iv[i] = r.iv;
    b.volume[i] = vol;
  }
  return b;
}

/**
 * Imports every Cboe Option Quotes file of `dir` into the store of record of `dataDir`.
 * @example await importCboeQuotes("./cboe", ".optionscope", { onProgress: (p) => console.error(p.lines) })
 * @see docs/data.md#cboe-datashop-option-quotes
 */
export async function importCboeQuotes(dir: string, dataDir: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const files = cboeFilesIn(dir);
  const root = recordedRoot(dataDir);
  const summary: ImportSummary = { files: files.length, rows: 0, boards: 0, sessions: [] };
  for (let f = 0; f < files.length; f++) {
    const written = await importFile(files[f], f, files.length, root, options, summary);
    for (const s of written) if (!summary.sessions.includes(s)) summary.sessions.push(s);
  }
  return summary;
}

/** One file: parsed whole (a bad row throws before anything is written), then written by session. */
async function importFile(path: string, fileIndex: number, fileCount: number, root: string, options: ImportOptions, summary: ImportSummary): Promise<string[]> {
  const name = basename(path);
  const bytesTotal = statSync(path).size;
  const raw = createReadStream(path);
  let bytesRead = 0;
  raw.on("data", (chunk) => {
    bytesRead += chunk.length;
  });
  const input = /\.gz$/i.test(path) ? raw.pipe(createGunzip()) : raw;
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let col: Record<string, number> | null = null;
  let line = 0;
  const groups = new Map<string, MinuteGroup>();
  const progress = (done: boolean) =>
    options.onProgress?.({ file: name, fileIndex, fileCount, bytesRead: done ? bytesTotal : bytesRead, bytesTotal, lines: line, boards: groups.size, done });
  for await (const text of lines) {
    line++;
    if (line === 1) {
      const header = (splitCsvRecord(text.replace(/^\uFEFF/, ""), 1) ?? []).map((h) => h.trim().toLowerCase());
      const missing = CBOE_REQUIRED_COLUMNS.filter((c) => !header.includes(c));
      if (missing.length > 0) {
        throw new DataFileError(
          "bad_header",
          name,
          1,
          missing[0],
          `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (Cboe DataShop Option Quotes with Calcs and open interest)`,
        );
      }
      col = Object.fromEntries([...CBOE_REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS].map((c) => [c, header.indexOf(c)]));
      continue;
    }
    if (text.trim() === "" || !col) continue;
    const fields = splitCsvRecord(text, line);
    if (!fields) throw new DataFileError("bad_value", name, line, null, "unterminated quoted field");
    const get = (c: string) => (col![c] >= 0 ? (fields[col![c]] ?? "").trim() : "");
    const bad = (field: string, reason: string): never => {
      throw new DataFileError("bad_value", name, line, field, `${reason}, got ${JSON.stringify(get(field).slice(0, 40))}`);
    };
    const num = (field: string, min: number, allowEmpty = false): number => {
      const s = get(field);
      if (s === "" && allowEmpty) return Number.NaN;
      const v = Number(s);
      if (s === "" || !Number.isFinite(v) || v < min) bad(field, `expected a number >= ${min}`);
      return v;
    };
    const qd = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::00(?:\.0+)?)?$/.exec(get("quote_datetime"));
    if (!qd || Number(qd[2]) > 23 || Number(qd[3]) > 59) bad("quote_datetime", "expected YYYY-MM-DD HH:MM:00 (US Eastern)");
    const date = qd![1];
    if (!isTradingDay(date)) bad("quote_datetime", "not an NYSE trading day");
    const asOfMs = etInstant(date, `${qd![2]}:${qd![3]}`);
    const expiration = get("expiration");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expiration) || expiration < date) bad("expiration", `expected a date YYYY-MM-DD on or after ${date}`);
    const rootName = get("root").toUpperCase();
    if (!/^[A-Z][A-Z0-9.]{0,9}$/.test(rootName)) bad("root", "expected an option root (upper-case letters and digits)");
    const type = get("option_type").toUpperCase();
    if (type !== "C" && type !== "P") bad("option_type", "expected C or P");
    const strike = num("strike", 0);
    if (!(strike > 0)) bad("strike", "expected a positive number");
    const bid = num("bid", 0);
    const ask = num("ask", 0);
    if (bid > ask && ask > 0) bad("bid", `expected bid <= ask (${ask})`);
    const iv = num("implied_volatility", 0);
    const oi = num("open_interest", 0);
    const tradeVolume = num("trade_volume", 0);
    const last = num("close", 0);
    const ub = num("underlying_bid", 0);
    const ua = num("underlying_ask", 0);
    const active = col.active_underlying_price >= 0 ? num("active_underlying_price", 0, true) : Number.NaN;
    const spot = active > 0 ? active : ub > 0 && ua > 0 ? (ub + ua) / 2 : Math.max(ub, ua);
    if (!(spot > 0)) bad("underlying_bid", "expected an underlying price above 0 (underlying_bid/ask or active_underlying_price)");
    // Only the regular session's board minutes (09:30 through the close, both ends).
    const { openMs, closeMs } = sessionBounds(date);
    if (asOfMs < openMs || asOfMs > closeMs) continue;
    const underlyingSymbol = get("underlying_symbol").toUpperCase();
    const underlying = underlyingSymbol.replace(/^\^/, "");
    if (!/^[A-Z][A-Z0-9.]{0,9}$/.test(underlying)) bad("underlying_symbol", "expected a ticker (^ for an index)");
    const key = `${rootName}|${asOfMs}`;
    let g = groups.get(key);
    if (!g) {
      g = { root: rootName, underlying, underlyingType: underlyingSymbol.startsWith("^") ? "index" : "stock", date, asOfMs, spot, rows: [] };
      groups.set(key, g);
      if (groups.size % 50 === 0) progress(false);
    }
    g.rows.push({ expiration, strike, right: type === "C" ? 1 : 0, bid, ask, last, iv, oi, tradeVolume });
    summary.rows++;
  }
  if (line === 0) throw new DataFileError("bad_header", name, 0, null, "empty file");
  progress(true);
  return writeGroups(root, [...groups.values()], options, summary);
}

/** Writes one file's minute groups, session by session (each replaced whole, then compacted). */
async function writeGroups(root: string, groups: MinuteGroup[], options: ImportOptions, summary: ImportSummary): Promise<string[]> {
  groups.sort((a, b) => a.asOfMs - b.asOfMs || (a.root < b.root ? -1 : 1));
  const bySession = new Map<string, MinuteGroup[]>();
  for (const g of groups) {
    const k = `${g.date}/${g.root}`;
    const list = bySession.get(k) ?? [];
    list.push(g);
    bySession.set(k, list);
  }
  const infos = new Map<string, SymbolInfo>();
  for (const g of groups) if (!infos.has(g.root)) infos.set(g.root, symbolInfoOf(g.root, g.underlying, g.underlyingType));
  mergeManifest(root, { simulated: false, symbols: [...infos.values()] });
  const rate = options.rate ?? DEFAULT_FILE_RATE;
  const underlyingMinutes = new Map<string, Map<number, number>>();
  for (const [k, list] of bySession) {
    const [date, rootName] = k.split("/");
    rmSync(partitionDir(root, date, rootName), { recursive: true, force: true });
    const info = infos.get(rootName)!;
    const cum = new Map<string, number>();
    const journal = new JournalWriter(journalPath(root, date, rootName), false);
    try {
      for (const g of list) {
        const board = boardOf(g, cum, rate, info.dividendYield);
        if (board) {
          writePendingBoard(root, board, false);
          summary.boards++;
        }
        journal.append({ t: g.asOfMs, minute: spotRow(g.asOfMs, g.spot), prints: [], off: [] });
        const u = `${date}/${g.underlying}`;
        if (g.underlying !== rootName) {
          const m = underlyingMinutes.get(u) ?? new Map<number, number>();
          m.set(g.asOfMs, g.spot);
          underlyingMinutes.set(u, m);
        }
      }
    } finally {
      journal.close();
    }
    await compactPartition(root, date, rootName);
  }
  // The underlying's own spot (SPX for SPXW): what a board's previous close is read from.
  for (const [k, minutes] of underlyingMinutes) {
    const [date, ticker] = k.split("/");
    // Never over a partition already there (that ticker's own boards, or the same spot from another file).
    if (existsSync(partitionDir(root, date, ticker))) continue;
    const journal = new JournalWriter(journalPath(root, date, ticker), false);
    try {
      for (const [t, spot] of [...minutes].sort((a, b) => a[0] - b[0])) journal.append({ t, minute: spotRow(t, spot), prints: [], off: [] });
    } finally {
      journal.close();
    }
    await compactPartition(root, date, ticker);
  }
  return [...bySession.keys()];
}

const spotRow = (t: number, spot: number): MinuteRow => ({ t, spot, o: null, h: null, l: null, c: null, v: null, bv: null, sv: null, uv: null });
