import { DAY_MS, daysFromCivil } from "./_civil";
import { CalendarError } from "./calendar-error";

/** The exchange's time zone. */
export const ET_ZONE = "America/New_York";

/** Years the ET conversion accepts (the tz database and `Date` are exact far beyond this). */
const ET_FIRST_YEAR = 1971;
const ET_LAST_YEAR = 2199;

const MINUTE_MS = 60_000;

/** One year's daylight-saving interval in UTC: offsets are `local - utc` in ms. */
interface YearDst {
  /** First instant on daylight time (UTC ms); equal to `dstEndMs` when the year has none. */
  dstStartMs: number;
  /** First instant back on standard time (UTC ms). */
  dstEndMs: number;
  stdOffsetMs: number;
  dstOffsetMs: number;
}

// Made on first use: an Intl formatter is costly to build and importing the library builds nothing.
let tzFormat: Intl.DateTimeFormat | undefined;

/**
 * Offset of ET from UTC at an instant, asked of the runtime's tz database through `Intl` (the
 * slow, authoritative source; no dependency): `longOffset` names it "GMT-05:00" ("GMT" at zero).
 */
function offsetFromTzDb(utcMs: number): number {
  tzFormat ??= new Intl.DateTimeFormat("en-US", { timeZone: ET_ZONE, timeZoneName: "longOffset" });
  const name = tzFormat.formatToParts(utcMs).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!m) return 0;
  const sign = m[1] === "-" ? -1 : 1;
  return sign * (Number(m[2]) * 60 + Number(m[3])) * MINUTE_MS;
}

/** First whole minute in `(lo, hi]` whose offset is `target`, given `lo` is not and `hi` is. */
function firstMinuteWith(loMs: number, hiMs: number, target: number): number {
  let lo = loMs / MINUTE_MS;
  let hi = hiMs / MINUTE_MS;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetFromTzDb(mid * MINUTE_MS) === target) hi = mid;
    else lo = mid;
  }
  return hi * MINUTE_MS;
}

function computeYear(year: number): YearDst {
  const janMs = daysFromCivil(year, 1, 1) * DAY_MS;
  const julMs = daysFromCivil(year, 7, 1) * DAY_MS;
  const nextJanMs = daysFromCivil(year + 1, 1, 1) * DAY_MS;
  const stdOffsetMs = offsetFromTzDb(janMs);
  const dstOffsetMs = offsetFromTzDb(julMs);
  if (dstOffsetMs === stdOffsetMs) return { dstStartMs: 0, dstEndMs: 0, stdOffsetMs, dstOffsetMs };
  return {
    dstStartMs: firstMinuteWith(janMs, julMs, dstOffsetMs),
    dstEndMs: firstMinuteWith(julMs, nextJanMs - MINUTE_MS, stdOffsetMs),
    stdOffsetMs,
    dstOffsetMs,
  };
}

// Memo of a pure function of the year: the DST interval, found once per year by bisection.
const years: (YearDst | undefined)[] = [];

const AVG_YEAR_MS = 31_556_952_000;

/** UTC calendar year of an instant (arithmetic, independent of the process time zone). */
function utcYearOf(ms: number): number {
  let y = 1970 + Math.floor(ms / AVG_YEAR_MS);
  if (ms < daysFromCivil(y, 1, 1) * DAY_MS) y--;
  else if (ms >= daysFromCivil(y + 1, 1, 1) * DAY_MS) y++;
  return y;
}

function yearDst(ms: number): YearDst {
  if (!Number.isFinite(ms)) throw new CalendarError("invalid_time", `instant must be a finite number of ms, got ${ms}`);
  const year = utcYearOf(ms);
  if (year < ET_FIRST_YEAR || year > ET_LAST_YEAR) {
    throw new CalendarError("out_of_range", `instant ${ms} (year ${year}) is outside ${ET_FIRST_YEAR}-${ET_LAST_YEAR}`);
  }
  const i = year - ET_FIRST_YEAR;
  years[i] ??= computeYear(year);
  return years[i]!;
}

/**
 * ET offset from UTC (`local - utc`, ms) at a UTC instant: -4 h on daylight time, -5 h otherwise.
 * Assumes at most one daylight interval per calendar year, true of America/New_York.
 */
export function etOffsetMsAt(utcMs: number): number {
  const t = yearDst(utcMs);
  return utcMs >= t.dstStartMs && utcMs < t.dstEndMs ? t.dstOffsetMs : t.stdOffsetMs;
}

/**
 * UTC instant of an ET wall time written as "local ms" (the wall clock read as if it were UTC).
 * In the spring-forward gap the wall time is pushed forward by the gap (02:30 -> 03:30 EDT);
 * in the fall-back overlap the earlier (daylight) instant wins.
 */
export function etLocalToUtcMs(localMs: number): number {
  const t = yearDst(localMs);
  const asDst = localMs - t.dstOffsetMs;
  if (asDst >= t.dstStartMs && asDst < t.dstEndMs) return asDst;
  return localMs - t.stdOffsetMs;
}
