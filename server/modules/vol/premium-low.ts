// Each tilt contract's running premium low in its session (docs/methodology.md#premium-low-and-cheap-from-low),
// from the market's `contractMinuteQuotes` (the simulator prices a few contracts per minute without
// whole boards). Per contract and session the memo keeps each minute's mid and the running low at
// each minute, extended minute by minute, so any board of the session (a later one, or an earlier
// one asked again) is a lookup. The memo only saves work: a restart recomputes the same lows.
import type { ChainSnapshot, ContractRef } from "../../../lib/market/market-data";
import { foldLow, type RunningLow } from "../../../lib/vol/premium-low";
import { MINUTE_MS } from "../../../lib/vol/defaults";
import type { VolState } from "./vol-route";

/** One contract's session so far: the mid and the running low at each minute from `openMs`. */
export interface MemoLow {
  openMs: number;
  mids: number[];
  lows: number[];
}

const keyOf = (board: ChainSnapshot, c: ContractRef) => `${board.symbol}|${board.sessionDate}|${c.expiration}|${c.strike}|${c.right}`;

/** The reading of `memo` at board instant `atMs`, or undefined when it has not got that far. */
function readAt(memo: MemoLow | undefined, atMs: number): RunningLow | undefined {
  if (!memo) return undefined;
  const k = (atMs - memo.openMs) / MINUTE_MS;
  return k >= 0 && k < memo.mids.length ? { low: memo.lows[k], last: memo.mids[k] } : undefined;
}

/**
 * The running low (and the board minute's mid) of each contract as of `board`, in order; null for
 * all when the market cannot price single contracts (the CSV provider), so the readings are null.
 */
export async function runningLows(state: VolState, board: ChainSnapshot, contracts: readonly ContractRef[]): Promise<(RunningLow | null)[]> {
  const market = state.services.market;
  if (!market.contractMinuteQuotes || contracts.length === 0) return contracts.map(() => null);
  const out: (RunningLow | null)[] = contracts.map(() => null);
  // Contracts grouped by the first minute still to fold: after their memo's last, or the open (0).
  const groups = new Map<number, { i: number; memo: MemoLow | undefined }[]>();
  contracts.forEach((c, i) => {
    const memo = state.premiumLows.get(keyOf(board, c));
    const known = readAt(memo, board.asOfMs);
    if (known) {
      out[i] = known;
      return;
    }
    const from = memo ? memo.openMs + memo.mids.length * MINUTE_MS : 0;
    const list = groups.get(from) ?? [];
    list.push({ i, memo });
    groups.set(from, list);
  });
  for (const [from, list] of groups) {
    const q = await market.contractMinuteQuotes(
      board.symbol,
      list.map((x) => contracts[x.i]),
      from,
      board.asOfMs,
    );
    if (!q || q.t.length === 0 || q.t[q.t.length - 1] !== board.asOfMs || (from > 0 && q.t[0] !== from)) continue;
    list.forEach(({ i, memo }, j) => {
      const next: MemoLow = memo ? { openMs: memo.openMs, mids: [...memo.mids], lows: [...memo.lows] } : { openMs: q.t[0], mids: [], lows: [] };
      let run: RunningLow = { low: next.lows.length ? next.lows[next.lows.length - 1] : Number.NaN, last: Number.NaN };
      for (let m = 0; m < q.t.length; m++) {
        run = foldLow(run, q.bid[j].subarray(m, m + 1), q.ask[j].subarray(m, m + 1));
        next.mids.push(run.last);
        next.lows.push(run.low);
      }
      const key = keyOf(board, contracts[i]);
      const kept = state.premiumLows.get(key);
      if (!kept || kept.mids.length <= next.mids.length) state.premiumLows.set(key, next);
      out[i] = run;
    });
  }
  return out;
}
