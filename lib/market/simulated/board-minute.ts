/**
 * Which minute a simulated board stands at: the one board-minute rule of the simulator, for the
 * regular session (the default) and for the extended session (04:00-20:00 ET, 17:00 on early
 * closes), where option boards exist outside regular hours too.
 * @see docs/methodology.md#extended-hours-boards
 */
import { sessionIndexAtOrBefore, simCalendar } from "./_calendar";

const MINUTE_MS = 60_000;

/** A board's session index, its instant, and its price boundary `k` (minutes from the extended open). */
export interface BoardMinute {
  d: number;
  asOfMs: number;
  k: number;
}

/**
 * The session index and minute boundary a board at `t` (already capped at the clock) stands at.
 * Inside the session: the minute at or before `t`; after it, the session's close; before a
 * session's (regular or extended) open, the previous session's close. Null before the first.
 * @example boardMinuteAt(etInstant("2024-03-06", "08:00:30"), { extended: true }) // 08:00 of that session
 */
export function boardMinuteAt(t: number, options: { extended?: boolean } = {}): BoardMinute | null {
  const cal = simCalendar();
  const open = options.extended ? cal.extOpen : cal.regOpen;
  const close = options.extended ? cal.extClose : cal.regClose;
  let d = sessionIndexAtOrBefore(t);
  if (d < 0) return null;
  if (t < open[d]) d -= 1;
  if (d < 0) return null;
  const asOfMs = t >= close[d] ? close[d] : open[d] + Math.floor((t - open[d]) / MINUTE_MS) * MINUTE_MS;
  return { d, asOfMs, k: Math.round((asOfMs - cal.extOpen[d]) / MINUTE_MS) };
}
