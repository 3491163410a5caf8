// One symbol's live board and the readings every vol route starts from, memoised per board
// minute so that a snapshot, the screener and the stream share one computation per minute.
import type { ChainSnapshot } from "../../../lib/market/market-data";
import { isoUtc } from "../../../lib/positioning/iso-utc";
import { memoizeJson } from "../../http/json-body";
import { DEFAULT_STALE_AFTER_MS, freshness } from "../../../lib/market/freshness";
import { chainTerms, svx as svxOf, SVX_TENORS, type ChainTerms, type SvxReadings } from "../../../lib/vol";
import { timeSlicer } from "../../yield-to-loop";
import type { VolState } from "./vol-route";

/** The board of a symbol at one minute, its VIX terms and SVX readings. */
export interface LiveReading {
  symbol: string;
  board: ChainSnapshot;
  terms: ChainTerms;
  svx: SvxReadings;
}

/** The wrapper fields of one symbol (`asOf`, `sessionDate`, `stale`). */
export function wrapperFields(
  r: LiveReading,
  nowMs: number,
  services: { staleAfterMs?: number } = {},
): { symbol: string; asOf: string; sessionDate: string; stale: boolean } {
  return {
    symbol: r.symbol,
    asOf: isoUtc(r.board.asOfMs),
    sessionDate: r.board.sessionDate,
    // The one staleness rule (docs/methodology.md#staleness), shared with positioning.
    stale: freshness(r.board.asOfMs, nowMs, services.staleAfterMs ?? DEFAULT_STALE_AFTER_MS).stale,
  };
}

/**
 * The live reading of `symbol` at `nowMs` (the board at or before it), or null when the market
 * has no board. Memoised per (symbol, minute); concurrent callers share one computation.
 */
export function liveReading(state: VolState, symbol: string, nowMs: number): Promise<LiveReading | null> {
  const key = `live|${symbol}|${Math.floor(nowMs / 60_000)}`;
  let p = state.memo.get(key) as Promise<LiveReading | null> | undefined;
  if (!p) {
    p = state.services.market.chain(symbol, nowMs).then(async (board) => {
      if (!board) return null;
      const terms = chainTerms(board);
      // `svxAll`, a tenor per slice: each is a VIX-style sum over two expirations' strikes (tens of ms on SPXW).
      const svx = {} as SvxReadings;
      const slice = timeSlicer();
      for (const tenor of SVX_TENORS) {
        await slice();
        svx[tenor] = svxOf(terms, tenor);
      }
      return { symbol, board, terms, svx };
    });
    state.memo.set(key, p);
  }
  return p;
}

const serialised = new WeakSet<object>();

/**
 * Serialise a memoised (never mutated) value once, so every response that carries it splices its
 * text instead of re-serialising it (server/http/json-body.ts): a warm snapshot is mostly the
 * JSON of seven module objects per symbol. Non-objects are returned as they are.
 */
export function memoizeJsonOnce<T>(value: T): T {
  if (typeof value === "object" && value !== null && !serialised.has(value)) {
    memoizeJson(value);
    serialised.add(value);
  }
  return value;
}
