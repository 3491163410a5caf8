/**
 * Credits spent by ET day and by endpoint, read from the ledger (debits net of their refunds),
 * for the console's usage tab. The ledger is append-only and its ids grow in commit order, so the
 * per-(UTC hour, route) sums are kept in a rollup table and each report folds in only the rows
 * written since the last one (an id range on the `(account_id, id)` index): the cost follows the
 * new rows, not the ledger. A UTC hour never straddles an ET midnight (ET offsets are whole
 * hours), so the ET day of each hour bucket is exact. See docs/methodology.md#console-usage-report.
 */
import type { Sqlite } from "../sqlite";
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

export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

function migrateRollup(db: Sqlite): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS usage_rollup (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      hour       INTEGER NOT NULL,
      route      TEXT NOT NULL,
      credits    INTEGER NOT NULL,
      PRIMARY KEY (account_id, hour, route)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS usage_rollup_mark (
      account_id     TEXT PRIMARY KEY REFERENCES accounts(id),
      last_ledger_id INTEGER NOT NULL
    );
  `);
}

/** Fold the account's ledger rows written since the last report into the rollup. */
function catchUp(db: Sqlite, accountId: string): void {
  db.transaction(() => {
    const mark =
      db.prepare<[string], { last_ledger_id: number }>(`SELECT last_ledger_id FROM usage_rollup_mark WHERE account_id = ?`).get(accountId)?.last_ledger_id ?? 0;
    const newest =
      db.prepare<[string, number], { id: number | null }>(`SELECT max(id) AS id FROM ledger WHERE account_id = ? AND id > ?`).get(accountId, mark)?.id ?? null;
    if (newest === null) return;
    db.prepare(
      `INSERT INTO usage_rollup (account_id, hour, route, credits)
       SELECT account_id, ts_ms / ${HOUR_MS}, coalesce(route, '(unnamed)'), -sum(delta) FROM ledger
        WHERE account_id = ? AND id > ? AND id <= ? AND kind IN ('debit', 'refund')
        GROUP BY ts_ms / ${HOUR_MS}, coalesce(route, '(unnamed)')
       ON CONFLICT (account_id, hour, route) DO UPDATE SET credits = credits + excluded.credits`,
    ).run(accountId, mark, newest);
    db.prepare(
      `INSERT INTO usage_rollup_mark (account_id, last_ledger_id) VALUES (?, ?)
       ON CONFLICT (account_id) DO UPDATE SET last_ledger_id = excluded.last_ledger_id`,
    ).run(accountId, newest);
  }).immediate();
}

/** Net credits of one (UTC hour, route) bucket: `hour` is `floor(ts_ms / 3_600_000)`. */
export interface UsageBucket {
  hour: number;
  route: string;
  credits: number;
}

/** The ET days of the window (oldest first) and its first and last UTC hour buckets. */
export function usageWindow(nowMs: number, days: number): { dayList: string[]; fromHour: number; toHour: number } {
  // ET days of the window, oldest first: step back from today by whole days (noon avoids DST edges).
  const today = etPeriods(nowMs);
  const dayList: string[] = [];
  for (let i = days - 1; i >= 0; i--) dayList.push(etPeriods(today.dayStartMs + 12 * HOUR_MS - i * DAY_MS).day);
  const fromMs = etPeriods(today.dayStartMs + 12 * HOUR_MS - (days - 1) * DAY_MS).dayStartMs;
  return { dayList, fromHour: Math.floor(fromMs / HOUR_MS), toHour: Math.floor(nowMs / HOUR_MS) };
}

/** Fold hour buckets of the window into the report (any store: the buckets are the only input). */
export function foldUsage(buckets: readonly UsageBucket[], nowMs: number, days: number): UsageReport {
  const { dayList } = usageWindow(nowMs, days);
  const perDay = new Map(dayList.map((d) => [d, 0]));
  const perRoute = new Map<string, number>();
  for (const r of buckets) {
    const day = etPeriods(r.hour * HOUR_MS).day;
    if (!perDay.has(day)) continue;
    perDay.set(day, perDay.get(day)! + r.credits);
    perRoute.set(r.route, (perRoute.get(r.route) ?? 0) + r.credits);
  }
  const byEndpoint = [...perRoute].map(([endpoint, credits]) => ({ endpoint, credits })).filter((e) => e.credits !== 0);
  byEndpoint.sort((a, b) => b.credits - a.credits || a.endpoint.localeCompare(b.endpoint));
  const byDay = dayList.map((day) => ({ day, credits: perDay.get(day)! }));
  return { fromDay: dayList[0]!, byDay, byEndpoint, totalCredits: byDay.reduce((s, d) => s + d.credits, 0) };
}

/**
 * The account's spend over the last `days` ET days (today included).
 * @example usageReport(db, "acct_x", Date.now(), 30).byDay.length // 30
 */
export function usageReport(db: Sqlite, accountId: string, nowMs: number, days: number): UsageReport {
  migrateRollup(db);
  catchUp(db, accountId);
  const { fromHour, toHour } = usageWindow(nowMs, days);
  const rows = db
    .prepare<[string, number, number], UsageBucket>(`SELECT hour, route, credits FROM usage_rollup WHERE account_id = ? AND hour >= ? AND hour <= ? ORDER BY hour`)
    .all(accountId, fromHour, toHour);
  return foldUsage(rows, nowMs, days);
}
