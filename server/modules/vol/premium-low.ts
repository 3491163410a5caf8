// Each tilt contract's running premium low in its session (docs/methodology.md#premium-low-and-cheap-from-low),
// from the market's `contractMinuteQuotes` (the simulator prices a few contracts per minute without
// whole boards). Lows are memoised per contract and session and extended minute by minute; the memo
// only saves work: a restart recomputes the same lows from the session's open.
import type { ChainSnapshot, ContractRef } from "../../../lib/market/market-data";
import { foldLow, type RunningLow } from "../../../lib/vol/premium-low";
import { MINUTE_MS } from "../../../lib/vol/defaults";
import type { VolState } from "./vol-route";

/** A low as memoised: folded through the board at `throughMs`. */
export interface MemoLow extends RunningLow {
  throughMs: number;
}

const keyOf = (board: ChainSnapshot, c: ContractRef) => `${board.symbol}|${board.sessionDate}|${c.expiration}|${c.strike}|${c.right}`;

/**
 * The running low (and the board minute's mid) of each contract as of `board`, in order; null for
 * all when the market cannot price single contracts (the CSV provider), so the readings are null.
 */
export async function runningLows(state: VolState, board: ChainSnapshot, contracts: readonly ContractRef[]): Promise<(RunningLow | null)[]> {
  const market = state.services.market;
  if (!market.contractMinuteQuotes || contracts.length === 0) return contracts.map(() => null);
  const out: (RunningLow | null)[] = contracts.map(() => null);
  // Contracts grouped by the first minute still to fold: their memo's next minute, or the open.
  const groups = new Map<number, number[]>();
  const start: (MemoLow | undefined)[] = contracts.map(() => undefined);
  contracts.forEach((c, i) => {
    const memo = state.premiumLows.get(keyOf(board, c));
    if (memo && memo.throughMs === board.asOfMs) {
      out[i] = memo;
      return;
    }
    // A memo past this board (an older board asked for) is not this board's low: fold from the open.
    const extend = memo && memo.throughMs < board.asOfMs ? memo : undefined;
    start[i] = extend;
    const from = extend ? extend.throughMs + MINUTE_MS : 0;
    const list = groups.get(from) ?? [];
    list.push(i);
    groups.set(from, list);
  });
  for (const [from, idx] of groups) {
    const q = await market.contractMinuteQuotes(board.symbol, idx.map((i) => contracts[i]), from, board.asOfMs);
    if (!q || q.t.length === 0 || q.t[q.t.length - 1] !== board.asOfMs) continue;
    idx.forEach((i, j) => {
      const key = keyOf(board, contracts[i]);
      const folded = foldLow(start[i] ?? { low: Number.NaN, last: Number.NaN }, q.bid[j], q.ask[j]);
      const next: MemoLow = { ...folded, throughMs: board.asOfMs };
      const kept = state.premiumLows.get(key);
      if (!kept || kept.throughMs <= board.asOfMs) state.premiumLows.set(key, next);
      out[i] = next;
    });
  }
  return out;
}
