import { etDateOf } from "../../../../lib/time";
import { apiErrors } from "../../../errors";

const DAY_MS = 86_400_000;

/** Calendar days from `start` to `end`, both counted. @example countCalendarDays("2024-03-01", "2024-03-31") // 31 */
export function countCalendarDays(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The calendar date `days` after `date` (negative: before). */
export function addCalendarDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every calendar date from `start` to `end`, both included. */
export function calendarDates(start: string, end: string): string[] {
  const out: string[] = [];
  // By count, not by comparing text: the day after 9999-12-31 is "+010000-01-01", which sorts
  // before it (a loop on `d <= end` never ended and filled the heap).
  for (let i = 0, n = countCalendarDays(start, end); i < n; i++) out.push(addCalendarDays(start, i));
  return out;
}

/** An inclusive range of ET trade dates. */
export interface TradeDateRange {
  start: string;
  end: string;
}

/**
 * The trade dates a call covers. `date` alone, or `date_start`/`date_end` (a missing end is today,
 * a missing start is the end); neither: the ET dates of `after`/`before` when given, else today.
 * Combining `date` with a range, a start after the end, or a span over `maxSpanDays` calendar days
 * is a 400 naming the parameter.
 */
export function tradeDateRange(
  q: { date?: string; date_start?: string; date_end?: string; after?: { tsMs: number }; before?: { tsMs: number } },
  nowMs: number,
  maxSpanDays: number,
): TradeDateRange {
  const today = etDateOf(nowMs);
  let range: TradeDateRange;
  if (q.date !== undefined) {
    if (q.date_start !== undefined || q.date_end !== undefined) {
      throw apiErrors.invalidParameter("date", "give either `date` or `date_start`/`date_end`, not both.");
    }
    range = { start: q.date, end: q.date };
  } else if (q.date_start !== undefined || q.date_end !== undefined) {
    const end = q.date_end ?? today;
    range = { start: q.date_start ?? end, end };
  } else if (q.after !== undefined || q.before !== undefined) {
    const start = q.after ? etDateOf(q.after.tsMs) : etDateOf(q.before!.tsMs);
    const end = q.before ? etDateOf(q.before.tsMs) : today;
    // biome-ignore lint/complexity/useMathMinMax: ISO dates, compared as strings
    range = { start, end: end < start ? start : end };
  } else {
    range = { start: today, end: today };
  }
  if (range.start > range.end) throw apiErrors.invalidParameter("date_start", "must not be after `date_end`.");
  const span = countCalendarDays(range.start, range.end);
  if (span > maxSpanDays) {
    throw apiErrors.rangeTooLarge(`The trade-date range spans ${span} days; at most ${maxSpanDays} per request.`, {
      requested_days: span,
      max_days: maxSpanDays,
    });
  }
  return range;
}
