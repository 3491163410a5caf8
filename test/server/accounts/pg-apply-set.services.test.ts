// The set-based group commit (migration 005, `os_apply_set`) against the one-operation-at-a-time
// `os_apply` of migration 002 as the reference: the same batch, applied to two identical sets of
// accounts, must give the same outcome per operation, the same balances, ledger rows and usage
// counters. And the accounts whose debits all fit must be settled without a per-operation
// `os_debit` call (the point of the set-based path). docs/methodology.md#set-based-group-commit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresAccountService, type PostgresAccountService } from "../../../server/accounts/postgres";
import { storeFailure } from "../../../server/accounts/account-errors";
import { createPgBatcher, SET_BASED_MIN_BATCH, type PgOp } from "../../../server/accounts/postgres/pg-batcher";
import type { Sql } from "../../../server/accounts/postgres/pg-connection";
import { grantDue } from "../../../server/accounts/postgres/pg-store";
import { usagePeriods } from "../../../server/accounts/sqlite-ledger";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";
import { mulberry32 } from "../../../bench/_mulberry32";

let pg: PostgresProcess;
let svc: PostgresAccountService;
beforeAll(async () => {
  pg = await startPostgres();
  svc = await openPostgresAccountService({ url: pg.url });
}, 60_000);
afterAll(async () => {
  await svc?.close();
  await pg?.stop();
});

interface Row {
  i: number;
  code: string;
  balance: number | null;
  ledger_id: number | null;
  cap: number | null;
}

/** Account shapes covering each reason to leave the fast path, and the fast path itself. */
const SHAPES = [
  { name: "ample", credits: 10_000, dailyCapCredits: null, monthlyCapCredits: null },
  { name: "short", credits: 7, dailyCapCredits: null, monthlyCapCredits: null },
  { name: "daily-cap", credits: 10_000, dailyCapCredits: 9, monthlyCapCredits: null },
  { name: "monthly-cap", credits: 10_000, dailyCapCredits: null, monthlyCapCredits: 12 },
  { name: "ample-2", credits: 5_000, dailyCapCredits: null, monthlyCapCredits: null },
] as const;

async function twinAccounts(): Promise<{ old: string[]; set: string[] }> {
  const make = () =>
    Promise.all(SHAPES.map((s) => svc.createAccount({ plan: "top", credits: s.credits, dailyCapCredits: s.dailyCapCredits, monthlyCapCredits: s.monthlyCapCredits })));
  const [a, b] = [await make(), await make()];
  return { old: a.map((x) => x.accountId), set: b.map((x) => x.accountId) };
}

/** A random batch over account slots 0..4 and a missing account (slot 5): debits, some refunds. */
function randomBatch(rand: () => number, size: number, tsMs: number, tag: string): { slot: number; op: Omit<PgOp, "a"> }[] {
  const { day, month } = usagePeriods(tsMs);
  const g = grantDue("top", tsMs);
  const out: { slot: number; op: Omit<PgOp, "a"> }[] = [];
  for (let k = 0; k < size; k++) {
    const slot = rand() < 0.04 ? 5 : Math.floor(rand() * SHAPES.length);
    const earlier = out.filter((o) => o.slot === slot && o.op.op === "debit");
    if (earlier.length > 0 && rand() < 0.1) {
      const of = earlier[Math.floor(rand() * earlier.length)]!;
      out.push({ slot, op: { op: "refund", n: of.op.n, rq: of.op.rq, rt: "/v1/heatmap", ts: tsMs, gp: g.period, gc: g.credits, gm: g.monthly } });
    } else {
      out.push({
        slot,
        op: { op: "debit", n: 1 + Math.floor(rand() * 4), rq: `${tag}-${k}`, rt: "/v1/heatmap", ts: tsMs, d: day, m: month, gp: g.period, gc: g.credits, gm: g.monthly },
      });
    }
  }
  return out;
}

/** Sorted by account like the batcher sends them; `ids[slot]` names the account of each slot. */
function concrete(batch: { slot: number; op: Omit<PgOp, "a"> }[], ids: string[]): PgOp[] {
  return batch.map(({ slot, op }) => ({ ...op, a: ids[slot] ?? `acct_missing_${ids[0]}` }) as PgOp);
}

async function run(fn: "os_apply" | "os_apply_set", ops: PgOp[]): Promise<{ rows: Row[]; osDebitCalls: number }> {
  return svc.sql.begin(async (tx) => {
    await tx`SET LOCAL track_functions = 'pl'`;
    // Counts not yet flushed from earlier transactions of this backend show here too: take the difference.
    const calls = async () =>
      (await tx<{ calls: number }[]>`SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_xact_user_functions WHERE funcname = 'os_debit'`)[0]?.calls ?? 0;
    const before = await calls();
    const rows =
      fn === "os_apply" ? await tx<Row[]>`SELECT * FROM os_apply(${tx.json(ops as never)})` : await tx<Row[]>`SELECT * FROM os_apply_set(${tx.json(ops as never)})`;
    return { rows: [...rows].sort((x, y) => x.i - y.i), osDebitCalls: (await calls()) - before };
  }) as Promise<{ rows: Row[]; osDebitCalls: number }>;
}

async function stateOf(accountId: string) {
  const [b] = await svc.sql<{ credits: number }[]>`SELECT credits FROM balances WHERE account_id = ${accountId}`;
  const ledger = await svc.sql<{ kind: string; delta: number; request_id: string | null; balance_after: number }[]>`
    SELECT kind, delta, request_id, balance_after FROM ledger WHERE account_id = ${accountId} ORDER BY id`;
  const usage = await svc.sql<{ period: string; credits: number }[]>`SELECT period, credits FROM usage WHERE account_id = ${accountId} ORDER BY period`;
  return { balance: b?.credits ?? null, ledger: ledger.map((r) => ({ ...r })), usage: usage.map((r) => ({ ...r })) };
}

describe("os_apply_set (set-based group commit)", () => {
  it("answers every operation as os_apply does, and leaves the same balances, ledgers and usage (20 random batches)", async () => {
    const rand = mulberry32(18);
    const tsMs = Date.now(); // the grant of this month is recorded when the account is created
    for (let round = 0; round < 20; round++) {
      const { old, set } = await twinAccounts();
      // Two batches per pair, so the second meets the caps and balances the first left.
      for (const part of [0, 1]) {
        const batch = randomBatch(rand, 5 + Math.floor(rand() * 60), tsMs, `r${round}.${part}`);
        const order = batch
          .map((b, k) => ({ b, k }))
          .sort((x, y) => x.b.slot - y.b.slot || x.k - y.k)
          .map((x) => x.b);
        const a = await run("os_apply", concrete(order, old));
        const b = await run("os_apply_set", concrete(order, set));
        expect(b.rows.map((r) => r.i)).toEqual(order.map((_, k) => k));
        const outcome = (r: Row) => [r.code, r.balance, r.cap];
        expect(b.rows.map(outcome), `round ${round}.${part}`).toEqual(a.rows.map(outcome));
        // Every admitted debit names its own ledger row.
        const okDebits = b.rows.filter((r, k) => r.code === "ok" && order[k]!.op.op === "debit");
        const ids = okDebits.map((r) => r.ledger_id!);
        const named = await svc.sql<{ id: number; request_id: string; balance_after: number; kind: string }[]>`
          SELECT id, request_id, balance_after, kind FROM ledger WHERE id = ANY(${ids})`;
        const byId = new Map(named.map((r) => [r.id, r]));
        for (const r of okDebits) {
          expect(byId.get(r.ledger_id!)).toMatchObject({ request_id: order[r.i]!.op.rq, balance_after: r.balance, kind: "debit" });
        }
      }
      for (let s = 0; s < SHAPES.length; s++) {
        const [x, y] = [await stateOf(old[s]!), await stateOf(set[s]!)];
        expect(y, `round ${round}, ${SHAPES[s]!.name}`).toEqual(x);
      }
    }
    expect(await svc.verifyLedger()).toEqual([]);
  }, 60_000);

  it("settles accounts whose debits all fit without a per-operation os_debit; the others one by one", async () => {
    const tsMs = Date.now(); // the grant of this month is recorded when the account is created
    const { set } = await twinAccounts();
    const { day, month } = usagePeriods(tsMs);
    const g = grantDue("top", tsMs);
    const debit = (a: string, k: number, n = 1): PgOp => ({
      op: "debit",
      a,
      n,
      rq: `fit-${k}`,
      rt: "/v1/heatmap",
      ts: tsMs,
      d: day,
      m: month,
      gp: g.period,
      gc: g.credits,
      gm: g.monthly,
    });
    // 300 debits of the two ample accounts: all fit.
    const fitting = Array.from({ length: 300 }, (_, k) => debit(k < 150 ? set[0]! : set[4]!, k));
    const r1 = await run("os_apply_set", fitting);
    expect(r1.osDebitCalls).toBe(0);
    expect(r1.rows.every((r) => r.code === "ok")).toBe(true);
    expect(r1.rows.filter((r) => r.i < 150).map((r) => r.balance)).toEqual(Array.from({ length: 150 }, (_, k) => 10_000 - k - 1));
    // The short account (7 credits) with 3 debits of 3: the total does not fit, so one by one:
    // two admitted, the third refused; the ample account's 2 still take the set-based path.
    const mixed = [debit(set[0]!, 1000), debit(set[0]!, 1001), debit(set[1]!, 1002, 3), debit(set[1]!, 1003, 3), debit(set[1]!, 1004, 3)];
    const r2 = await run("os_apply_set", mixed);
    expect(r2.osDebitCalls).toBe(3);
    expect(r2.rows.map((r) => [r.code, r.balance])).toEqual([
      ["ok", 10_000 - 152 + 1],
      ["ok", 10_000 - 152],
      ["ok", 4],
      ["ok", 1],
      ["insufficient_credits", 1],
    ]);
    const short = await stateOf(set[1]!);
    expect(short.balance).toBe(1);
    expect(short.ledger.filter((r) => r.kind === "debit").map((r) => r.delta)).toEqual([-3, -3]);
    expect(await svc.verifyLedger()).toEqual([]);
  }, 30_000);

  it("an empty batch answers nothing", async () => {
    expect((await run("os_apply_set", [])).rows).toEqual([]);
  });

  it("creates no MultiXact: the subtransaction that locks a balance row is the one that updates it (migration 006)", async () => {
    const tsMs = Date.now();
    const { set } = await twinAccounts();
    const { day, month } = usagePeriods(tsMs);
    const g = grantDue("top", tsMs);
    const nextMultiXact = async () => {
      await svc.sql`CHECKPOINT`;
      return (await svc.sql<{ m: string }[]>`SELECT next_multixact_id::text AS m FROM pg_control_checkpoint()`)[0]!.m;
    };
    const before = await nextMultiXact();
    for (let b = 0; b < 5; b++) {
      const ops = Array.from(
        { length: 8 },
        (_, k): PgOp => ({
          op: "debit",
          a: set[k % 2 === 0 ? 0 : 4]!,
          n: 1,
          rq: `mx-${b}-${k}`,
          rt: "/v1/heatmap",
          ts: tsMs,
          d: day,
          m: month,
          gp: g.period,
          gc: g.credits,
          gm: g.monthly,
        }),
      );
      const r = await run(
        "os_apply_set",
        ops.sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : 0)),
      );
      expect(r.osDebitCalls).toBe(0);
    }
    // Before 006 each of the 5 calls made one (the outer lock plus the subtransaction's update).
    expect(await nextMultiXact()).toBe(before);
  }, 30_000);
});

describe("which function a batch goes to", () => {
  it(`batches of ${SET_BASED_MIN_BATCH} or more operations call os_apply_set, smaller ones os_apply`, async () => {
    const seen: { fn: string; n: number }[] = [];
    const fake = Object.assign(
      (strings: TemplateStringsArray, ...values: unknown[]) => {
        const ops = (values[0] as { ops: PgOp[] }).ops;
        seen.push({ fn: /os_apply_set\(/.test(strings.join("?")) ? "os_apply_set" : /os_apply\(/.test(strings.join("?")) ? "os_apply" : "other", n: ops.length });
        return Promise.resolve(ops.map((o, i) => ({ i, code: "ok", balance: 100 - o.n, ledger_id: i + 1, cap: null })));
      },
      { json: (ops: PgOp[]) => ({ ops }) },
    ) as unknown as Sql;
    const b = createPgBatcher(fake, { storeFailure });
    const op = (k: number): PgOp => ({ op: "debit", a: "acct", n: 1, rq: `q${k}`, rt: "/v1/heatmap", ts: 0, d: "d:x", m: "m:x", gp: "once", gc: 0, gm: false });
    for (const size of [1, SET_BASED_MIN_BATCH - 1, SET_BASED_MIN_BATCH, 50]) {
      await Promise.all(Array.from({ length: size }, (_, k) => b.submit(op(k))));
    }
    expect(seen).toEqual([
      { fn: "os_apply", n: 1 },
      { fn: "os_apply", n: SET_BASED_MIN_BATCH - 1 },
      { fn: "os_apply_set", n: SET_BASED_MIN_BATCH },
      { fn: "os_apply_set", n: 50 },
    ]);
  });
});
