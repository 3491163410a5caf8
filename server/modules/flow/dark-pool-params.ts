// Query parameters the dark-pool routes share: comma lists, HH:MM, instants given as ISO-8601 or
// epoch nanoseconds, and the trade-date range rules (`date` or `date_start`/`date_end`, capped span).
import { z } from "zod";
import { composeTsNs, parseIsoInstantNs, tsNsToMs } from "../../../lib/market/prints/ts-ns";
import { etDateOf } from "../../../lib/time";
import { ApiError, apiErrors } from "../../errors";

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
  for (let d = start; d <= end; d = addCalendarDays(d, 1)) out.push(d);
  return out;
}

/** A comma-separated list of names (sectors, industries): trimmed, lower-cased, as a set. */
export function nameSetParam(description: string) {
  return z
    .string()
    .transform((raw, ctx) => {
      const names = raw.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
      if (names.length === 0) {
        ctx.addIssue({ code: "custom", message: "give at least one name." });
        return z.NEVER;
      }
      return new Set(names);
    })
    .optional()
    .meta({ description });
}

/** `HH:MM` (00:00 to 23:59) as minutes after midnight. */
export function clockTimeParam(description: string) {
  return z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "must be a time HH:MM (00:00 to 23:59)." })
    .transform((v) => Number(v.slice(0, 2)) * 60 + Number(v.slice(3, 5)))
    .optional()
    .meta({ description, examples: ["09:30"] });
}

/** Instants accepted by `after`/`before`: 2000-01-01 to 2100-01-01 UTC (the calendar covers them). */
const INSTANT_MIN_MS = Date.UTC(2000, 0, 1);
const INSTANT_MAX_MS = Date.UTC(2100, 0, 1);

/** An instant as ISO-8601 with a zone or as epoch nanoseconds, output as `{tsMs, tsNs}`. */
export function instantNsParam(description: string) {
  return z
    .string()
    .transform((raw, ctx) => {
      let parsed: { tsMs: number; tsNs: string } | null = null;
      if (/^\d{1,20}$/.test(raw)) {
        const tsNs = raw.replace(/^0+(?=\d)/, "");
        parsed = { tsMs: tsNsToMs(tsNs), tsNs };
      } else parsed = parseIsoInstantNs(raw);
      if (parsed && parsed.tsMs >= INSTANT_MIN_MS && parsed.tsMs < INSTANT_MAX_MS) return parsed;
      ctx.addIssue({
        code: "custom",
        message: "must be an ISO-8601 instant with a zone (2024-03-06T14:30:00Z) or epoch nanoseconds, from 2000 to 2099.",
      });
      return z.NEVER;
    })
    .optional()
    .meta({ description, examples: ["2024-03-06T14:30:00Z"] });
}

/** The nanosecond text of an instant in milliseconds. */
export const msToNs = (ms: number): string => composeTsNs(ms, 0);

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

/** 400 naming `name` (a rule between parameters that no single schema can state). */
export function invalidCombination(name: string, detail: string): ApiError {
  return apiErrors.invalidParameter(name, detail);
}

/** The `{ticker}` path parameter: upper-cased, ticker grammar. */
export const tickerPath = z.object({
  ticker: z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9][A-Z0-9._-]{0,11}$/, { error: "must be a ticker such as AAPL." }))
    .meta({ description: "Underlying ticker (upper case)." }),
});

/**
 * A path parameter percent-decoded (the router hands them over raw, so the padded contract form
 * arrives as `XOM%20%20%20...`); the raw text when it is not valid percent-encoding.
 */
export function decodedPathParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
