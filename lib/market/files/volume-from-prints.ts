/**
 * One tape is the truth, for files: when a folder holds option prints of a root for a session
 * date, a board's `volume` for that root's contracts is the summed size of those prints from the
 * start of the date up to (not including) the board's `asOf`; the `volume` column of
 * `chains.csv` is kept only for roots and dates without prints.
 * @see docs/data.md#board-volume-and-option-prints
 */
import { etDateOf, etInstant } from "../../time";
import type { ChainSnapshot } from "../market-data";
import type { OptionPrint } from "../prints/schemas";
import type { TimeSeries } from "./file-market-builder";
import { lowerBound } from "./file-market";

const contractKey = (root: string, expiry: string, strike: number, right: "C" | "P") => `${root}|${expiry}|${strike}|${right}`;

/**
 * A copy of `board` whose volume is summed from the prints of each root that has prints on the
 * board's session date (the board itself when no root has any).
 * @example
 * boardVolumeFromPrints(board, tables.optionPrintsByRoot).volume; // contracts traded before asOf
 */
export function boardVolumeFromPrints(board: ChainSnapshot, printsByRoot: ReadonlyMap<string, TimeSeries<OptionPrint>>): ChainSnapshot {
  const dayStartMs = etInstant(board.sessionDate, "00:00");
  const sums = new Map<string, number>();
  const taped = new Set<string>();
  for (const root of new Set(board.expiryRoot)) {
    const series = printsByRoot.get(root);
    if (!series) continue;
    let k = lowerBound(series.tsMs, dayStartMs);
    if (k >= series.items.length || etDateOf(series.tsMs[k]) !== board.sessionDate) continue;
    taped.add(root);
    for (; k < series.items.length && series.tsMs[k] < board.asOfMs; k++) {
      const p = series.items[k];
      const key = contractKey(p.root, p.expiry, p.strike, p.right);
      sums.set(key, (sums.get(key) ?? 0) + p.size);
    }
  }
  if (taped.size === 0) return board;
  const volume = board.volume.slice();
  for (let i = 0; i < volume.length; i++) {
    const e = board.expIndex[i];
    const root = board.expiryRoot[e];
    if (!taped.has(root)) continue;
    const key = contractKey(root, board.expirations[e], board.strikes[board.strikeIndex[i]], board.right[i] === 1 ? "C" : "P");
    volume[i] = sums.get(key) ?? 0;
  }
  return { ...board, volume };
}
