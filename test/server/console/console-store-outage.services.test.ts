// The console while PostgreSQL is stopped (pg.pause(), as the scale outage tests do): every call
// that needs the store answers 503 `store_unavailable` with `Retry-After` (spec: "a clear 503 with
// `Retry-After`"), the connected-apps calls included, and works again once the store is back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgresAccountService, type PostgresAccountService } from "../../../server/accounts";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";
import { closeConsoleHarnesses, makeConsoleHarness, type ConsoleClient } from "./_console-harness";

let pg: PostgresProcess;
let stopped = false;
const stopStore = async () => {
  await pg.pause();
  stopped = true;
};
const restartStore = async () => {
  await pg.start();
  stopped = false;
};
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});
afterEach(async () => {
  await closeConsoleHarnesses();
  if (stopped) await restartStore(); // a failed test must not leave the store stopped for the next
});

/** The console's answers to the connected-apps calls. */
async function appsCalls(c: ConsoleClient) {
  return [await c.get("/console/api/apps"), await c.post("/console/api/apps/app_nosuchapp/revoke")];
}

async function expectStoreUnavailable(res: Response): Promise<void> {
  const body = (await res.json()) as { error?: { code: string; retry_after?: number } };
  expect([res.status, body.error?.code]).toEqual([503, "store_unavailable"]);
  const retryAfterS = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfterS) && retryAfterS > 0, `Retry-After: ${res.headers.get("retry-after")}`).toBe(true);
  expect(body.error?.retry_after).toBe(retryAfterS);
}

describe("console during a PostgreSQL outage", () => {
  it("connected apps kept on a stopped PostgreSQL: 503 store_unavailable with Retry-After (not the OAuth error's bare 503), then served again", async () => {
    // Sessions on SQLite, apps on PostgreSQL: the session check passes, so the OAuth store's own
    // failure is what the console answers.
    const pgAccounts: PostgresAccountService = await openPostgresAccountService({ url: pg.url, connectTimeoutS: 2 });
    try {
      const h = await makeConsoleHarness({ oauth: pgAccounts.openOAuthStore() });
      const acct = await h.newAccount();
      const c = h.client();
      expect((await c.signIn(acct.accountId)).status).toBe(200);
      const [listed, unknown] = await appsCalls(c);
      expect(await listed!.json()).toEqual({ apps: [] });
      expect(unknown!.status).toBe(404);

      await stopStore();
      for (const res of await appsCalls(c)) await expectStoreUnavailable(res);
      // The rest of the console (on SQLite) is unaffected.
      expect((await c.get("/console/api/keys")).status).toBe(200);

      await restartStore();
      const [back, stillUnknown] = await appsCalls(c);
      expect(back!.status).toBe(200);
      expect(stillUnknown!.status).toBe(404);
    } finally {
      await pgAccounts.close();
    }
  }, 60_000);

  it("the whole console on a stopped PostgreSQL: every store-backed call is 503 store_unavailable with Retry-After", async () => {
    const h = await makeConsoleHarness({ storeUrl: pg.url });
    const acct = await h.newAccount();
    const c = h.client();
    expect((await c.signIn(acct.accountId)).status).toBe(200);

    await stopStore();
    const answers = [
      ...(await appsCalls(c)),
      await c.get("/console/api/keys"),
      await c.get("/console/api/overview"),
      await c.post(`/console/api/keys/${acct.keyId}/revoke`),
    ];
    for (const res of answers) await expectStoreUnavailable(res);

    await restartStore();
    expect((await c.get("/console/api/apps")).status).toBe(200);
    // The refused revocation changed nothing: the key is still active.
    const keys = (await (await c.get("/console/api/keys")).json()) as { keys: { keyId: string; state: string }[] };
    expect(keys.keys.find((k) => k.keyId === acct.keyId)?.state).toBe("active");
  }, 60_000);
});
