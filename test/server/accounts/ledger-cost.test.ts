// Issue 13 item 1: nothing on a request path may cost more as the ledger grows. The query plans of
// every statement the request-path methods run are checked (no statement reads the ledger, except
// a refund reading the rows of its own request through the request index), and the caps' running
// counters are checked against an independent sum over the ledger across ET day and month ends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accountsDbPath, openAccountService, type SqliteAccountService } from "../../../server/accounts";

let dir: string;
let nowMs: number;
let svc: SqliteAccountService;
let traced: string[] = [];
let seq = 0;

const ref = () => ({ requestId: `req-${++seq}`, route: "/v1/heatmap" });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "osc-ledger-cost-"));
  nowMs = Date.parse("2024-05-15T15:00:00Z");
  traced = [];
  svc = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs, traceSql: (sql) => traced.push(sql) });
});

afterEach(() => {
  svc.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The SQL statements `fn` runs (transaction control left out). */
function statementsOf(fn: () => unknown): string[] {
  traced = [];
  fn();
  return traced.filter((sql) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql));
}

/** Every table access in the statement's query plan that touches the ledger. */
function ledgerAccesses(sql: string): string[] {
  const plan = svc.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  return plan.map((r) => r.detail).filter((d) => /\b(SCAN|SEARCH) ledger\b/.test(d));
}

/** Fill the account's ledger with `n` balanced debit/refund pairs straight into the table. */
function bulkLedger(accountId: string, pairs: number): void {
  svc.db
    .prepare(
      `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < ? - 1)
       INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
       SELECT ?, ?, CASE n % 2 WHEN 0 THEN -1 ELSE 1 END, CASE n % 2 WHEN 0 THEN 'debit' ELSE 'refund' END,
              'bulk-' || (n / 2), '/v1/heatmap', 0 FROM i`,
    )
    .run(pairs * 2, accountId, nowMs - 86_400_000);
}

describe("request-path statements never read the ledger (issue 13 item 1)", () => {
  it("GET /v1/account (accountView), balance, authenticate, revalidate, principalForGrant and debit", () => {
    const { accountId, keyId, key } = svc.createAccount({ plan: "top", credits: 10_000 });
    bulkLedger(accountId, 500);
    const p = svc.authenticate(key);
    svc.debit(p, 3, ref());
    const paths: Record<string, () => unknown> = {
      accountView: () => svc.accountView(p),
      balance: () => svc.balance(accountId),
      authenticate: () => svc.authenticate(`Bearer ${key}`),
      revalidate: () => svc.revalidate(p),
      principalForGrant: () => svc.principalForGrant({ accountId, keyId, bucketId: "app_1" }),
      debit: () => svc.debit(p, 2, ref()),
    };
    for (const [name, fn] of Object.entries(paths)) {
      const statements = statementsOf(fn);
      expect(statements.length, name).toBeGreaterThan(0);
      for (const sql of statements) expect({ name, sql, access: ledgerAccesses(sql) }).toEqual({ name, sql, access: [] });
    }
  });

  it("a refund reads only its own request's rows, through the request index", () => {
    const { accountId, key } = svc.createAccount({ plan: "top", credits: 10_000 });
    bulkLedger(accountId, 500);
    const p = svc.authenticate(key);
    const r = ref();
    svc.debit(p, 5, r);
    const accesses = statementsOf(() => svc.refund(p, 5, r)).flatMap(ledgerAccesses);
    expect(accesses.length).toBeGreaterThan(0);
    for (const a of accesses) expect(a).toMatch(/^SEARCH ledger USING INDEX ledger_request \(account_id=\? AND request_id=\?\)$/);
  });

  it("the account view is the same with 1 and 100,001 ledger rows (no audit figure on it)", () => {
    const { accountId, key } = svc.createAccount({ plan: "top", credits: 10_000 });
    const p = svc.authenticate(key);
    const small = svc.accountView(p);
    bulkLedger(accountId, 50_000);
    expect(svc.accountView(p)).toEqual(small);
  });
});

describe("caps read running counters that equal an independent ledger sum", () => {
  const etDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" });
  /** ET calendar date of an instant, by Intl alone (independent of server/accounts/et-periods). */
  const dayOf = (ms: number) => etDay.format(new Date(ms));

  /** Net spend per ET period from the ledger rows: a refund counts against its request's debit's period. */
  function usageFromLedger(accountId: string, atMs: number): { today: number; month: number } {
    const rows = svc.db.prepare("SELECT ts_ms, delta, kind, request_id FROM ledger WHERE account_id = ? AND kind IN ('debit', 'refund') ORDER BY id").all(accountId) as {
      ts_ms: number;
      delta: number;
      kind: string;
      request_id: string;
    }[];
    const debitDay = new Map<string, string>();
    let today = 0;
    let month = 0;
    const day = dayOf(atMs);
    for (const r of rows) {
      if (r.kind === "debit") debitDay.set(r.request_id, dayOf(r.ts_ms));
      const spentOn = debitDay.get(r.request_id)!;
      const spend = -r.delta; // debits are negative deltas, refunds positive
      if (spentOn === day) today += spend;
      if (spentOn.slice(0, 7) === day.slice(0, 7)) month += spend;
    }
    return { today, month };
  }

  type Op = { t: "debit"; credits: number } | { t: "refund"; back: number; credits: number } | { t: "advance"; minutes: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ t: fc.constant("debit" as const), credits: fc.integer({ min: 1, max: 500 }) }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("refund" as const), back: fc.nat(6), credits: fc.integer({ min: 1, max: 500 }) }) },
    // Up to two days at a time, so runs cross ET midnights and the end of a month.
    { weight: 2, arbitrary: fc.record({ t: fc.constant("advance" as const), minutes: fc.integer({ min: 1, max: 2 * 1440 }) }) },
  );

  it("after random debits and refunds across ET day and month boundaries (DST end included)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("2024-01-30T20:00:00-05:00", "2024-10-30T22:30:00-04:00", "2024-02-28T23:50:00-05:00"),
        fc.array(op, { maxLength: 40 }),
        (start, ops) => {
          nowMs = Date.parse(start);
          const { accountId, key } = svc.createAccount({ plan: "api", credits: 1_000_000, dailyCapCredits: null });
          const p = svc.authenticate(key);
          const charged: ReturnType<typeof ref>[] = [];
          for (const o of ops) {
            if (o.t === "debit") {
              const r = ref();
              svc.debit(p, o.credits, r);
              charged.push(r);
            } else if (o.t === "refund") {
              const target = charged[charged.length - 1 - o.back];
              if (target) svc.refund(p, o.credits, target);
            } else {
              nowMs += o.minutes * 60_000;
            }
            const view = svc.accountView(p).caps!;
            const expected = usageFromLedger(accountId, nowMs);
            expect({ today: view.usedTodayCredits, month: view.usedThisMonthCredits }).toEqual(expected);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
