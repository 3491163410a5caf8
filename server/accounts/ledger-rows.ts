// The ledger table's row as both stores read it (SQLite: server/accounts/schema.ts; PostgreSQL:
// migration 001, the same columns), and the `LedgerEntry` the admin side answers with.
import type { LedgerEntry } from "./admin-types";

export interface LedgerRow {
  id: number;
  account_id: string;
  ts_ms: number;
  delta: number;
  kind: LedgerEntry["kind"];
  request_id: string | null;
  route: string | null;
  balance_after: number;
}

/** One ledger row as the admin listing shows it. */
export function ledgerEntryOf(row: LedgerRow): LedgerEntry {
  return {
    id: row.id,
    accountId: row.account_id,
    tsMs: row.ts_ms,
    delta: row.delta,
    kind: row.kind,
    requestId: row.request_id,
    route: row.route,
    balanceAfter: row.balance_after,
  };
}
