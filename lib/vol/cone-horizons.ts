import type { IsoDate } from "../market/market-data";
import { monthlyExpiration, type Settlement } from "../symbols";
import { isTradingDay, marketStateAt, nextTradingDay, previousTradingDay, sessionBounds, sessionDateAt } from "../time";
import { MINUTE_MS, MINUTES_PER_DAY } from "./defaults";

/** The cone horizons, nearest first. */
export const CONE_HORIZONS = ["close", "1d", "week", "opex", "30d"] as const;
export type ConeHorizonName = (typeof CONE_HORIZONS)[number];

/** A horizon's settle instant; null where the horizon does not exist at that moment. */
export interface ConeHorizonTarget {
  name: ConeHorizonName;
  settleMs: number | null;
  /** The ET session whose close it is (null for `30d`). */
  sessionDate: IsoDate | null;
}

const weekStartDays = (date: IsoDate): number => {
  const d = new Date(`${date}T12:00:00Z`);
  return Math.floor(d.getTime() / 86_400_000) - ((d.getUTCDay() + 6) % 7); // Monday
};

/** The last trading day of the Monday-Sunday week containing `date`. */
export function lastTradingDayOfWeek(date: IsoDate): IsoDate {
  const week = weekStartDays(date);
  let last = date;
  for (let d = nextTradingDay(date); weekStartDays(d) === week; d = nextTradingDay(d)) last = d;
  return last;
}

/** The first session whose regular close is after `asOfMs`. */
function firstCloseAfter(asOfMs: number): IsoDate {
  const s = sessionDateAt(asOfMs);
  return isTradingDay(s) && sessionBounds(s).closeMs > asOfMs ? s : nextTradingDay(s);
}

/** The monthly expiration on or after `date` (third Friday, holiday-adjusted). */
function monthlyOnOrAfter(date: IsoDate): IsoDate {
  let y = Number(date.slice(0, 4));
  let m = Number(date.slice(5, 7));
  for (;;) {
    const e = monthlyExpiration(y, m);
    if (e >= date) return e;
    m = m === 12 ? 1 : m + 1;
    if (m === 1) y++;
  }
}

/** The first AM-settled monthly expiration whose 09:30 ET settlement is after `asOfMs`. */
function amOpex(asOfMs: number): { date: IsoDate; settleMs: number } {
  let date = monthlyOnOrAfter(sessionDateAt(asOfMs));
  if (sessionBounds(date).openMs <= asOfMs) date = monthlyOnOrAfter(nextTradingDay(date));
  return { date, settleMs: sessionBounds(date).openMs };
}

/**
 * Settle instants of the cone horizons at `asOfMs`:
 * `close` today's regular close (only while the market is open), `1d` the close of the next
 * session after the current one (today's close before the open), `week` the close of the last
 * trading day of the week of the first close after `asOfMs`, `opex` the close of the first monthly
 * expiration whose close is after `asOfMs` (for an AM-settled board, the 09:30 ET settlement of the
 * first monthly expiration whose open is after `asOfMs`), `30d` exactly 30 days (43,200 minutes) later.
 *
 * @example coneHorizonTargets(Date.parse("2024-05-01T15:00:00Z")).map((h) => h.sessionDate)
 * @see docs/methodology.md#cone-horizons
 */
export function coneHorizonTargets(asOfMs: number, settlement: Settlement = "PM"): ConeHorizonTarget[] {
  const open = marketStateAt(asOfMs) === "open";
  const first = firstCloseAfter(asOfMs);
  const oneDay = open ? nextTradingDay(first) : first;
  const week = lastTradingDayOfWeek(first);
  const close = (d: IsoDate) => sessionBounds(d).closeMs;
  const opex = settlement === "AM" ? amOpex(asOfMs) : { date: monthlyOnOrAfter(first), settleMs: close(monthlyOnOrAfter(first)) };
  return [
    { name: "close", settleMs: open ? close(first) : null, sessionDate: open ? first : null },
    { name: "1d", settleMs: close(oneDay), sessionDate: oneDay },
    { name: "week", settleMs: close(week), sessionDate: week },
    { name: "opex", settleMs: opex.settleMs, sessionDate: opex.date },
    { name: "30d", settleMs: asOfMs + 30 * MINUTES_PER_DAY * MINUTE_MS, sessionDate: null },
  ];
}

/** A fixed level's anchor and end (see `coneLevelAnchors`). */
export interface ConeLevelAnchor {
  name: "day" | "week" | "month";
  /** The session whose close prices the level. */
  anchor: IsoDate;
  anchorCloseMs: number;
  /** The session whose close the level runs to. */
  until: IsoDate;
  untilMs: number;
}

/**
 * Anchors of the fixed levels at `asOfMs`, for the session `d` = the first close after `asOfMs`:
 * `day` from the previous session's close to `d`'s close; `week` from the last close of the
 * previous week to the last close of `d`'s week; `month` from the close of the last monthly
 * expiration before `d` to the close of the first monthly expiration on or after `d`.
 *
 * @example coneLevelAnchors(asOfMs).find((l) => l.name === "day")?.anchor
 * @see docs/methodology.md#cone-levels
 */
export function coneLevelAnchors(asOfMs: number): ConeLevelAnchor[] {
  const d = firstCloseAfter(asOfMs);
  const close = (x: IsoDate) => sessionBounds(x).closeMs;
  const weekEnd = lastTradingDayOfWeek(d);
  let prevWeekEnd = previousTradingDay(d);
  while (lastTradingDayOfWeek(prevWeekEnd) === weekEnd) prevWeekEnd = previousTradingDay(prevWeekEnd);
  const opex = monthlyOnOrAfter(d);
  const y = Number(opex.slice(0, 4));
  const m = Number(opex.slice(5, 7));
  const prevOpex = m === 1 ? monthlyExpiration(y - 1, 12) : monthlyExpiration(y, m - 1);
  const dayAnchor = previousTradingDay(d);
  return [
    { name: "day", anchor: dayAnchor, anchorCloseMs: close(dayAnchor), until: d, untilMs: close(d) },
    { name: "week", anchor: prevWeekEnd, anchorCloseMs: close(prevWeekEnd), until: weekEnd, untilMs: close(weekEnd) },
    { name: "month", anchor: prevOpex, anchorCloseMs: close(prevOpex), until: opex, untilMs: close(opex) },
  ];
}
