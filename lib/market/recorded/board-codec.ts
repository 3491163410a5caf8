/**
 * A chain snapshot as the columns of one Parquet row group and back, exactly: every value read
 * back is the double that was written (prices that are whole cents travel as cents, anything
 * else beside them as a double), so a replayed board answers byte for byte what the live one did.
 * Pure: no file access (the store in server/recording/ writes and reads the bytes).
 * @see docs/data.md#store-of-record
 */
import type { ChainSnapshot, ChainWindow } from "../market-data";

/** A board's scalar fields as `ChainSnapshot` has them, strikes as a plain array (JSON). */
type BoardScalars = Pick<
  ChainSnapshot,
  "symbol" | "underlying" | "asOfMs" | "sessionDate" | "spot" | "rate" | "dividendYield" | "simulated" | "expirations" | "expirySettleMs" | "expiryRoot"
> & { strikes: number[] };

/** The scalar part of a board (one JSON object in the file's key-value metadata). */
export interface BoardHeader extends BoardScalars {
  /** Rows of the board (the row group's length). */
  n: number;
  /**
   * Per expiration, the end (exclusive) of its block of rows: rows are sorted by expiration, so
   * expiration j's rows are `[expEnd[j - 1], expEnd[j])`. Absent in files written before it and
   * for a board whose rows are not in expiration order (a windowed read then decodes the whole board).
   */
  expEnd?: number[];
}

/** One column as hyparquet-writer takes it. */
export interface BoardColumn {
  name: string;
  data: Int32Array | Float64Array | (number | null)[];
  type: "INT32" | "DOUBLE";
  nullable: boolean;
  encoding: "DELTA_BINARY_PACKED" | "BYTE_STREAM_SPLIT" | "PLAIN";
}

/** Columns that hold a whole-number multiple of `1 / scale` as an integer, with a double beside it where not. */
const SCALED: readonly { field: "bid" | "ask" | "last" | "oi" | "volume"; scale: number }[] = [
  { field: "bid", scale: 100 },
  { field: "ask", scale: 100 },
  { field: "last", scale: 100 },
  { field: "oi", scale: 1 },
  { field: "volume", scale: 1 },
];

/** Fields whose integer column holds the difference from the bid's (`bid_i`). */
const RELATIVE_TO_BID = new Set(["ask", "last"]);

/** Every column a board may have (the `_x` ones only when some value is not a whole tick). */
export const BOARD_COLUMN_NAMES: readonly string[] = ["strikeIndex", "expIndex", "right", "iv", ...SCALED.flatMap((s) => [`${s.field}_i`, `${s.field}_x`])];

/**
 * Splits `values` into integers `round(v * scale)` (where `int / scale` gives `v` back exactly)
 * and, for the rest (NaN, sub-tick prices, huge values), the double itself; `rest` is null when
 * every value was exact. @see docs/methodology.md#recorded-market
 */
export function splitScaled(values: Float64Array, scale: number): { ints: Int32Array; rest: (number | null)[] | null } {
  const n = values.length;
  const ints = new Int32Array(n);
  let rest: (number | null)[] | null = null;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    const k = Math.round(v * scale);
    // Below 1e9 so that the difference of two such integers fits an INT32 (see encodeBoard).
    if (Math.abs(k) < 1_000_000_000 && k / scale === v && !Object.is(v, -0)) {
      ints[i] = k;
      continue;
    }
    if (rest === null) rest = new Array<number | null>(n).fill(null);
    rest[i] = v;
  }
  return { ints, rest };
}

/** The inverse of `splitScaled`. */
export function joinScaled(ints: ArrayLike<number>, rest: ArrayLike<number | null> | null, scale: number): Float64Array {
  const n = ints.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = ints[i] / scale;
  if (rest) {
    for (let i = 0; i < n; i++) {
      const x = rest[i];
      if (x !== null && x !== undefined) out[i] = x;
    }
  }
  return out;
}

/** The board's header and its columns. */
export function encodeBoard(board: ChainSnapshot): { header: BoardHeader; columns: BoardColumn[] } {
  const n = board.strikeIndex.length;
  const header: BoardHeader = {
    symbol: board.symbol,
    underlying: board.underlying,
    asOfMs: board.asOfMs,
    sessionDate: board.sessionDate,
    spot: board.spot,
    rate: board.rate,
    dividendYield: board.dividendYield,
    simulated: board.simulated,
    expirations: [...board.expirations],
    expirySettleMs: [...board.expirySettleMs],
    expiryRoot: [...board.expiryRoot],
    strikes: Array.from(board.strikes),
    n,
  };
  const expEnd = expirationEnds(board.expIndex, board.expirations.length);
  if (expEnd) header.expEnd = expEnd;
  const right = new Int32Array(n);
  for (let i = 0; i < n; i++) right[i] = board.right[i];
  const columns: BoardColumn[] = [
    { name: "strikeIndex", data: Int32Array.from(board.strikeIndex), type: "INT32", nullable: false, encoding: "DELTA_BINARY_PACKED" },
    { name: "expIndex", data: Int32Array.from(board.expIndex), type: "INT32", nullable: false, encoding: "DELTA_BINARY_PACKED" },
    { name: "right", data: right, type: "INT32", nullable: false, encoding: "DELTA_BINARY_PACKED" },
    { name: "iv", data: Float64Array.from(board.iv), type: "DOUBLE", nullable: false, encoding: "PLAIN" },
  ];
  // Ask and last are stored as cents above the bid (a few ticks: a few bits each), the rest as is.
  const split = new Map(SCALED.map(({ field, scale }) => [field, splitScaled(board[field], scale)]));
  const bidInts = split.get("bid")!.ints;
  for (const { field } of SCALED) {
    const { ints, rest } = split.get(field)!;
    const stored = RELATIVE_TO_BID.has(field) ? ints.map((k, i) => k - bidInts[i]) : ints;
    columns.push({ name: `${field}_i`, data: stored, type: "INT32", nullable: false, encoding: "DELTA_BINARY_PACKED" });
    if (rest) columns.push({ name: `${field}_x`, data: rest, type: "DOUBLE", nullable: true, encoding: "PLAIN" });
  }
  return { header, columns };
}

/** Column values as read back (hyparquet gives typed arrays or plain arrays). */
export type ReadColumns = Record<string, ArrayLike<number | null> | undefined>;

/**
 * The board from its header and its columns (`_x` columns may be absent).
 * @example decodeBoard(header, { strikeIndex, expIndex, right, iv, bid_i, ask_i, last_i, oi_i, volume_i })
 */
export function decodeBoard(header: BoardHeader, cols: ReadColumns): ChainSnapshot {
  const need = (name: string): ArrayLike<number | null> => {
    const c = cols[name];
    if (!c) throw new Error(`recorded board ${header.symbol} at ${header.asOfMs}: column ${name} missing`);
    return c;
  };
  const ints = (name: string) => Int32Array.from(need(name) as ArrayLike<number>);
  const rightIn = need("right") as ArrayLike<number>;
  const right = new Uint8Array(rightIn.length);
  for (let i = 0; i < right.length; i++) right[i] = rightIn[i];
  const bidInts = need("bid_i") as ArrayLike<number>;
  const scaled = (field: string, scale: number) => {
    let ints = need(`${field}_i`) as ArrayLike<number>;
    if (RELATIVE_TO_BID.has(field)) {
      const abs = new Float64Array(ints.length);
      for (let i = 0; i < abs.length; i++) abs[i] = ints[i] + bidInts[i];
      ints = abs;
    }
    return joinScaled(ints, cols[`${field}_x`] ?? null, scale);
  };
  return {
    ...snapshotHeader(header),
    strikeIndex: ints("strikeIndex"),
    expIndex: ints("expIndex"),
    right,
    oi: scaled("oi", 1),
    bid: scaled("bid", 100),
    ask: scaled("ask", 100),
    last: scaled("last", 100),
    iv: Float64Array.from(need("iv") as ArrayLike<number>),
    volume: scaled("volume", 1),
  };
}

/** Row ends per expiration of rows sorted by expiration (`BoardHeader.expEnd`); null when they are not. */
function expirationEnds(expIndex: ArrayLike<number>, expirations: number): number[] | null {
  const ends = new Array<number>(expirations).fill(0);
  let prev = 0;
  for (let i = 0; i < expIndex.length; i++) {
    const e = expIndex[i];
    if (e < prev || e >= expirations) return null;
    prev = e;
  }
  // Sorted: an expiration's block ends where the next larger index begins.
  let i = 0;
  for (let j = 0; j < expirations; j++) {
    while (i < expIndex.length && expIndex[i] <= j) i++;
    ends[j] = i;
  }
  return ends;
}

/** The rows a window needs: those of `keep` (by expiration index) with strike index in `[lo, hi)`, all before `rowEnd`. */
export interface BoardWindowPlan {
  /** Expirations kept (the nearest `maxExpirations` unsettled ones), 1 where kept. */
  keep: Uint8Array;
  lo: number;
  hi: number;
  /** Every kept row lies before this row; `n` when the header cannot tell (no `expEnd`). */
  rowEnd: number;
}

/**
 * The window's rows in terms of the board's header: the nearest `maxExpirations` expirations
 * settling after `asOfMs` (as `lib/positioning`'s selectExpirations picks them) and the strike
 * rows `strikeWindow(strikes, spot)` picks. docs/data.md#windowed-reads
 */
export function boardWindowPlan(
  header: Pick<BoardHeader, "asOfMs" | "spot" | "expirations" | "expirySettleMs" | "n" | "expEnd"> & { strikes: ArrayLike<number> },
  select: ChainWindow,
): BoardWindowPlan {
  const nExp = header.expirations.length;
  const keep = new Uint8Array(nExp);
  let kept = 0;
  let last = -1;
  const max = select.maxExpirations === "all" ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(select.maxExpirations));
  for (let j = 0; j < nExp && kept < max; j++) {
    if (!(header.expirySettleMs[j] > header.asOfMs)) continue;
    keep[j] = 1;
    kept++;
    last = j;
  }
  const strikes = Float64Array.from(header.strikes);
  const { lo, hi } = strikes.length > 0 ? select.strikeWindow(strikes, header.spot) : { lo: 0, hi: 0 };
  const rowEnd = last < 0 || hi <= lo ? 0 : header.expEnd ? header.expEnd[last] : header.n;
  return { keep, lo, hi, rowEnd };
}

/** Columns a windowed read decodes (`last` and `volume` are left NaN). */
export const WINDOW_COLUMN_NAMES: readonly string[] = ["strikeIndex", "expIndex", "right", "iv", "oi_i", "oi_x", "bid_i", "bid_x", "ask_i", "ask_x"];

/**
 * The window of a board from its header and the `WINDOW_COLUMN_NAMES` columns of its first
 * `plan.rowEnd` rows (or more): the header's snapshot fields, the kept rows in board order, each
 * value the one `decodeBoard` gives; `last` and `volume` NaN.
 */
export function decodeBoardWindow(header: BoardHeader, cols: ReadColumns, plan: BoardWindowPlan): ChainSnapshot {
  const need = (name: string): ArrayLike<number> => {
    const c = cols[name];
    if (!c && plan.rowEnd > 0) throw new Error(`recorded board ${header.symbol} at ${header.asOfMs}: column ${name} missing`);
    return (c ?? []) as ArrayLike<number>;
  };
  const strikeIndex = need("strikeIndex");
  const expIndex = need("expIndex");
  const rows: number[] = [];
  for (let i = 0; i < plan.rowEnd; i++) {
    const s = strikeIndex[i];
    if (s >= plan.lo && s < plan.hi && plan.keep[expIndex[i]] === 1) rows.push(i);
  }
  const picked = (name: string): Float64Array => {
    const c = need(name);
    const out = new Float64Array(rows.length);
    for (let k = 0; k < rows.length; k++) out[k] = c[rows[k]];
    return out;
  };
  // The `_x` column holds the exact double where the integer one cannot (null elsewhere).
  const pickedRest = (name: string): (number | null)[] | null => {
    const c = cols[name] as ArrayLike<number | null> | undefined;
    return c ? rows.map((i) => c[i] ?? null) : null;
  };
  const bidInts = picked("bid_i");
  const scaled = (field: "bid" | "ask" | "oi", scale: number) => {
    let ints = field === "bid" ? bidInts : picked(`${field}_i`);
    if (RELATIVE_TO_BID.has(field)) ints = ints.map((k, i) => k + bidInts[i]);
    return joinScaled(ints, pickedRest(`${field}_x`), scale);
  };
  const right = new Uint8Array(rows.length);
  const rightIn = need("right");
  for (let k = 0; k < rows.length; k++) right[k] = rightIn[rows[k]];
  return {
    ...snapshotHeader(header),
    strikeIndex: Int32Array.from(picked("strikeIndex")),
    expIndex: Int32Array.from(picked("expIndex")),
    right,
    oi: scaled("oi", 1),
    bid: scaled("bid", 100),
    ask: scaled("ask", 100),
    last: new Float64Array(rows.length).fill(Number.NaN),
    iv: picked("iv"),
    volume: new Float64Array(rows.length).fill(Number.NaN),
  };
}

/** The window of a whole decoded board (same rows and values as `decodeBoardWindow`). */
export function sliceBoardWindow(board: ChainSnapshot, plan: BoardWindowPlan): ChainSnapshot {
  const rows: number[] = [];
  const end = Math.min(plan.rowEnd, board.strikeIndex.length);
  for (let i = 0; i < end; i++) {
    const s = board.strikeIndex[i];
    if (s >= plan.lo && s < plan.hi && plan.keep[board.expIndex[i]] === 1) rows.push(i);
  }
  const pick = <T extends Float64Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
    const out = make(rows.length);
    for (let k = 0; k < rows.length; k++) out[k] = a[rows[k]];
    return out;
  };
  const f64 = (n: number) => new Float64Array(n);
  return {
    ...board,
    expirations: [...board.expirations],
    expirySettleMs: [...board.expirySettleMs],
    expiryRoot: [...board.expiryRoot],
    strikes: board.strikes.slice(),
    strikeIndex: pick(board.strikeIndex, (n) => new Int32Array(n)),
    expIndex: pick(board.expIndex, (n) => new Int32Array(n)),
    right: pick(board.right, (n) => new Uint8Array(n)),
    oi: pick(board.oi, f64),
    bid: pick(board.bid, f64),
    ask: pick(board.ask, f64),
    last: new Float64Array(rows.length).fill(Number.NaN),
    iv: pick(board.iv, f64),
    volume: new Float64Array(rows.length).fill(Number.NaN),
  };
}

/** A board's scalar fields and axes, from its header. */
function snapshotHeader(header: BoardHeader) {
  return {
    symbol: header.symbol,
    underlying: header.underlying,
    asOfMs: header.asOfMs,
    sessionDate: header.sessionDate,
    spot: header.spot,
    rate: header.rate,
    dividendYield: header.dividendYield,
    simulated: header.simulated,
    expirations: [...header.expirations],
    expirySettleMs: [...header.expirySettleMs],
    expiryRoot: [...header.expiryRoot],
    strikes: Float64Array.from(header.strikes),
  };
}
