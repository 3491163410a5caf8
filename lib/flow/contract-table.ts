/**
 * The market-wide contract table of one session: every contract's screener row stored by column
 * (numbers as Float64Array, strings through a dictionary), ranked without building a record per
 * contract; only the `limit` kept rows become records. Ranking it gives exactly what
 * `rankTopContracts` gives over the same rows in the same order.
 * @see docs/methodology.md#flow-contract-top-table
 */
import { parseTopContractFilters, type TopContractFiltersInput, type TopContractRow } from "./rollups";
import { topKIndices } from "./top-k";

/** A string column: the distinct values joined by "\n" (symbols never hold one) and each row's index into them. */
interface StringColumn {
  dict: string;
  idx: Uint16Array | Uint32Array;
}

/** A number column: Int32Array when every value is an int32 (volumes, counts, DTE: half the bytes to inflate), else Float64Array. */
type NumberColumn = Float64Array | Int32Array;

/** The stored table: plain data (typed arrays and strings) that structured clone copies fast. */
export interface ContractTable {
  /** The tickers whose contracts the table holds, in the order their rows follow each other. */
  tickers: string[];
  n: number;
  /** Field names in the rows' own key order (a materialised row has the same key order). */
  keys: string[];
  numbers: Record<string, NumberColumn>;
  strings: Record<string, StringColumn>;
}

const SEP = "\n";

/**
 * The table of `rows` (each ticker's contracts, tickers in `tickers` order).
 * @example contractTable(["SPY"], summary.contracts)
 */
export function contractTable(tickers: readonly string[], rows: readonly TopContractRow[]): ContractTable {
  const keys = rows.length > 0 ? Object.keys(rows[0]) : [];
  const numbers: Record<string, NumberColumn> = {};
  const strings: Record<string, StringColumn> = {};
  for (const key of keys) {
    const first = (rows[0] as unknown as Record<string, unknown>)[key];
    if (typeof first === "number") {
      const col = new Float64Array(rows.length);
      let int32 = true;
      for (let i = 0; i < rows.length; i++) {
        const x = (rows[i] as unknown as Record<string, number>)[key];
        col[i] = x;
        if (int32 && ((x | 0) !== x || Object.is(x, -0))) int32 = false;
      }
      numbers[key] = int32 ? Int32Array.from(col) : col;
    } else {
      const at = new Map<string, number>();
      const dict: string[] = [];
      const idx = new Uint32Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const v = (rows[i] as unknown as Record<string, string>)[key];
        let j = at.get(v);
        if (j === undefined) {
          j = dict.length;
          dict.push(v);
          at.set(v, j);
        }
        idx[i] = j;
      }
      strings[key] = { dict: dict.join(SEP), idx: dict.length <= 65_536 ? Uint16Array.from(idx) : idx };
    }
  }
  return { tickers: [...tickers], n: rows.length, keys, numbers, strings };
}

/** A table opened for ranking: string dictionaries split once. */
export interface OpenContractTable {
  table: ContractTable;
  dicts: Record<string, string[]>;
}

/** Splits the dictionaries (done once per table read, not per request). */
export function openContractTable(table: ContractTable): OpenContractTable {
  const dicts: Record<string, string[]> = {};
  for (const [k, c] of Object.entries(table.strings)) dicts[k] = c.dict === "" && c.idx.length === 0 ? [] : c.dict.split(SEP);
  return { table, dicts };
}

/** The row `i` as a record, keys in the stored order. */
function rowAt(t: OpenContractTable, i: number): TopContractRow {
  const out: Record<string, unknown> = {};
  for (const k of t.table.keys) out[k] = k in t.table.numbers ? t.table.numbers[k][i] : t.dicts[k][t.table.strings[k].idx[i]];
  return out as unknown as TopContractRow;
}

const KEY_COLUMNS = { premium: "totalPremium", volume: "totalVolume", oi: "openInterest", iv: "iv" } as const;

/**
 * The screener over the table: the same filters, order and ties as `rankTopContracts` over the
 * table's rows in order, limited to the rows of `tickers` when given.
 * @throws FlowError `invalid_parameter` naming the parameter
 * @example rankContractTable(open, { orderBy: "volume", limit: 20 })
 */
export function rankContractTable(t: OpenContractTable, input: TopContractFiltersInput = {}, tickers?: ReadonlySet<string>): TopContractRow[] {
  const f = parseTopContractFilters(input);
  if (t.table.n === 0) return [];
  const { numbers: num, strings: str } = t.table;
  const dictIndex = (key: string, value: string | undefined) => (value === undefined ? -2 : t.dicts[key].indexOf(value));
  // -2: no filter; -1: a value the table does not hold (nothing matches).
  const wantTicker = dictIndex("ticker", f.ticker);
  const wantRight = dictIndex("right", f.right);
  const wantExpiration = dictIndex("expiration", f.expiration);
  const tickerOk = tickers ? Uint8Array.from(t.dicts.ticker, (x) => (tickers.has(x) ? 1 : 0)) : null;
  const ranges: [NumberColumn, number | undefined, number | undefined][] = (
    [
      [num.totalPremium, f.minPremium, f.maxPremium],
      [num.totalVolume, f.minVolume, f.maxVolume],
      [num.openInterest, f.minOi, f.maxOi],
      [num.dte, f.minDte, f.maxDte],
      [num.strike, f.minStrike, f.maxStrike],
      [num.iv, f.minIv, f.maxIv],
    ] as [NumberColumn, number | undefined, number | undefined][]
  ).filter(([, lo, hi]) => lo !== undefined || hi !== undefined);
  const tickerIdx = str.ticker.idx;
  const rightIdx = str.right.idx;
  const expIdx = str.expiration.idx;
  const keep = (i: number) => {
    if (tickerOk && !tickerOk[tickerIdx[i]]) return false;
    if (wantTicker !== -2 && tickerIdx[i] !== wantTicker) return false;
    if (wantRight !== -2 && rightIdx[i] !== wantRight) return false;
    if (wantExpiration !== -2 && expIdx[i] !== wantExpiration) return false;
    for (const [col, lo, hi] of ranges) {
      const x = col[i];
      if ((lo !== undefined && !(x >= lo)) || (hi !== undefined && !(x <= hi))) return false;
    }
    if (f.onlySweeps && !(num.sweepVolume[i] > 0)) return false;
    if (f.onlyMultiLeg && !(num.multiLegVolume[i] > 0)) return false;
    if (f.excludeMultiLeg && num.multiLegVolume[i] !== 0) return false;
    return true;
  };
  const key = num[KEY_COLUMNS[f.orderBy]];
  const sign = f.order === "asc" ? 1 : -1;
  const symbols = t.dicts.symbol;
  const symbolIdx = str.symbol.idx;
  const cmp = (i: number, j: number) => {
    const d = sign * (key[i] - key[j]);
    if (d) return d;
    const a = symbols[symbolIdx[i]];
    const b = symbols[symbolIdx[j]];
    return a < b ? -1 : a > b ? 1 : 0;
  };
  return topKIndices(t.table.n, f.limit, cmp, keep).map((i) => rowAt(t, i));
}

/**
 * Every row of the table as records, in table order, limited to the rows of `tickers` when
 * given: what the multi-session screens fold (the same rows as the tickers' summaries).
 * @example contractTableRows(open, new Set(["SPY"]))
 */
export function contractTableRows(t: OpenContractTable, tickers?: ReadonlySet<string>): TopContractRow[] {
  const out: TopContractRow[] = [];
  if (t.table.n === 0) return out;
  const ok = tickers ? Uint8Array.from(t.dicts.ticker, (x) => (tickers.has(x) ? 1 : 0)) : null;
  const tickerIdx = t.table.strings.ticker.idx;
  for (let i = 0; i < t.table.n; i++) if (!ok || ok[tickerIdx[i]]) out.push(rowAt(t, i));
  return out;
}
