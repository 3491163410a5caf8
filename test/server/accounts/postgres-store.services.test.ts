// What only the PostgreSQL store has: SQL migrations recorded in schema_migrations (applied once,
// by one of several concurrent openers; a newer database refused), and its failure behaviour
// when the server goes away and comes back (503 credit_check_failed with Retry-After, nothing
// charged, service resumes), and refusing to open when it cannot be reached.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors";
import { loadMigrations, openPostgresAccountService, type PostgresAccountService } from "../../../server/accounts/postgres";
import { storeFailure } from "../../../server/accounts/account-errors";
import { createPgBatcher, type PgOp } from "../../../server/accounts/postgres/pg-batcher";
import type { Sql } from "../../../server/accounts/postgres/pg-connection";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";
import { freePort } from "../../_services/redis-server";

let pg: PostgresProcess;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

async function rejected(fn: () => unknown): Promise<ApiError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected an ApiError");
}

describe("migrations", () => {
  it("four instances opening at once apply each file once, in order, and record it", async () => {
    const opened = await Promise.all(Array.from({ length: 4 }, () => openPostgresAccountService({ url: pg.url })));
    try {
      const rows = await opened[0]!.sql<{ version: number; name: string }[]>`SELECT version, name FROM schema_migrations ORDER BY version`;
      const files = loadMigrations();
      expect(files.map((f) => f.version)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(rows.map((r) => [r.version, r.name])).toEqual(files.map((f) => [f.version, f.name]));
      // The ledger is append-only in this store too.
      const { accountId } = await opened[1]!.createAccount({ plan: "top", credits: 5 });
      await expect(opened[2]!.sql`UPDATE ledger SET delta = 0 WHERE account_id = ${accountId}`).rejects.toThrow(/append-only/);
      await expect(opened[2]!.sql`DELETE FROM ledger WHERE account_id = ${accountId}`).rejects.toThrow(/append-only/);
      // Accounts outlive nothing of theirs: never deleted (006), which is what lets the ledger and
      // usage rows go without a foreign-key check per row.
      await expect(opened[2]!.sql`DELETE FROM accounts WHERE id = ${accountId}`).rejects.toThrow(/never deleted/);
      await expect(opened[2]!.sql`DELETE FROM balances WHERE account_id = ${accountId}`).rejects.toThrow(/never deleted/);
    } finally {
      for (const s of opened) await s.close();
    }
  });

  it("refuses a database migrated by a newer build", async () => {
    const s = await openPostgresAccountService({ url: pg.url });
    await s.sql`INSERT INTO schema_migrations (version, name) VALUES (999, '999_future.sql')`;
    await s.close();
    try {
      await expect(openPostgresAccountService({ url: pg.url })).rejects.toThrow(
        new RegExp(`schema version 999, newer than this build \\(${loadMigrations().at(-1)!.version}\\)`),
      );
    } finally {
      const fix = await import("postgres").then((m) => m.default(pg.url, { onnotice: () => {} }));
      await fix`DELETE FROM schema_migrations WHERE version = 999`;
      await fix.end();
    }
  });

  it("refuses to open when the server cannot be reached, naming the URL without its password", async () => {
    const port = await freePort();
    const url = `postgres://optionscope:s3cret@127.0.0.1:${port}/optionscope`;
    const error = await openPostgresAccountService({ url, connectTimeoutS: 1 }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/could not be opened/);
    expect(error?.message).toContain(`optionscope:***@127.0.0.1:${port}`);
    expect(error?.message).not.toContain("s3cret");
  });
});

describe("when PostgreSQL goes away", () => {
  let svc: PostgresAccountService;
  afterAll(async () => {
    await svc?.close();
  });

  it("answers 503 credit_check_failed with Retry-After, charges nothing, and serves again when it is back", async () => {
    svc = await openPostgresAccountService({ url: pg.url, connectTimeoutS: 1 });
    const { key } = await svc.createAccount({ plan: "top", credits: 100, dailyCapCredits: null });
    const p = await svc.authenticate(key);
    await svc.debit(p, 10, { requestId: "before", route: "/v1/heatmap" });
    // A key read within the auth cache's window is answered from it (pg-auth.ts); one past it
    // needs the database, which is what this outage is about.
    svc.invalidate();
    await pg.pause();
    for (const call of [
      () => svc.debit(p, 5, { requestId: "during-1", route: "/v1/heatmap" }),
      () => svc.authenticate(key),
      () => svc.balance(p.accountId),
      () => svc.getAccount(p.accountId),
    ]) {
      const e = await rejected(call);
      expect([e.status, e.code, e.headers["Retry-After"]]).toEqual([503, "credit_check_failed", "1"]);
    }
    await pg.start();
    await svc.drain(10_000); // compensations of in-doubt operations, if any
    expect(svc.groupCommitStats().inDoubt).toBe(0);
    expect((await svc.debit(p, 5, { requestId: "after", route: "/v1/heatmap" })).balance).toBe(85);
    const ledger = await svc.ledger(p.accountId);
    // Net of compensations, only the acknowledged debits are charged.
    const net = new Map<string, number>();
    for (const e of ledger) if (e.requestId) net.set(e.requestId, (net.get(e.requestId) ?? 0) + e.delta);
    expect(net.get("during-1") ?? 0).toBe(0);
    expect(await svc.verifyLedger()).toEqual([]);
  }, 60_000);
});

describe("in-doubt debits", () => {
  it("a debit whose reply is lost after COMMIT is answered 503 and compensated, so it ends up not charged", async () => {
    const svc = await openPostgresAccountService({ url: pg.url });
    try {
      const { accountId } = await svc.createAccount({ plan: "top", credits: 50, dailyCapCredits: null });
      const real = svc.sql;
      let loseNextReply = true;
      // The statement runs and commits on the server; the client then sees the connection fail.
      const flaky = Object.assign(
        (strings: TemplateStringsArray, ...values: unknown[]) => {
          const q = (real as unknown as (s: TemplateStringsArray, ...v: unknown[]) => Promise<unknown>)(strings, ...values);
          if (loseNextReply && strings.join("?").includes("os_apply")) {
            loseNextReply = false;
            return q.then(() => {
              throw Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
            });
          }
          return q;
        },
        { json: real.json },
      ) as unknown as Sql;
      const batcher = createPgBatcher(flaky, { storeFailure, retryMs: 50 });
      const op: PgOp = { op: "debit", a: accountId, n: 7, rq: "lost-reply", rt: "/v1/heatmap", ts: Date.now(), d: "d:x", m: "m:x", gp: "once-test", gc: 0, gm: false };
      const e = await batcher.submit(op).then(
        () => null,
        (err: ApiError) => err,
      );
      expect([e?.status, e?.code]).toEqual([503, "credit_check_failed"]);
      await batcher.drain(5000);
      expect(batcher.stats().inDoubt).toBe(0);
      const rows = await svc.ledger(accountId);
      const ofRequest = rows.filter((r) => r.requestId === "lost-reply").map((r) => [r.kind, r.delta]);
      // The debit did commit (the reply was lost), and the compensating refund undid it.
      expect(ofRequest).toEqual([
        ["refund", 7],
        ["debit", -7],
      ]);
      const d = await svc.getAccount(accountId);
      expect([d.creditsBalance, d.ledgerSumCredits]).toEqual([50, 50]);
      batcher.close();
    } finally {
      await svc.close();
    }
  });
});
