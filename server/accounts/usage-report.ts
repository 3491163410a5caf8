/**
 * Credits spent by ET day and by endpoint, read from the ledger (debits net of their refunds),
 * for the console's usage tab. The SQL groups by UTC hour, which never straddles an ET midnight
 * (ET offsets are whole hours), so the ET day of each hour bucket is exact.
 * See docs/methodology.md#console-usage-report.
 */
import type Database from "better-sqlite3";
import { etPeriods } from "./et-periods";

export interface UsageReport {
  /** First ET day covered (`YYYY-MM-DD`). */
  fromDay: string;
  /** Every ET day of the window, oldest first, with the net credits spent (0 on quiet days). */
  byDay: { day: string; credits: number }[];
  /** Net credits per route over the window, largest first. */
  byEndpoint: { endpoint: string; credits: number }[];
  totalCredits: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The account's spend over the last `days` ET days (today included).
 * @example usageReport(db, "acct_x", Date.now(), 30).byDay.length // 30
 */
export function usageReport(db: Database.Database, accountId: string, nowMs: number, days: number): UsageReport {
  // ET days of the window, oldest first: step back from today by whole days (noon avoids DST edges).
  const today = etPeriods(nowMs);
  const dayList: string[] = [];
  for (let i = days - 1; i >= 0; i--) dayList.push(etPeriods(today.dayStartMs + 12 * HOUR_MS - i * DAY_MS).day);
  const fromMs = etPeriods(today.dayStartMs + 12 * HOUR_MS - (days - 1) * DAY_MS).dayStartMs;
  const rows = db
    .prepare<[string, number, number], { hour: number; route: string | null; spent: number }>(
      `SELECT ts_ms / ${HOUR_MS} AS hour, route, -sum(delta) AS spent FROM ledger
        WHERE account_id = ? AND kind IN ('debit', 'refund') AND ts_ms >= ? AND ts_ms <= ?
        GROUP BY hour, route`,
    )
    .all(accountId, fromMs, nowMs);
  const perDay = new Map(dayList.map((d) => [d, 0]));
  const perRoute = new Map<string, number>();
  for (const r of rows) {
    const day = etPeriods(r.hour * HOUR_MS).day;
    if (perDay.has(day)) perDay.set(day, perDay.get(day)! + r.spent);
    const endpoint = r.route ?? "(unnamed)";
    perRoute.set(endpoint, (perRoute.get(endpoint) ?? 0) + r.spent);
  }
  const byEndpoint = [...perRoute].map(([endpoint, credits]) => ({ endpoint, credits })).filter((e) => e.credits !== 0);
  byEndpoint.sort((a, b) => b.credits - a.credits || a.endpoint.localeCompare(b.endpoint));
  const byDay = dayList.map((day) => ({ day, credits: perDay.get(day)! }));
  return { fromDay: dayList[0]!, byDay, byEndpoint, totalCredits: byDay.reduce((s, d) => s + d.credits, 0) };
}
