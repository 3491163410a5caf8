// The two console ways in that spend a secret, when the store fails half way: a setup link
// (`/console/api/setup`) and an invite code (`/console/api/sign-up`) each spend the secret, set
// the password and open the session in one transaction. A real failure is injected inside that
// transaction, after the secret was spent (the password write, then the session write): on
// SQLite a trigger whose function throws the driver's own I/O error, on PostgreSQL a trigger that
// raises the error a terminated backend reports (57P01 admin_shutdown). (Terminating the backend
// itself fails the same way but makes the `postgres` driver throw an uncaught TypeError from its
// write queue, a driver bug unrelated to this.) The answer is 503 `store_unavailable`, and
// it is true: the old password still works, no session, no account, and the same link or code
// works once the store is healthy again. On both accounts stores.
import { SqliteError } from "../../../server/sqlite";
import postgres from "postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AccountStore, SqliteAccountService } from "../../../server/accounts";
import { closeConsoleHarnesses, makeConsoleHarness, PASSWORD, type ConsoleHarness } from "./_console-harness";
import { CONSOLE_STORES, usePostgres, type ConsoleStoreKind } from "./_stores";

const storeUrl = usePostgres();
const NEW_PASSWORD = "a different passphrase, long enough";
/** The writes after the secret is spent, in the order the transaction makes them. */
const FAILING_STEPS = ["console_credentials", "console_sessions"] as const;

let admin: postgres.Sql | null = null;
afterAll(async () => {
  await admin?.end();
});

/**
 * Make every write to `table` fail as a store outage would, until the returned `heal()`.
 * SQLite: a temporary trigger calling a function that throws `SqliteError(SQLITE_IOERR)`.
 * PostgreSQL: a trigger raising 57P01 `admin_shutdown`, what a backend stopped mid-transaction reports.
 */
async function failWritesTo(kind: ConsoleStoreKind, accounts: AccountStore, table: string): Promise<() => Promise<void>> {
  if (kind === "sqlite") {
    const { db } = accounts as SqliteAccountService;
    db.function("inject_outage", () => {
      throw new SqliteError("disk I/O error", "SQLITE_IOERR");
    });
    db.exec(`CREATE TEMP TRIGGER inject_outage_i BEFORE INSERT ON main.${table} BEGIN SELECT inject_outage(); END;
             CREATE TEMP TRIGGER inject_outage_u BEFORE UPDATE ON main.${table} BEGIN SELECT inject_outage(); END;`);
    return async () => void db.exec(`DROP TRIGGER inject_outage_i; DROP TRIGGER inject_outage_u;`);
  }
  admin ??= postgres(storeUrl("postgres")!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE OR REPLACE FUNCTION inject_outage() RETURNS trigger LANGUAGE plpgsql AS $$
                      BEGIN RAISE EXCEPTION 'injected outage' USING ERRCODE = '57P01'; END $$`);
  await admin.unsafe(`CREATE TRIGGER inject_outage BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION inject_outage()`);
  return async () => void (await admin!.unsafe(`DROP TRIGGER inject_outage ON ${table}`));
}

/** Run `call` while writes to `table` fail; the store is healed even when `call` throws. */
async function whileFailing<T>(kind: ConsoleStoreKind, h: ConsoleHarness, table: string, call: () => Promise<T>): Promise<T> {
  const heal = await failWritesTo(kind, h.accounts, table);
  try {
    return await call();
  } finally {
    await heal();
  }
}

async function expectStoreUnavailable(res: Response): Promise<void> {
  const body = (await res.json()) as { error?: { code: string; message: string } };
  expect([res.status, body.error?.code]).toEqual([503, "store_unavailable"]);
  expect(res.headers.get("retry-after")).toBe("1");
  expect(res.headers.get("set-cookie")).toBeNull();
}

describe.each(CONSOLE_STORES)("console on %s: a store failure half way through signing in", (kind) => {
  afterEach(closeConsoleHarnesses);

  it.each(FAILING_STEPS)(
    "setup link, %s write failing: 503, nothing changed, and the same link works afterwards",
    async (table) => {
      const h = await makeConsoleHarness({ storeUrl: storeUrl(kind) });
      const acct = await h.newAccount();
      const { token } = await h.service.store.createSetupLink(acct.accountId);

      const failed = await whileFailing(kind, h, table, () => h.client().post("/console/api/setup", { token, password: NEW_PASSWORD }, { csrf: "" }));
      await expectStoreUnavailable(failed);
      // Nothing changed: the old password signs in, the new one does not.
      expect((await h.client().signIn(acct.accountId, NEW_PASSWORD)).status).toBe(401);
      expect((await h.client().signIn(acct.accountId, PASSWORD)).status).toBe(200);

      // The link was not spent: it sets the password now, once.
      const c = h.client();
      const ok = await c.post("/console/api/setup", { token, password: NEW_PASSWORD }, { csrf: "" });
      expect(ok.status).toBe(200);
      const opened = (await ok.json()) as { accountId: string; csrfToken: string };
      expect(opened.accountId).toBe(acct.accountId);
      c.csrf = opened.csrfToken;
      expect((await c.get("/console/api/keys")).status).toBe(200); // the session it opened is live
      expect((await h.client().signIn(acct.accountId, NEW_PASSWORD)).status).toBe(200);
      expect((await h.client().signIn(acct.accountId, PASSWORD)).status).toBe(401);
      const reused = await h.client().post("/console/api/setup", { token, password: PASSWORD }, { csrf: "" });
      expect([reused.status, ((await reused.json()) as { error: { code: string } }).error.code]).toEqual([404, "link_not_found"]);
    },
    30_000,
  );

  it.each(FAILING_STEPS)(
    "invite sign-up, %s write failing: 503, no account, the code still open, and it works afterwards",
    async (table) => {
      const h = await makeConsoleHarness({ storeUrl: storeUrl(kind) });
      const { code, invite } = await h.service.store.createInvite({ plan: "invite", credits: 25, label: `atomic ${table}` });
      const accountsBefore = (await h.accounts.listAccounts()).map((a) => a.accountId);

      const failed = await whileFailing(kind, h, table, () => h.client().post("/console/api/sign-up", { inviteCode: code, password: PASSWORD }, { csrf: "" }));
      await expectStoreUnavailable(failed);
      expect((await h.accounts.listAccounts()).map((a) => a.accountId)).toEqual(accountsBefore);
      expect((await h.service.store.listInvites()).find((i) => i.inviteId === invite.inviteId)).toMatchObject({ state: "open", redeemedAt: null, redeemedBy: null });

      const c = h.client();
      const ok = await c.post("/console/api/sign-up", { inviteCode: code, password: PASSWORD }, { csrf: "" });
      expect(ok.status).toBe(201);
      const created = (await ok.json()) as { accountId: string; key: string; keyId: string; csrfToken: string };
      expect((await h.accounts.listAccounts()).map((a) => a.accountId).sort()).toEqual([...accountsBefore, created.accountId].sort());
      c.csrf = created.csrfToken;
      expect((await c.get("/console/api/keys")).status).toBe(200);
      expect((await h.api("/v1/account", created.key)).status).toBe(200);
      expect((await h.client().signIn(created.accountId, PASSWORD)).status).toBe(200);
      const account = await h.accounts.getAccount(created.accountId);
      expect(account.ledgerSumCredits).toBe(account.creditsBalance);
      expect((await h.service.store.listInvites()).find((i) => i.inviteId === invite.inviteId)).toMatchObject({ state: "redeemed", redeemedBy: created.accountId });
    },
    30_000,
  );
});
