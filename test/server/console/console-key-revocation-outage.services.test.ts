// A console key revocation that the accounts store makes and the OAuth store then fails to follow
// (its PostgreSQL stopped): the answer says the key is revoked and the grants are being retried
// (not "nothing was changed"); the key no longer authenticates; once the store is back the retry
// revokes the grants without anyone asking, and revoking the key again retries at once.
// Also the console on a closed SQLite store (no guard there): 503 store_unavailable, not 500.
import { signedInApp } from "../oauth/_signed-in-app";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgresAccountService, type PostgresAccountService } from "../../../server/accounts";
import { createPgOAuthStore } from "../../../server/accounts/postgres/pg-oauth";
import type { OAuthStore } from "../../../server/oauth/oauth-store";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";
import { closeConsoleHarnesses, makeConsoleHarness, type ConsoleHarness } from "./_console-harness";

let pg: PostgresProcess;
let stopped = false;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});
afterEach(async () => {
  await closeConsoleHarnesses();
  if (stopped) {
    await pg.start(); // a failed test must not leave the store stopped for the next
    stopped = false;
  }
});

const RESOURCE = "http://127.0.0.1/mcp";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A connected app in `oauth` holding one access and one refresh token signed in with `keyId`. */
const connectAppWithKey = (oauth: OAuthStore, accountId: string, keyId: string) => signedInApp(oauth, { accountId, keyId, resource: RESOURCE });

/** The OAuth tables of `pg`, for grants of keys kept in another (SQLite) store. */
const grantsOnPostgres = (pg: PostgresAccountService): OAuthStore => createPgOAuthStore(pg.sql, { grantStanding: async () => "live" });

const liveRefreshTokens = async (oauth: OAuthStore, accountId: string) => (await oauth.listApps({ accountId }))[0]!.activeRefreshTokens;

describe("key revocation when the OAuth store fails after the key is revoked", () => {
  it("answers that the key is revoked and the grants are retried; the retry finishes once the store is back", async () => {
    const pgAccounts: PostgresAccountService = await openPostgresAccountService({ url: pg.url, connectTimeoutS: 2 });
    try {
      // Accounts (and the key) on SQLite, grants on PostgreSQL: stopping PostgreSQL fails only the
      // grants. The key lives in the SQLite store, so the PostgreSQL service cannot judge its
      // grants' standing: the app is connected while the key is live.
      const oauth = grantsOnPostgres(pgAccounts);
      const h: ConsoleHarness = await makeConsoleHarness({ oauth, grantRevocationRetryMs: [300, 300, 300, 300, 300, 300, 300, 300, 300, 300] });
      const acct = await h.newAccount();
      await connectAppWithKey(oauth, acct.accountId, acct.keyId);
      expect(await liveRefreshTokens(oauth, acct.accountId)).toBe(1);
      const c = h.client();
      expect((await c.signIn(acct.accountId)).status).toBe(200);
      expect((await h.api("/v1/account", acct.key)).status).toBe(200);

      await pg.pause();
      stopped = true;
      const res = await c.post(`/console/api/keys/${acct.keyId}/revoke`);
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ keyId: acct.keyId, alreadyRevoked: false, oauthTokensRevoked: null, oauthGrants: "retrying" });
      expect(String(body.note)).toMatch(/key is revoked/i);
      expect(JSON.stringify(body)).not.toMatch(/nothing was changed/i);
      // True: the key is revoked, and it says so in the keys tab.
      expect((await h.api("/v1/account", acct.key)).status).toBe(403);
      const keys = (await (await c.get("/console/api/keys")).json()) as { keys: { keyId: string; state: string }[] };
      expect(keys.keys.find((k) => k.keyId === acct.keyId)?.state).toBe("revoked");
      expect(h.service.pendingGrantRevocations()).toEqual([acct.keyId]);

      await pg.start();
      stopped = false;
      // The background retry revokes the grants with no further request.
      for (let i = 0; i < 100 && h.service.pendingGrantRevocations().length > 0; i++) await sleep(100);
      expect(h.service.pendingGrantRevocations()).toEqual([]);
      expect(await liveRefreshTokens(oauth, acct.accountId)).toBe(0);
      // Revoking again is harmless and reports the grants done.
      const again = (await (await c.post(`/console/api/keys/${acct.keyId}/revoke`)).json()) as Record<string, unknown>;
      expect(again).toMatchObject({ keyId: acct.keyId, alreadyRevoked: true, oauthTokensRevoked: 0, oauthGrants: "revoked" });
    } finally {
      await pgAccounts.close();
    }
  }, 60_000);

  it("revoking the key again while the retry is pending retries at once and reports the tokens revoked", async () => {
    const pgAccounts: PostgresAccountService = await openPostgresAccountService({ url: pg.url, connectTimeoutS: 2 });
    try {
      const oauth = grantsOnPostgres(pgAccounts);
      // A retry far in the future: only the second request can finish the job within the test.
      const h = await makeConsoleHarness({ oauth, grantRevocationRetryMs: [600_000] });
      const acct = await h.newAccount();
      await connectAppWithKey(oauth, acct.accountId, acct.keyId);
      const c = h.client();
      expect((await c.signIn(acct.accountId)).status).toBe(200);

      await pg.pause();
      stopped = true;
      expect(await (await c.post(`/console/api/keys/${acct.keyId}/revoke`)).json()).toMatchObject({ oauthGrants: "retrying" });
      await pg.start();
      stopped = false;
      const again = (await (await c.post(`/console/api/keys/${acct.keyId}/revoke`)).json()) as Record<string, unknown>;
      expect(again).toMatchObject({ keyId: acct.keyId, alreadyRevoked: true, oauthTokensRevoked: 2, oauthGrants: "revoked" });
      expect(h.service.pendingGrantRevocations()).toEqual([]);
      expect(await liveRefreshTokens(oauth, acct.accountId)).toBe(0);
    } finally {
      await pgAccounts.close();
    }
  }, 60_000);
});

describe("the console on a closed SQLite store", () => {
  it("every store-backed call is 503 store_unavailable with Retry-After, not 500", async () => {
    const h = await makeConsoleHarness();
    const acct = await h.newAccount();
    const c = h.client();
    expect((await c.signIn(acct.accountId)).status).toBe(200);
    await h.accounts.close();
    const answers = [
      await c.get("/console/api/keys"),
      await c.get("/console/api/overview"),
      await c.post("/console/api/keys", {}),
      await c.post(`/console/api/keys/${acct.keyId}/revoke`),
      await c.post("/console/api/sign-in", { accountId: acct.accountId, password: "x".repeat(12) }, { csrf: "" }),
    ];
    for (const res of answers) {
      const body = (await res.json()) as { error?: { code: string; retry_after?: number } };
      expect([res.status, body.error?.code], res.url).toEqual([503, "store_unavailable"]);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(body.error?.retry_after).toBe(1);
    }
  });
});
