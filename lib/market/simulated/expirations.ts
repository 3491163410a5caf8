/**
 * Listed expirations of an option root on a session: dailies (0DTE every trading day) for the
 * daily-cycle roots, Friday weeklies, third-Friday monthlies, quarter-ends and long-dated
 * Decembers/Januaries, never past the calendar's last year.
 * @see docs/methodology.md#expirations
 */
import { monthlyExpiration, optionRoot, settlementInstantMs } from "../../symbols";
import { CALENDAR_LAST_YEAR, isTradingDay, previousTradingDay } from "../../time";
import { simCalendar } from "./_calendar";

/** One listed expiration. */
export interface Expiration {
  expiry: string;
  settleMs: number;
  /** Standard third-Friday monthly (or its holiday Thursday). */
  monthly: boolean;
  /** Last trading day of a calendar quarter (index daily roots). */
  quarterly: boolean;
}

/** How far out each cycle lists. @see docs/methodology.md#expirations */
export const EXPIRATION_COUNTS = {
  daily: { dailies: 12, weeklies: 9, monthlies: 12, quarterlies: 8, longYears: 3 },
  weekly: { dailies: 0, weeklies: 6, monthlies: 8, quarterlies: 0, longYears: 2 },
  monthly: { dailies: 0, weeklies: 0, monthlies: 12, quarterlies: 0, longYears: 3 },
} as const;

const DAY_MS = 86_400_000;

function isoOfEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function epochDayOf(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/** The date itself when NYSE trades, else the trading day before (holiday Fridays expire Thursday). */
function onOrBeforeTradingDay(date: string): string {
  return isTradingDay(date) ? date : previousTradingDay(date);
}

/** Last trading day of a quarter ending in month `m` (3, 6, 9, 12). */
function quarterEnd(year: number, month: number): string {
  return onOrBeforeTradingDay(isoOfEpochDay(Math.floor(Date.UTC(year, month, 0) / DAY_MS)));
}

/**
 * What a root's listing depends on besides the session: its cycle, exercise style and settlement
 * (roots of one class list the same expirations on every session).
 */
export function listingClass(root: string): string {
  const info = optionRoot(root);
  return `${info.cycle}|${info.exercise}|${info.settlement}`;
}

/**
 * Expirations of `root` listed on session `sessionDate` (ascending, each settling at or after
 * that session's open).
 * @example
 * listedExpirations("SPXW", "2024-03-15")[0].expiry; // "2024-03-15" (0DTE)
 */
export function listedExpirations(root: string, sessionDate: string): Expiration[] {
  const info = optionRoot(root);
  const counts = EXPIRATION_COUNTS[info.cycle];
  const cal = simCalendar();
  const d = cal.dayIndex.get(sessionDate)!;
  const lastDate = `${CALENDAR_LAST_YEAR}-12-31`;
  const dates = new Map<string, { monthly: boolean; quarterly: boolean }>();
  const add = (date: string, monthly = false, quarterly = false) => {
    if (date < sessionDate || date > lastDate) return;
    const prev = dates.get(date);
    dates.set(date, { monthly: monthly || !!prev?.monthly, quarterly: quarterly || !!prev?.quarterly });
  };
  for (let i = 0; i < counts.dailies && d + i < cal.days.length; i++) add(cal.days[d + i]);
  const today = epochDayOf(sessionDate);
  const dow = (today + 4) % 7; // 1970-01-01 was a Thursday (4); 5 = Friday
  const firstFriday = today + ((5 - dow + 7) % 7);
  for (let w = 0; w < counts.weeklies; w++) {
    const friday = isoOfEpochDay(firstFriday + 7 * w);
    if (friday <= lastDate) add(onOrBeforeTradingDay(friday));
  }
  const [y0, m0] = sessionDate.split("-").map(Number);
  for (let i = 0; i < counts.monthlies + 1; i++) {
    const y = y0 + Math.floor((m0 - 1 + i) / 12);
    const m = ((m0 - 1 + i) % 12) + 1;
    if (y > CALENDAR_LAST_YEAR) break;
    add(monthlyExpiration(y, m), true);
  }
  for (let i = 0, found = 0; found < counts.quarterlies && i < 40; i++) {
    const y = y0 + Math.floor((m0 - 1 + i) / 12);
    const m = ((m0 - 1 + i) % 12) + 1;
    if (y > CALENDAR_LAST_YEAR) break;
    if (m % 3 !== 0) continue;
    const q = quarterEnd(y, m);
    if (q >= sessionDate) {
      add(q, false, true);
      found++;
    }
  }
  const longMonth = info.exercise === "european" ? 12 : 1;
  for (let i = 1; i <= counts.longYears; i++) {
    const y = y0 + i;
    if (y > CALENDAR_LAST_YEAR) break;
    add(monthlyExpiration(y, longMonth), true);
  }
  const out: Expiration[] = [];
  const openMs = cal.regOpen[d];
  for (const [expiry, f] of [...dates.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const settleMs = settlementInstantMs(root, expiry);
    if (settleMs <= openMs) continue; // AM-settled on this very morning: already settled
    out.push({ expiry, settleMs, monthly: f.monthly, quarterly: f.quarterly });
  }
  return out;
}
