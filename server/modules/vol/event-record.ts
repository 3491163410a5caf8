// Which past reports make a symbol's earnings record, and the sessions whose closes it reads: the
// `events` module reads them per request, the warm-up reads their closes ahead of the first
// minute (docs/methodology.md#volatility-server-readings).
import type { EarningsEvent, IsoDate } from "../../../lib/market/market-data";
import { reactionSessions } from "../../../lib/vol";
import type { VolState } from "./vol-route";
import { yieldToLoop } from "../../yield-to-loop";

/** Years back searched for past reports, and reports kept in the record (the last eight quarters). */
const PAST_EVENT_DAYS = 3 * 365;
const RECORD_REPORTS = 8;

export const shiftDays = (date: IsoDate, days: number): IsoDate => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The reports of the earnings ticker behind a covered symbol (its underlying; indices have none)
 * in `[from, to]`, memoised: the windows move once a day and every minute's rows ask again.
 */
export function earningsOf(state: VolState, symbol: string, from: IsoDate, to: IsoDate): Promise<EarningsEvent[]> {
  const key = `earn|${symbol}|${from}|${to}`;
  let p = state.memo.get(key) as Promise<EarningsEvent[]> | undefined;
  if (!p) {
    p = (async () => {
      const info = (await state.coverage.all()).get(symbol)?.info;
      if (!info || info.type === "index") return [];
      return state.services.market.earnings(info.underlying, from, to);
    })();
    state.memo.set(key, p);
    // A failed read is not kept: the next caller tries again.
    p.catch(() => state.memo.delete(key));
  }
  return p;
}

/** The last `RECORD_REPORTS` reports within `PAST_EVENT_DAYS` whose reaction session closed before `today`, oldest first. */
export async function recordReports(state: VolState, symbol: string, today: IsoDate): Promise<EarningsEvent[]> {
  return (await earningsOf(state, symbol, shiftDays(today, -PAST_EVENT_DAYS), today))
    .filter((e) => reactionSessions(e).after < today)
    .sort((a, b) => (a.date < b.date ? -1 : 1))
    .slice(-RECORD_REPORTS);
}

/**
 * Put the closes of `symbol`'s record (each report's session before and after) in the daily store,
 * yielding between fresh ones: they lie outside the history window, so without this the first
 * minute of a process builds up to sixteen closing boards per stock.
 */
export async function warmRecordCloses(state: VolState, symbol: string, today: IsoDate): Promise<void> {
  const sessions = (await recordReports(state, symbol, today)).flatMap((e) => {
    const { before, after } = reactionSessions(e);
    return [before, after];
  });
  // With compute workers, asked for at once (the loop only awaits; the workers take them in turn).
  if (state.services.computePool) {
    await Promise.all(sessions.map((d) => state.daily.reading(symbol, d)));
    return;
  }
  for (const d of sessions) {
    await state.daily.reading(symbol, d);
    await yieldToLoop();
  }
}
