/**
 * A per-board index for drawing contracts: rows grouped by expiration and right, sorted by
 * strike, plus a lazily filled cache of contract symbols. Memoised per board object (boards are
 * immutable once made, so the memo is a pure cache).
 */
import { formatOptionSymbol } from "../../symbols/format-option-symbol";
import type { ChainSnapshot, PrintGrid } from "../market-data";

/** The columns of a chain snapshot that the print generator reads. */
export type PrintChainView = Pick<
  ChainSnapshot,
  | "underlying"
  | "asOfMs"
  | "sessionDate"
  | "spot"
  | "expirations"
  | "expirySettleMs"
  | "expiryRoot"
  | "strikes"
  | "strikeIndex"
  | "expIndex"
  | "right"
  | "bid"
  | "ask"
  | "iv"
>;

/** The structural columns of a board: which contracts it lists, in which rows (no quotes). */
export type PrintGridView = PrintGrid;

/** Rows of one expiration and right, sorted by strike. */
interface RightBucket {
  rows: Int32Array;
  strikes: Float64Array;
}

export interface ChainIndex {
  /** `buckets[e][r]`: expiration e, right r (0 put, 1 call). */
  buckets: RightBucket[][];
  /** Expirations per root, in board order. */
  expirationsByRoot: Map<string, number[]>;
  symbolOf(row: number): string;
}

const memo = new WeakMap<object, ChainIndex>();

/** The structural columns of a board: what its index depends on. */
type Structure = Pick<PrintGridView, "underlying" | "expirations" | "expiryRoot" | "strikes" | "strikeIndex" | "expIndex" | "right">;

/** The last few indexes built, with the structure of the board each came from (not its quotes). */
const recent: { chain: Structure; index: ChainIndex }[] = [];
const RECENT_SIZE = 4;

/** Whether two boards list the same contracts in the same rows (so one index serves both). */
function sameStructure(a: Structure, b: Structure): boolean {
  if (a.strikeIndex.length !== b.strikeIndex.length || a.strikes.length !== b.strikes.length) return false;
  if (a.expirations.length !== b.expirations.length || a.underlying !== b.underlying) return false;
  for (let e = 0; e < a.expirations.length; e++) {
    if (a.expirations[e] !== b.expirations[e] || a.expiryRoot[e] !== b.expiryRoot[e]) return false;
  }
  for (let k = 0; k < a.strikes.length; k++) if (a.strikes[k] !== b.strikes[k]) return false;
  for (let i = 0; i < a.strikeIndex.length; i++) {
    if (a.strikeIndex[i] !== b.strikeIndex[i] || a.expIndex[i] !== b.expIndex[i] || a.right[i] !== b.right[i]) return false;
  }
  return true;
}

/**
 * The index of a board, built once per board object, and shared with the boards of the same
 * structure that follow (a session's boards every 15 minutes list the same contracts: comparing
 * the columns is far cheaper than indexing and formatting symbols again).
 */
export function chainIndex(chain: Structure): ChainIndex {
  let index = memo.get(chain);
  if (!index) {
    index = recent.find((r) => sameStructure(r.chain, chain))?.index ?? buildIndex(chain);
    memo.set(chain, index);
    const { underlying, expirations, expiryRoot, strikes, strikeIndex, expIndex, right } = chain;
    recent.unshift({ chain: { underlying, expirations, expiryRoot, strikes, strikeIndex, expIndex, right }, index });
    if (recent.length > RECENT_SIZE) recent.pop();
  }
  return index;
}

function buildIndex(chain: Structure): ChainIndex {
  const nExp = chain.expirations.length;
  const n = chain.strikeIndex.length;
  const counts = new Int32Array(nExp * 2);
  for (let i = 0; i < n; i++) counts[chain.expIndex[i] * 2 + chain.right[i]]++;
  const lists: Int32Array[] = [];
  for (let k = 0; k < nExp * 2; k++) lists.push(new Int32Array(counts[k]));
  const fill = new Int32Array(nExp * 2);
  for (let i = 0; i < n; i++) {
    const k = chain.expIndex[i] * 2 + chain.right[i];
    lists[k][fill[k]++] = i;
  }
  const buckets: RightBucket[][] = [];
  for (let e = 0; e < nExp; e++) {
    const pair: RightBucket[] = [];
    for (let r = 0; r < 2; r++) {
      const rows = lists[e * 2 + r];
      const strikeOf = (row: number) => chain.strikes[chain.strikeIndex[row]];
      let sorted = true;
      for (let j = 1; j < rows.length && sorted; j++) sorted = strikeOf(rows[j - 1]) <= strikeOf(rows[j]);
      if (!sorted) rows.sort((a, b) => strikeOf(a) - strikeOf(b));
      const strikes = new Float64Array(rows.length);
      for (let j = 0; j < rows.length; j++) strikes[j] = strikeOf(rows[j]);
      pair.push({ rows, strikes });
    }
    buckets.push(pair);
  }
  const expirationsByRoot = new Map<string, number[]>();
  for (let e = 0; e < nExp; e++) {
    const root = chain.expiryRoot[e];
    const list = expirationsByRoot.get(root);
    if (list) list.push(e);
    else expirationsByRoot.set(root, [e]);
  }
  const symbols: (string | undefined)[] = new Array(n);
  const symbolOf = (row: number): string => {
    let s = symbols[row];
    if (s === undefined) {
      s = formatOptionSymbol(
        {
          root: chain.expiryRoot[chain.expIndex[row]],
          expiry: chain.expirations[chain.expIndex[row]],
          right: chain.right[row] === 1 ? "C" : "P",
          strike: chain.strikes[chain.strikeIndex[row]],
        },
        "url",
      );
      symbols[row] = s;
    }
    return s;
  };
  return { buckets, expirationsByRoot, symbolOf };
}

/** Index of the element of a sorted array nearest to `x` (-1 when empty). */
export function nearestIndex(sorted: Float64Array, x: number): number {
  const n = sorted.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && x - sorted[lo - 1] <= sorted[lo] - x) return lo - 1;
  return lo;
}
