// `optionscope apps list|revoke` and `optionscope console sign-out` on the PostgreSQL store
// (`--store` / OPTIONSCOPE_STORE): the CLI sees the connected apps and sessions the instances
// wrote, and what it revokes is gone for them at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAccountStore, type AccountStore } from "../../../server/accounts";
import { runAppsCli } from "../../../server/cli/apps-cli";
import { runConsoleCli } from "../../../server/cli/console-cli";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";

let pg: PostgresProcess;
let instance: AccountStore;
beforeAll(async () => {
  pg = await startPostgres();
  instance = await openAccountStore({ storeUrl: pg.url, dataDir: "/nonexistent" });
}, 60_000);
afterAll(async () => {
  await instance?.close();
  await pg?.stop();
});

async function run(fn: typeof runAppsCli, argv: string[], env: Record<string, string>) {
  let stdout = "";
  let stderr = "";
  const code = await fn(argv, env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe("apps and console CLI on PostgreSQL", () => {
  it("lists and revokes an app an instance connected; ends the account's console sessions", async () => {
    const env = { OPTIONSCOPE_DATA_DIR: "/nonexistent" };
    const acct = await instance.createAccount({ plan: "top" });
    const oauth = instance.openOAuthStore();
    const client = await oauth.registerClient({ clientName: "Tool", redirectUris: ["http://127.0.0.1/cb"], authMethod: "none", metadata: {} });
    const app = await oauth.connectApp({ accountId: acct.accountId, clientId: client.clientId, resource: "http://x/mcp", scope: "read" });

    const listed = await run(runAppsCli, ["apps", "list", "--account", acct.accountId, "--store", pg.url, "--json"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { apps: { appId: string; clientName: string }[] }).apps.map((a) => [a.appId, a.clientName])).toEqual([[app.appId, "Tool"]]);
    const revoked = await run(runAppsCli, ["apps", "revoke", app.appId, "--json"], { ...env, OPTIONSCOPE_STORE: pg.url });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ appId: app.appId, accountId: acct.accountId, alreadyRevoked: false });
    expect((await oauth.listApps({ accountId: acct.accountId }))[0]!.revokedAt).not.toBeNull();
    const unknown = await run(runAppsCli, ["apps", "revoke", "app_nope", "--store", pg.url], env);
    expect(unknown.code).toBe(1);

    const consoleStore = instance.openConsoleStore();
    const session = await consoleStore.createSession(acct.accountId);
    const ended = await run(runConsoleCli, ["console", "sign-out", "--account", acct.accountId, "--store", pg.url, "--json"], env);
    expect(ended.code, ended.stderr).toBe(0);
    expect(JSON.parse(ended.stdout)).toEqual({ accountId: acct.accountId, sessionsEnded: 1 });
    expect(await consoleStore.session(session.sessionId)).toBeNull();
  });

  it("an unreachable store exits 3 with the URL's password hidden", async () => {
    const r = await run(runAppsCli, ["apps", "list", "--store", "postgres://u:secret@127.0.0.1:1/none"], { OPTIONSCOPE_DATA_DIR: "/nonexistent" });
    expect(r.code).toBe(3);
    expect(r.stderr).not.toContain("secret");
  });
});
