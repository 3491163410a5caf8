import { calendarTable, dayIndexOf } from "./_calendar-table";
import { sessionRow } from "./_session-table";
import { CalendarError } from "./calendar-error";
import type { IsoDate, SessionBounds, SessionOptions } from "./types";

const MINUTE_MS = 60_000;

function tradingPosition(date: IsoDate): number {
  const k = calendarTable().tradingIndex[dayIndexOf(date)];
  if (k < 0) throw new CalendarError("no_session", `NYSE has no session on ${date}`);
  return k;
}

/**
 * Start (inclusive) and end (exclusive) of a session: regular 09:30-16:00 ET (13:00 on early
 * closes) or, with `{extended: true}`, 04:00-20:00 ET (17:00 on early closes).
 *
 * @throws CalendarError `no_session` on weekends and holidays, `invalid_date`, `out_of_range`
 * @example
 * sessionBounds("2024-03-11"); // { openMs: Date.UTC(2024, 2, 11, 13, 30), closeMs: Date.UTC(2024, 2, 11, 20, 0) }
 * @see docs/methodology.md#sessions
 */
export function sessionBounds(date: IsoDate, options: SessionOptions = {}): SessionBounds {
  const k = tradingPosition(date);
  const s = sessionRow(k);
  return options.extended ? { openMs: s.extendedOpenMs[k], closeMs: s.extendedCloseMs[k] } : { openMs: s.regularOpenMs[k], closeMs: s.regularCloseMs[k] };
}

/**
 * Number of one-minute frames of a session: 390 regular (210 on early closes), 960 extended
 * (780 on early closes).
 *
 * @example
 * sessionMinuteCount("2024-11-29"); // 210
 * @see docs/methodology.md#sessions
 */
export function sessionMinuteCount(date: IsoDate, options: SessionOptions = {}): number {
  const { openMs, closeMs } = sessionBounds(date, options);
  return (closeMs - openMs) / MINUTE_MS;
}

/**
 * Stamps (epoch ms) of the session's one-minute frames, from the open up to one minute before the
 * close (regular 09:30..15:59 ET, extended 04:00..19:59 ET). A fresh array each call.
 *
 * @example
 * minutesOfSession("2024-07-01").length; // 390
 * @see docs/methodology.md#sessions
 */
export function minutesOfSession(date: IsoDate, options: SessionOptions = {}): number[] {
  const { openMs, closeMs } = sessionBounds(date, options);
  const n = (closeMs - openMs) / MINUTE_MS;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = openMs + i * MINUTE_MS;
  return out;
}
