/**
 * The simulation's session table: every NYSE trading day from 2023-03-28 to the end of the
 * calendar, with regular and extended bounds, and instant -> session lookups.
 * @see docs/methodology.md#sessions-and-instants
 */
import { CALENDAR_LAST_YEAR, sessionBounds, tradingDaysBetween } from "../../time";
import { SIMULATION_START_DATE } from "../universe";

/** Sessions the simulator covers, in order, with their bounds (ms). */
export interface SimCalendar {
  days: string[];
  dayIndex: Map<string, number>;
  regOpen: Float64Array;
  regClose: Float64Array;
  extOpen: Float64Array;
  extClose: Float64Array;
}

let table: SimCalendar | undefined;

/** The (lazily built, immutable) session table. */
export function simCalendar(): SimCalendar {
  if (table) return table;
  const days = tradingDaysBetween(SIMULATION_START_DATE, `${CALENDAR_LAST_YEAR}-12-31`);
  const n = days.length;
  const t: SimCalendar = {
    days,
    dayIndex: new Map(days.map((d, i) => [d, i])),
    regOpen: new Float64Array(n),
    regClose: new Float64Array(n),
    extOpen: new Float64Array(n),
    extClose: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const r = sessionBounds(days[i]);
    const e = sessionBounds(days[i], { extended: true });
    t.regOpen[i] = r.openMs;
    t.regClose[i] = r.closeMs;
    t.extOpen[i] = e.openMs;
    t.extClose[i] = e.closeMs;
  }
  table = t;
  return t;
}

/** Index of the last session whose extended open is at or before `ms`; -1 before the first. */
export function sessionIndexAtOrBefore(ms: number): number {
  const { extOpen } = simCalendar();
  let lo = 0;
  let hi = extOpen.length - 1;
  if (!(ms >= extOpen[0])) return -1;
  if (ms >= extOpen[hi]) return hi;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (extOpen[mid] <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
