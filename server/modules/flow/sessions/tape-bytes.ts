/**
 * What a session tape holds in memory, for the byte-bounded tape cache (`flow-route.ts`): its
 * typed columns exactly, plus measured per-print costs of the objects that hang off it (the print,
 * its scored trade and its feed item are built lazily, on first use, so they are counted up front).
 * An SPXW session of ~30k prints is thus ~140 MB, not "a few MB".
 * @see docs/operations.md#cache-budget
 */
import type { OptionPrint } from "../../../../lib/market/market-data";
import type { SessionTape } from "./tape";

/**
 * Heap bytes per print measured on Node 20 (V8, 64-bit) over simulated SPXW, AAPL and XOM
 * sessions (heap used after a full GC, before and after building each part).
 */
export const TAPE_ROW_BYTES = Object.freeze({
  /** One `OptionPrint` object with its strings and the array slot (~530 measured). */
  print: 560,
  /**
   * Sweep grouping and the other per-print parts of the tape besides its typed columns (~100), and
   * the reference rows' per-tape context (`trade-row-context.ts`: strategies, columns, IV changes; ~105).
   */
  tapeParts: 230,
  /** One `ScoredTrade` (`tapeTrades`, built on first use and kept with the tape; ~1,750). */
  scoredTrade: 1_800,
  /** One feed item with its memoized JSON (`flow-feed.ts`, built when paged; ~1,980). */
  feedItem: 2_000,
});

function typedBytes(columns: object): number {
  let bytes = 0;
  for (const v of Object.values(columns)) if (ArrayBuffer.isView(v)) bytes += v.byteLength;
  return bytes;
}

/** Estimated bytes of a tape with everything that may hang off it. */
export function tapeBytes(tape: SessionTape): number {
  const n = tape.prints.length;
  const { print, tapeParts, scoredTrade, feedItem } = TAPE_ROW_BYTES;
  return typedBytes(tape.columns) + typedBytes(tape.scores) + n * (print + tapeParts + scoredTrade + feedItem);
}

/** Estimated bytes of a session's raw prints. */
function printsBytes(prints: readonly OptionPrint[]): number {
  return prints.length * TAPE_ROW_BYTES.print;
}

/** Size of a tape-cache value: a tape entry (`{ uptoMs, promise }`) or a promise of raw prints. */
export function tapeCacheEntryBytes(value: unknown): Promise<number> {
  if (value instanceof Promise) return (value as Promise<readonly OptionPrint[]>).then(printsBytes);
  return (value as { promise: Promise<SessionTape> }).promise.then(tapeBytes);
}
