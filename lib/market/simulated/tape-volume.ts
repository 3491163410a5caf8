/**
 * One tape is the truth: the board's `volume` column summed from the simulated option tape. A
 * contract's volume at a board minute is the total size of its prints from the session's open up
 * to (not including) that minute. The day's tape is kept per (symbol, session) as compact columns
 * (board row and size per print, prints before each minute), extended only as far as asked, from
 * the order stream's sizes alone: no board is quoted and no print record made (about 4x cheaper).
 * @see docs/methodology.md#one-tape-board-volume-from-the-prints
 */
import type { ChainSnapshot, PrintGrid } from "../market-data";
import { lowerBound } from "./chain-quotes";
import { Lru } from "./_lru";
import type { SessionBoard, SessionGrid } from "./session-board";

const MINUTE_MS = 60_000;

/**
 * The sizes of a session's prints of a symbol (of its minutes in `[fromMs, toMs)` when given),
 * print by print in time order, with the contract grid they were drawn on and the row there (no
 * quotes, no records: `simulatedOptionSessionSizes`).
 */
export type TapeSessionSizesFn = (
  symbol: string,
  day: string,
  add: (grid: PrintGrid, row: number, size: number, minuteMs: number) => void,
  fromMs?: number,
  toMs?: number,
) => void;

/** One symbol's tape for one session, as far as it has been generated. */
interface DayTape {
  /** Session-board row of each print, in time order. */
  rows: number[];
  sizes: number[];
  /** `before[j]`: number of prints before minute boundary j (valid for `j <= minutesDone`). */
  before: Int32Array;
  minutesDone: number;
  /** The grid the sizes came on last, and its rows on the board. */
  grid: PrintGrid | null;
  gridRows: Int32Array;
}

/** The session-board row of a contract, or -1 when the board does not list it. */
function boardRow(board: SessionGrid, e: number, strike: number, right: number): number {
  const from = board.expStart[e];
  const to = board.expStart[e + 1];
  // Rows come in (put, call) pairs per strike, sorted by strike.
  const put = lowerBound(board.strike, from, to, strike);
  if (put >= to || board.strike[put] !== strike) return -1;
  const row = put + right;
  return row < to && board.right[row] === right && board.strike[row] === strike ? row : -1;
}

/** The board rows of a snapshot (or grid) quoted from `board` (full board or window), in snapshot order. */
export function snapshotRows(board: SessionGrid, snap: PrintGrid): Int32Array {
  const n = snap.right.length;
  const first = board.expirations.length - snap.expirations.length;
  const start = board.expStart[first];
  const rows = new Int32Array(n);
  if (n === board.n - start) {
    // The full board from its first live expiration: contiguous rows.
    for (let i = 0; i < n; i++) rows[i] = start + i;
    return rows;
  }
  for (let i = 0; i < n; i++) rows[i] = boardRow(board, first + snap.expIndex[i], snap.strikes[snap.strikeIndex[i]], snap.right[i]);
  return rows;
}

/** The tape memo of one simulated market. */
export interface TapeVolume {
  /**
   * The volume column of `snap` (quoted from `board` at a minute boundary of its session):
   * per contract, the summed size of its prints with `board open <= tsMs < snap.asOfMs`.
   */
  volumeOf(board: SessionBoard, snap: ChainSnapshot): Float64Array;
  /**
   * Per row of `board`, the summed size of the whole session's prints (the session must have
   * closed): what moves the next session's open interest.
   * @see docs/methodology.md#open-interest-carry-from-the-tape
   */
  sessionVolume(board: SessionGrid): Float64Array;
}

/**
 * Creates the memo (the last `capacity` symbol-sessions are kept).
 * @example
 * const tape = createTapeVolume((s, day, add, from, to) => simulatedOptionSessionSizes(quoteOnlyCtx, s, day, add, from, to));
 * snap.volume = tape.volumeOf(board, snap);
 */
export function createTapeVolume(sessionSizesOf: TapeSessionSizesFn, capacity = 64): TapeVolume {
  const tapes = new Lru<string, DayTape>(capacity);
  const sessionTotals = new Lru<string, Float64Array>(capacity);

  const extend = (board: SessionGrid, tape: DayTape, minutes: number): void => {
    if (minutes <= tape.minutesDone) return;
    // The sizes come minute by minute, in time order (any order within a minute).
    let j = tape.minutesDone;
    sessionSizesOf(
      board.symbol,
      board.sessionDate,
      (grid, row, size, minuteMs) => {
        const m = Math.round((minuteMs - board.regOpenMs) / MINUTE_MS);
        while (j < m) tape.before[++j] = tape.rows.length;
        if (grid !== tape.grid) {
          tape.grid = grid;
          tape.gridRows = snapshotRows(board, grid);
        }
        // Every simulated print is on a listed contract of its board; -1 would be a generator bug.
        tape.rows.push(tape.gridRows[row]);
        tape.sizes.push(size);
      },
      board.regOpenMs + j * MINUTE_MS,
      board.regOpenMs + minutes * MINUTE_MS,
    );
    while (j < minutes) tape.before[++j] = tape.rows.length;
    tape.minutesDone = minutes;
  };

  const tapeOf = (board: SessionGrid): DayTape =>
    tapes.get(`${board.symbol}|${board.d}`, () => ({
      rows: [],
      sizes: [],
      before: new Int32Array(board.nReg + 1),
      minutesDone: 0,
      grid: null,
      gridRows: new Int32Array(0),
    }));

  /** Per board row, the size of the prints before minute boundary `minutes`. */
  const volumeByRow = (board: SessionGrid, minutes: number): Float64Array => {
    const tape = tapeOf(board);
    extend(board, tape, minutes);
    const byRow = new Float64Array(board.n);
    const count = tape.before[minutes];
    for (let k = 0; k < count; k++) {
      const row = tape.rows[k];
      if (row >= 0) byRow[row] += tape.sizes[k];
    }
    return byRow;
  };

  return {
    sessionVolume(board) {
      const k = `${board.symbol}|${board.d}`;
      return sessionTotals.get(k, () => {
        const tape = tapes.peek(k);
        if (tape && tape.minutesDone === board.nReg) return volumeByRow(board, board.nReg);
        // Sizes only: the same order stream as the records, with no board quoted.
        const byRow = new Float64Array(board.n);
        let chain: PrintGrid | null = null;
        let rows: Int32Array = new Int32Array(0);
        sessionSizesOf(board.symbol, board.sessionDate, (snap, row, size) => {
          if (snap !== chain) {
            chain = snap;
            rows = snapshotRows(board, snap);
          }
          const r = rows[row];
          if (r >= 0) byRow[r] += size;
        });
        return byRow;
      });
    },
    volumeOf(board, snap) {
      const minutes = Math.min(board.nReg, Math.max(0, Math.round((snap.asOfMs - board.regOpenMs) / MINUTE_MS)));
      const byRow = volumeByRow(board, minutes);
      const rows = snapshotRows(board, snap);
      const volume = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) volume[i] = rows[i] >= 0 ? byRow[rows[i]] : 0;
      return volume;
    },
  };
}

/**
 * Makes `snap.volume` computed on first read (and kept): reading a day of tape is the cost of a
 * board's volume, and most readers (exposure, levels) never read it.
 */
export function lazyVolume(snap: ChainSnapshot, compute: () => Float64Array): ChainSnapshot {
  return lazyColumn(snap, "volume", compute);
}

/**
 * Makes column `name` of `snap` computed on first read (and kept; assignable): `volume` (a day
 * of tape) and `oi` (the previous session's tape) cost what readers of quotes alone never pay.
 */
export function lazyColumn(snap: ChainSnapshot, name: "volume" | "oi", compute: () => Float64Array): ChainSnapshot {
  let column: Float64Array | undefined;
  Object.defineProperty(snap, name, {
    enumerable: true,
    configurable: true,
    get: () => (column ??= compute()),
    set: (v: Float64Array) => {
      column = v;
    },
  });
  return snap;
}
