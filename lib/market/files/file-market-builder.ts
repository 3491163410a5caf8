/**
 * Builds the in-memory tables of the file provider from CSV lines, validating every row.
 * Isomorphic: the caller feeds lines (from a stream on a server, from strings in a browser).
 * @see docs/data.md#file-layouts
 */
import { sessionDateAt } from "../../time";
import { formatOptionSymbol } from "../../symbols/format-option-symbol";
import { optionRoot } from "../../symbols/option-roots";
import { OptionSymbolError } from "../../symbols/option-symbol-error";
import { parseOptionSymbol } from "../../symbols/parse-option-symbol";
import { settlementInstantMs } from "../../symbols/settlement";
import { contractColumns } from "../contract-columns";
import type { ChainSnapshot, MinuteBars } from "../market-data";
import { ChainContractRowSchema, ChainSnapshotHeaderSchema, MinuteBarRowSchema, SymbolInfoSchema, type SymbolInfo } from "../schemas";
import { CONDITION_ALIASES, EXCHANGE_ALIASES, OFF_EXCHANGE_VENUES, OPTION_CONDITIONS, OPTION_EXCHANGES } from "../prints/conditions";
import { EarningsEventSchema, OffExchangePrintSchema, OptionPrintSchema, type EarningsEvent, type OffExchangePrint, type OptionPrint } from "../prints/schemas";
import { compareTsNs } from "../prints/ts-ns";
import { CsvLineReader, CsvSyntaxError, type CsvRecord } from "./csv";
import { DataFileError } from "./data-file-error";
import { FILE_LAYOUTS, fileKindOf, type FileKind } from "./layouts";
import { quote, RowReader } from "./_row-reader";
import { BAR_SHARES, CONTRACTS, DIVIDEND_YIELD, IMPLIED_VOL, PRICE_USD, PRINT_SHARES, RATE, STRIKE } from "./value-ranges";
import { boardVolumeFromPrints } from "./volume-from-prints";

/** Default continuous risk-free rate for chain rows without a `rate` column (decimal per year). */
export const DEFAULT_FILE_RATE = 0.045;

/** Time-sorted records of one key with their `tsMs` column for binary search. */
export interface TimeSeries<T> {
  tsMs: Float64Array;
  items: T[];
}

/** Everything a folder holds, ready to answer queries. Immutable once built. */
export interface FileMarketTables {
  symbols: Map<string, SymbolInfo>;
  /** Boards per symbol, sorted by `asOfMs`. */
  chains: Map<string, TimeSeries<ChainSnapshot>>;
  /** All bars per ticker (extended hours included), sorted by `t`. */
  bars: Map<string, MinuteBars>;
  optionPrintsByUnderlying: Map<string, TimeSeries<OptionPrint>>;
  optionPrintsByRoot: Map<string, TimeSeries<OptionPrint>>;
  offExchangePrints: Map<string, TimeSeries<OffExchangePrint>>;
  /** Per ticker, sorted by date. */
  earnings: Map<string, EarningsEvent[]>;
  /** Data rows loaded per kind. */
  rowCounts: Record<FileKind, number>;
}

/** Receives the physical lines of one file. */
export interface FileSink {
  /** One line without its line feed. */
  push(line: string): void;
  /** After the last line. */
  end(): void;
}

interface ChainRowDraft {
  root: string;
  expiry: string;
  settleMs: number;
  strike: number;
  right: 0 | 1;
  oi: number;
  bid: number;
  ask: number;
  last: number;
  iv: number;
  volume: number;
}

interface ChainGroup {
  header: Omit<
    ChainSnapshot,
    "expirations" | "expirySettleMs" | "expiryRoot" | "strikes" | "strikeIndex" | "expIndex" | "right" | "oi" | "bid" | "ask" | "last" | "iv" | "volume"
  >;
  firstLine: number;
  rows: ChainRowDraft[];
  seen: Map<string, number>;
}

interface BarDraft {
  t: number[];
  o: number[];
  h: number[];
  l: number[];
  c: number[];
  v: number[];
  bv: number[];
  sv: number[];
  uv: number[];
  lines: Map<number, number>;
}

const BAR_COLUMNS = { t: "ts", o: "open", h: "high", l: "low", c: "close", v: "volume", bv: "buyVolume", sv: "sellVolume", uv: "unclassifiedVolume" };
const PRINT_COLUMNS = {
  tsMs: "ts",
  tsNs: "ts",
  nbboBid: "bid",
  nbboAsk: "ask",
  root: "symbol",
  expiry: "symbol",
  strike: "symbol",
  right: "symbol",
  underlying: "symbol",
};
const OFF_COLUMNS = { tsMs: "ts", tsNs: "ts" };

/**
 * Collects validated rows file by file; `finish()` returns the tables. Feed `symbols` first:
 * every other file is checked against the universe it declares.
 * @example
 * const b = new FileMarketBuilder();
 * const sink = b.openFile("symbols.csv");
 * for (const line of text.split("\n")) sink.push(line);
 * sink.end();
 * const tables = b.finish();
 */
export class FileMarketBuilder {
  private readonly symbols = new Map<string, SymbolInfo>();
  private readonly rootUnderlying = new Map<string, string>();
  private readonly chainGroups = new Map<string, ChainGroup>();
  private readonly barDrafts = new Map<string, BarDraft>();
  private readonly optionPrints: OptionPrint[] = [];
  private readonly offPrints: OffExchangePrint[] = [];
  private readonly earningsRows = new Map<string, { event: EarningsEvent; line: number; file: string }[]>();
  private readonly settleMemo = new Map<string, number>();
  private readonly rowCounts: Record<FileKind, number> = {
    symbols: 0,
    chains: 0,
    bars: 0,
    optionPrints: 0,
    offExchangePrints: 0,
    earnings: 0,
  };
  private finished = false;

  /**
   * Starts a file; its kind comes from the name (`chains.csv`, `chains-2024-03.csv`) unless given.
   * @throws DataFileError `bad_header` for a name that matches no layout
   */
  openFile(fileName: string, kind: FileKind | null = fileKindOf(fileName)): FileSink {
    if (this.finished) throw new Error("FileMarketBuilder: already finished");
    if (!kind) {
      throw new DataFileError(
        "bad_header",
        fileName,
        0,
        null,
        "file name matches no layout (expected symbols, chains, bars, option-prints, off-exchange-prints or earnings .csv)",
      );
    }
    if (kind !== "symbols" && this.rowCounts.symbols === 0) {
      throw new DataFileError("missing_file", "symbols.csv", 0, null, `load symbols.csv before ${fileName}: every row is checked against the universe`);
    }
    const reader = new CsvLineReader();
    let columns: Map<string, number> | null = null;
    const onRecord = (rec: CsvRecord) => {
      if (!columns) {
        columns = this.checkHeader(fileName, kind, rec);
        return;
      }
      if (rec.fields.length !== columns.size) {
        throw new DataFileError("bad_value", fileName, rec.line, null, `expected ${columns.size} fields as in the header, got ${rec.fields.length}`);
      }
      this.addRow(kind, new RowReader(fileName, rec.line, rec.fields, columns));
      this.rowCounts[kind]++;
    };
    const wrap = (f: () => void) => {
      try {
        f();
      } catch (e) {
        if (e instanceof CsvSyntaxError) throw new DataFileError("bad_value", fileName, e.line, null, e.message);
        throw e;
      }
    };
    return {
      push: (line) =>
        wrap(() => {
          const rec = reader.push(line);
          if (rec) onRecord(rec);
        }),
      end: () =>
        wrap(() => {
          reader.end();
          if (!columns) throw new DataFileError("bad_header", fileName, 1, null, "file is empty: a header row is required");
        }),
    };
  }

  private checkHeader(file: string, kind: FileKind, rec: CsvRecord): Map<string, number> {
    const layout = FILE_LAYOUTS[kind];
    const known = new Set([...layout.required, ...layout.optional]);
    const columns = new Map<string, number>();
    rec.fields.forEach((raw, i) => {
      const name = raw.trim();
      if (!known.has(name)) {
        throw new DataFileError("bad_header", file, rec.line, name, `unknown column (expected ${[...known].join(", ")})`);
      }
      if (columns.has(name)) throw new DataFileError("bad_header", file, rec.line, name, "column appears twice");
      columns.set(name, i);
    });
    for (const name of layout.required) {
      if (!columns.has(name)) throw new DataFileError("bad_header", file, rec.line, name, "required column is missing");
    }
    return columns;
  }

  private addRow(kind: FileKind, r: RowReader): void {
    switch (kind) {
      case "symbols":
        this.addSymbol(r);
        break;
      case "chains":
        this.addChainRow(r);
        break;
      case "bars":
        this.addBar(r);
        break;
      case "optionPrints":
        this.addOptionPrint(r);
        break;
      case "offExchangePrints":
        this.addOffExchangePrint(r);
        break;
      case "earnings":
        this.addEarnings(r);
        break;
    }
  }

  private knownTicker(r: RowReader, col: string): SymbolInfo {
    const ticker = r.str(col);
    const info = this.symbols.get(ticker);
    if (!info) r.fail(col, `unknown symbol ${quote(ticker)} (not in symbols.csv)`);
    return info;
  }

  private addSymbol(r: RowReader): void {
    const ticker = r.str("ticker");
    if (this.symbols.has(ticker)) r.fail("ticker", `symbol ${quote(ticker)} is listed twice`);
    const type = r.oneOf("type", ["index", "etf", "stock"] as const);
    const info = r.check(SymbolInfoSchema, {
      ticker,
      name: r.str("name"),
      type,
      underlying: r.has("underlying") ? r.str("underlying") : ticker,
      sector: r.str("sector"),
      industry: r.str("industry"),
      optionRoots: r.str("optionRoots").split(/\s+/),
      dividendYield: r.optNum("dividendYield", 0, "nonNegative", DIVIDEND_YIELD),
      tiers: r.has("tiers") ? r.str("tiers").split(/\s+/) : type === "stock" ? ["full"] : ["index-etf", "full"],
      simulated: false,
    });
    this.symbols.set(ticker, info);
    for (const root of info.optionRoots) if (!this.rootUnderlying.has(root)) this.rootUnderlying.set(root, info.underlying);
  }

  private settleOf(r: RowReader, root: string, expiry: string): number {
    const key = `${root}|${expiry}`;
    let ms = this.settleMemo.get(key);
    if (ms === undefined) {
      try {
        ms = settlementInstantMs(root, expiry);
      } catch (e) {
        r.fail("expiry", `no settlement instant for ${root} ${expiry}: ${(e as Error).message}`);
      }
      this.settleMemo.set(key, ms);
    }
    return ms;
  }

  private addChainRow(r: RowReader): void {
    const info = this.knownTicker(r, "symbol");
    const { tsMs: asOfMs } = r.instant("asOf");
    const key = `${info.ticker}|${asOfMs}`;
    const spot = r.num("spot", "positive", PRICE_USD);
    const underlying = r.has("underlying") ? r.str("underlying") : info.underlying;
    const rate = r.optNum("rate", DEFAULT_FILE_RATE, "number", RATE);
    const dividendYield = r.optNum("dividendYield", info.dividendYield, "nonNegative", DIVIDEND_YIELD);
    let group = this.chainGroups.get(key);
    if (!group) {
      let sessionDate: string;
      try {
        sessionDate = sessionDateAt(asOfMs);
      } catch (e) {
        r.fail("asOf", `outside the trading calendar: ${(e as Error).message}`);
      }
      const header = r.check(
        ChainSnapshotHeaderSchema,
        { symbol: info.ticker, underlying, asOfMs, sessionDate, spot, rate, dividendYield, simulated: false },
        { asOfMs: "asOf" },
      );
      group = { header, firstLine: r.line, rows: [], seen: new Map() };
      this.chainGroups.set(key, group);
    } else {
      const h = group.header;
      const same = (col: string, a: number | string, b: number | string) => {
        if (a !== b) r.fail(col, `${quote(String(a))} differs from ${quote(String(b))} on line ${group!.firstLine} of the same snapshot`);
      };
      same("spot", spot, h.spot);
      same("underlying", underlying, h.underlying);
      same("rate", rate, h.rate);
      same("dividendYield", dividendYield, h.dividendYield);
    }
    const root = r.str("root");
    const expiry = r.date("expiry");
    const right = r.oneOf("right", ["C", "P"] as const);
    const row = r.check(ChainContractRowSchema, {
      root,
      expiry,
      strike: r.num("strike", "positive", STRIKE),
      right,
      oi: r.num("oi", "nonNegativeInteger", CONTRACTS),
      bid: r.num("bid", "nonNegative", PRICE_USD),
      ask: r.num("ask", "nonNegative", PRICE_USD),
      last: r.optNum("last", 0, "nonNegative", PRICE_USD),
      iv: r.num("iv", "positive", IMPLIED_VOL),
      volume: r.optNum("volume", 0, "nonNegativeInteger", CONTRACTS),
    });
    // Every contract of a board must have an OPRA symbol (the flow routes write it).
    try {
      formatOptionSymbol({ root, expiry, right, strike: row.strike }, "url");
    } catch (e) {
      if (!(e instanceof OptionSymbolError)) throw e;
      r.fail(e.code === "bad_strike" ? "strike" : e.code === "bad_date" ? "expiry" : "root", `no OPRA symbol for this contract: ${e.message}`);
    }
    const contract = `${root} ${expiry} ${row.strike} ${right}`;
    const first = group.seen.get(contract);
    if (first !== undefined) r.fail("strike", `contract ${contract} appears twice in the snapshot (first on line ${first})`);
    group.seen.set(contract, r.line);
    group.rows.push({ ...row, right: right === "C" ? 1 : 0, settleMs: this.settleOf(r, root, expiry) });
  }

  private addBar(r: RowReader): void {
    const info = this.knownTicker(r, "ticker");
    const { tsMs, tsNs } = r.instant("ts");
    if (tsMs % 60_000 !== 0 || !tsNs.endsWith("000000")) r.fail("ts", `expected the start of a minute (seconds 00), got ${quote(r.raw("ts"))}`);
    const v = r.num("volume", "nonNegative", BAR_SHARES);
    const bv = r.optNum("buyVolume", 0, "nonNegative", BAR_SHARES);
    const sv = r.optNum("sellVolume", 0, "nonNegative", BAR_SHARES);
    const uv = r.has("unclassifiedVolume") ? r.num("unclassifiedVolume", "nonNegative", BAR_SHARES) : v - bv - sv;
    const bar = r.check(
      MinuteBarRowSchema,
      {
        t: tsMs,
        o: r.num("open", "positive", PRICE_USD),
        h: r.num("high", "positive", PRICE_USD),
        l: r.num("low", "positive", PRICE_USD),
        c: r.num("close", "positive", PRICE_USD),
        v,
        bv,
        sv,
        uv,
      },
      BAR_COLUMNS,
    );
    let d = this.barDrafts.get(info.ticker);
    if (!d) {
      d = { t: [], o: [], h: [], l: [], c: [], v: [], bv: [], sv: [], uv: [], lines: new Map() };
      this.barDrafts.set(info.ticker, d);
    }
    const first = d.lines.get(tsMs);
    if (first !== undefined) r.fail("ts", `a bar for ${info.ticker} at this minute already appears on line ${first}`);
    d.lines.set(tsMs, r.line);
    d.t.push(bar.t);
    d.o.push(bar.o);
    d.h.push(bar.h);
    d.l.push(bar.l);
    d.c.push(bar.c);
    d.v.push(bar.v);
    d.bv.push(bar.bv);
    d.sv.push(bar.sv);
    d.uv.push(bar.uv);
  }

  private addOptionPrint(r: RowReader): void {
    const { tsMs, tsNs } = r.instant("ts");
    const text = r.str("symbol");
    let contract: ReturnType<typeof parseOptionSymbol>;
    try {
      contract = parseOptionSymbol(text);
    } catch (e) {
      r.fail("symbol", `expected an OPRA contract symbol, got ${quote(text)} (${(e as Error).message})`);
    }
    const underlying = this.rootUnderlying.get(contract.root) ?? optionRoot(contract.root).underlying;
    if (!this.symbols.has(underlying) && !this.rootUnderlying.has(contract.root)) {
      r.fail("symbol", `root ${quote(contract.root)} belongs to no symbol in symbols.csv`);
    }
    const print = r.check(
      OptionPrintSchema,
      {
        id: r.has("id") ? r.str("id") : `${r.file}:${r.line}`,
        tsMs,
        tsNs,
        symbol: formatOptionSymbol(contract, "url"),
        root: contract.root,
        underlying,
        expiry: contract.expiry,
        strike: contract.strike,
        right: contract.right,
        price: r.num("price", "nonNegative", PRICE_USD),
        size: r.num("size", "positiveInteger", CONTRACTS),
        exchange: r.oneOf("exchange", OPTION_EXCHANGES, EXCHANGE_ALIASES),
        nbboBid: r.num("bid", "nonNegative", PRICE_USD),
        nbboAsk: r.num("ask", "nonNegative", PRICE_USD),
        conditions: r.listOf("conditions", OPTION_CONDITIONS, CONDITION_ALIASES),
        underlyingPrice: r.num("underlyingPrice", "positive", PRICE_USD),
        iv: r.has("iv") ? r.num("iv", "positive", IMPLIED_VOL) : null,
      },
      PRINT_COLUMNS,
    );
    this.optionPrints.push(print);
  }

  private addOffExchangePrint(r: RowReader): void {
    const info = this.knownTicker(r, "ticker");
    const { tsMs, tsNs } = r.instant("ts");
    const print = r.check(
      OffExchangePrintSchema,
      {
        id: r.has("id") ? r.str("id") : `${r.file}:${r.line}`,
        tsMs,
        tsNs,
        ticker: info.ticker,
        price: r.num("price", "positive", PRICE_USD),
        size: r.num("size", "positiveInteger", PRINT_SHARES),
        venue: r.oneOf("venue", OFF_EXCHANGE_VENUES),
      },
      OFF_COLUMNS,
    );
    this.offPrints.push(print);
  }

  private addEarnings(r: RowReader): void {
    const info = this.knownTicker(r, "ticker");
    const event = r.check(EarningsEventSchema, {
      ticker: info.ticker,
      date: r.date("date"),
      timing: r.oneOf("timing", ["bmo", "amc"] as const, { BMO: "bmo", AMC: "amc" }),
      fiscalQuarter: r.has("fiscalQuarter") ? r.str("fiscalQuarter") : null,
    });
    const list = this.earningsRows.get(info.ticker) ?? [];
    const dup = list.find((x) => x.event.date === event.date);
    if (dup) r.fail("date", `${info.ticker} already reports on ${event.date} (line ${dup.line})`);
    list.push({ event, line: r.line, file: r.file });
    this.earningsRows.set(info.ticker, list);
  }

  /**
   * Sorts and packs everything into the query tables. The builder cannot be used afterwards.
   * @throws DataFileError `missing_file` when no symbols were loaded
   */
  finish(): FileMarketTables {
    if (this.finished) throw new Error("FileMarketBuilder: already finished");
    this.finished = true;
    if (this.rowCounts.symbols === 0) {
      throw new DataFileError("missing_file", "symbols.csv", 0, null, "no symbols loaded: every data folder needs a symbols.csv with at least one row");
    }
    const optionPrintsByRoot = groupByTime(this.optionPrints, (p) => p.root);
    const chains = new Map<string, TimeSeries<ChainSnapshot>>();
    // One tape is the truth: where prints exist, they give the boards' volume (docs/data.md).
    const boards = [...this.chainGroups.values()].map((g) => boardVolumeFromPrints(packBoard(g), optionPrintsByRoot)).sort((a, b) => a.asOfMs - b.asOfMs);
    for (const board of boards) {
      const list = chains.get(board.symbol) ?? { tsMs: new Float64Array(0), items: [] };
      list.items.push(board);
      chains.set(board.symbol, list);
    }
    for (const s of chains.values()) s.tsMs = Float64Array.from(s.items, (b) => b.asOfMs);

    const bars = new Map<string, MinuteBars>();
    for (const [ticker, d] of this.barDrafts) bars.set(ticker, packBars(ticker, d));

    const earnings = new Map<string, EarningsEvent[]>();
    for (const [t, list] of this.earningsRows)
      earnings.set(
        t,
        list.map((x) => x.event).sort((a, b) => (a.date < b.date ? -1 : 1)),
      );
    return {
      symbols: new Map(this.symbols),
      chains,
      bars,
      optionPrintsByUnderlying: groupByTime(this.optionPrints, (p) => p.underlying),
      optionPrintsByRoot,
      offExchangePrints: groupByTime(this.offPrints, (p) => p.ticker),
      earnings,
      rowCounts: { ...this.rowCounts },
    };
  }
}

/** Records grouped by key, each group sorted by `tsNs` with its `tsMs` column. */
function groupByTime<T extends { tsMs: number; tsNs: string }>(items: T[], keyOf: (x: T) => string): Map<string, TimeSeries<T>> {
  const out = new Map<string, TimeSeries<T>>();
  for (const x of items) {
    const k = keyOf(x);
    const s = out.get(k) ?? { tsMs: new Float64Array(0), items: [] };
    s.items.push(x);
    out.set(k, s);
  }
  for (const s of out.values()) {
    s.items.sort((a, b) => compareTsNs(a.tsNs, b.tsNs));
    s.tsMs = Float64Array.from(s.items, (p) => p.tsMs);
  }
  return out;
}

/** Packs one snapshot's rows into the columnar board (rows by expiration, strike, put before call). */
function packBoard(g: ChainGroup): ChainSnapshot {
  const rows = g.rows.slice().sort((a, b) => a.settleMs - b.settleMs || (a.root < b.root ? -1 : a.root > b.root ? 1 : 0) || a.strike - b.strike || a.right - b.right);
  const expirations: string[] = [];
  const expirySettleMs: number[] = [];
  const expiryRoot: string[] = [];
  const strikes = Float64Array.from(new Set(rows.map((r) => r.strike))).sort();
  const n = rows.length;
  const cols = contractColumns(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const e = expirations.length - 1;
    if (e < 0 || expirations[e] !== r.expiry || expiryRoot[e] !== r.root) {
      expirations.push(r.expiry);
      expirySettleMs.push(r.settleMs);
      expiryRoot.push(r.root);
    }
    cols.expIndex[i] = expirations.length - 1;
    let lo = 0;
    let hi = strikes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (strikes[mid] < r.strike) lo = mid + 1;
      else hi = mid;
    }
    cols.strikeIndex[i] = lo;
    cols.right[i] = r.right;
    cols.oi[i] = r.oi;
    cols.bid[i] = r.bid;
    cols.ask[i] = r.ask;
    cols.last[i] = r.last;
    cols.iv[i] = r.iv;
    cols.volume[i] = r.volume;
  }
  return { ...g.header, expirations, expirySettleMs, expiryRoot, strikes, ...cols };
}

function packBars(ticker: string, d: BarDraft): MinuteBars {
  const order = d.t.map((_, i) => i).sort((a, b) => d.t[a] - d.t[b]);
  const col = (xs: number[]) => Float64Array.from(order, (i) => xs[i]);
  return {
    ticker,
    extended: true,
    simulated: false,
    t: col(d.t),
    o: col(d.o),
    h: col(d.h),
    l: col(d.l),
    c: col(d.c),
    v: col(d.v),
    bv: col(d.bv),
    sv: col(d.sv),
    uv: col(d.uv),
  };
}
