/**
 * A chain snapshot as the columns of one Parquet row group and back, exactly: every value read
 * back is the double that was written (prices that are whole cents travel as cents, anything
 * else beside them as a double), so a replayed board answers byte for byte what the live one did.
 * Pure: no file access (the store in server/recording/ writes and reads the bytes).
 * @see docs/data.md#store-of-record
 */
import type { ChainSnapshot } from "../market-data";

/** The scalar part of a board (one JSON object in the file's key-value metadata). */
export interface BoardHeader {
  symbol: string;
  underlying: string;
  asOfMs: number;
  sessionDate: string;
  spot: number;
  rate: number;
  dividendYield: number;
  simulated: boolean;
  expirations: string[];
  expirySettleMs: number[];
  expiryRoot: string[];
  strikes: number[];
  /** Rows of the board (the row group's length). */
  n: number;
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
