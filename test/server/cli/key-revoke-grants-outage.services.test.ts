// `optionscope key revoke` when the OAuth store fails after the key is revoked (PostgreSQL, with
// a trigger on `oauth_codes` raising 57P01 `admin_shutdown`, what a stopped backend reports, for
// its first N updates: the accounts step succeeds, the grants step fails). A short outage is
// ridden out by the CLI's retries; a lasting one exits 3 with the truth (the key is revoked, the
// grants are not marked yet) and the exact command to run again, which then finishes the job.
// On SQLite too (a row trigger raising on the tokens' update), with a data directory the shell must quote.
import { signedInApp } from "../oauth/_signed-in-app";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountsDbPath, openAccountService, openAccountStore, type AccountStore } from "../../../server/accounts";
import { runAccountsCli } from "../../../server/cli";
import type { OAuthStore } from "../../../server/oauth/oauth-store";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";

let pg: PostgresProcess;
let instance: AccountStore;
let admin: postgres.Sql;
beforeAll(async () => {
  pg = await startPostgres();
  instance = await openAccountStore({ storeUrl: pg.url, dataDir: "/nonexistent" });
  admin = postgres(pg.url, { max: 1, onnotice: () => {} });
}, 60_000);
afterAll(async () => {
  await admin?.end();
  await instance?.close();
  await pg?.stop();
});
afterEach(async () => {
  await admin.unsafe(`DROP TRIGGER IF EXISTS inject_outage ON oauth_codes`);
});

const ENV = { OPTIONSCOPE_DATA_DIR: "/nonexistent" };
const RESOURCE = "http://127.0.0.1/mcp";
const FAST_RETRIES = [10, 10, 10];

/** The next `failures` updates of `oauth_codes` fail as an outage would; returns how many were tried. */
async function failGrantUpdates(failures: number): Promise<() => Promise<number>> {
  await admin.unsafe(`DROP SEQUENCE IF EXISTS inject_outage_tries; CREATE SEQUENCE inject_outage_tries`);
  // nextval is not rolled back with the failed transaction, so the count survives each attempt.
  await admin.unsafe(`CREATE OR REPLACE FUNCTION inject_outage() RETURNS trigger LANGUAGE plpgsql AS $$
                      BEGIN IF nextval('inject_outage_tries') <= ${failures} THEN
                        RAISE EXCEPTION 'injected outage' USING ERRCODE = '57P01'; END IF; RETURN NULL; END $$`);
  await admin.unsafe(`CREATE TRIGGER inject_outage BEFORE UPDATE ON oauth_codes FOR EACH STATEMENT EXECUTE FUNCTION inject_outage()`);
  return async () => Number((await admin.unsafe(`SELECT last_value FROM inject_outage_tries`))[0]!.last_value);
}

/** An account whose key signed in one app (one code, one access and one refresh token). */
async function accountWithGrants(oauth: OAuthStore, accounts: AccountStore = instance) {
  const acct = await accounts.createAccount({ plan: "top", credits: 100 });
  await signedInApp(oauth, { accountId: acct.accountId, keyId: acct.keyId, resource: RESOURCE });
  return acct;
}

const liveRefreshTokens = async (oauth: OAuthStore, accountId: string) => (await oauth.listApps({ accountId }))[0]!.activeRefreshTokens;

async function cli(argv: string[], grantRetryMs = FAST_RETRIES, env: Record<string, string> = ENV) {
  let stdout = "";
  let stderr = "";
  const code = await runAccountsCli(argv, env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, { grantRetryMs });
  return { code, stdout, stderr };
}

const keyWorks = async (key: string) => {
  try {
    await instance.authenticate(`Bearer ${key}`);
    return true;
  } catch {
    return false;
  }
};

describe("optionscope key revoke when the OAuth store fails after the key is revoked", () => {
  it("a short outage is ridden out by the retries: exit 0, the tokens revoked", async () => {
    const oauth = instance.openOAuthStore();
    const acct = await accountWithGrants(oauth);
    const tries = await failGrantUpdates(2);
    const r = await cli(["key", "revoke", acct.keyId, "--store", pg.url, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ keyId: acct.keyId, accountId: acct.accountId, alreadyRevoked: false, oauthTokensRevoked: 2, oauthGrants: "revoked" });
    expect(await tries()).toBe(3);
    expect(await liveRefreshTokens(oauth, acct.accountId)).toBe(0);
  });

  it("a lasting outage exits 3, says the key is revoked and the grants are not, and names the command that finishes it", async () => {
    const oauth = instance.openOAuthStore();
    const acct = await accountWithGrants(oauth);
    const tries = await failGrantUpdates(1_000);
    // Revoked by the key itself: the command to run again names the key id, never the secret.
    const r = await cli(["key", "revoke", acct.key, "--store", pg.url, "--json"]);
    expect(r.code).toBe(3);
    const done = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(done).toEqual({
      keyId: acct.keyId,
      accountId: acct.accountId,
      alreadyRevoked: false,
      oauthTokensRevoked: null,
      oauthGrants: "failed",
      retryCommand: `optionscope key revoke ${acct.keyId} --store ${pg.url}`,
    });
    const error = (JSON.parse(r.stderr) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("oauth_grants_not_revoked");
    expect(error.message).toContain(`Key ${acct.keyId} is revoked`);
    expect(error.message).toContain(`failed ${FAST_RETRIES.length + 1} times`);
    expect(error.message).toContain(String(done.retryCommand));
    expect(r.stdout + r.stderr).not.toContain(acct.key);
    expect(await tries()).toBe(FAST_RETRIES.length + 1);
    // The truth of it: the key no longer authenticates; its tokens are still listed live.
    expect(await keyWorks(acct.key)).toBe(false);
    expect(await liveRefreshTokens(oauth, acct.accountId)).toBe(1);

    // Once the store is healthy, the command it printed finishes the job.
    await admin.unsafe(`DROP TRIGGER inject_outage ON oauth_codes`);
    const again = await cli(String(done.retryCommand).split(" ").slice(1).concat("--json"));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ keyId: acct.keyId, alreadyRevoked: true, oauthTokensRevoked: 2, oauthGrants: "revoked" });
    expect(await liveRefreshTokens(oauth, acct.accountId)).toBe(0);
  });

  it("in text: the revoked key on stdout, the failure and the command on stderr", async () => {
    const oauth = instance.openOAuthStore();
    const acct = await accountWithGrants(oauth);
    await failGrantUpdates(1_000);
    const r = await cli(["key", "revoke", acct.keyId, "--store", pg.url], [10]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(`Revoked key ${acct.keyId} of ${acct.accountId}.\n`);
    expect(r.stderr).toMatch(new RegExp(`^error: Key ${acct.keyId} is revoked: it no longer authenticates`));
    expect(r.stderr).toContain("failed 2 times");
    expect(r.stderr).toContain(`optionscope key revoke ${acct.keyId} --store ${pg.url}\n`);
    expect(r.stderr).not.toMatch(/nothing was changed/i);
  });
});

describe("optionscope key revoke on SQLite when the grants' update fails", () => {
  it("exits 3 with the data directory quoted in the command to run again, which then finishes the job", async () => {
    const dir = mkdtempSync(join(tmpdir(), "osc cli's-"));
    const service = openAccountService({ dbPath: accountsDbPath(dir) });
    try {
      const oauth = service.openOAuthStore();
      const acct = await accountWithGrants(oauth, service);
      service.db.exec(`CREATE TRIGGER inject_outage BEFORE UPDATE ON oauth_tokens BEGIN SELECT RAISE(ABORT, 'injected outage'); END`);
      const r = await cli(["key", "revoke", acct.keyId, "--data-dir", dir, "--json"], [10], {});
      expect(r.code).toBe(3);
      const done = JSON.parse(r.stdout) as { retryCommand: string; oauthGrants: string };
      expect(done.oauthGrants).toBe("failed");
      expect(done.retryCommand).toBe(`optionscope key revoke ${acct.keyId} --data-dir '${dir.replaceAll("'", "'\\''")}'`);
      expect(JSON.parse(r.stderr).error.message).toContain("injected outage");
      expect(() => service.authenticate(`Bearer ${acct.key}`)).toThrow();
      expect(oauth.listApps({ accountId: acct.accountId })[0]!.activeRefreshTokens).toBe(1);

      service.db.exec(`DROP TRIGGER inject_outage`);
      const again = await cli(["key", "revoke", acct.keyId, "--data-dir", dir, "--json"], [10], {});
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ alreadyRevoked: true, oauthTokensRevoked: 2, oauthGrants: "revoked" });
      expect(oauth.listApps({ accountId: acct.accountId })[0]!.activeRefreshTokens).toBe(0);
    } finally {
      service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
