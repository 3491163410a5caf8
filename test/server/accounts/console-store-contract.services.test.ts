// The console store and OAuth store contracts on both accounts stores, each seen by two
// "instances": two services opened on the same SQLite file, or two pools on one PostgreSQL. What
// one instance writes the other reads at once (sessions, setup links, invite codes); an invite
// code and an authorization code are spent once even when both instances race for them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAccountStore, planDefinition, type AccountStore } from "../../../server/accounts";
import type { ConsoleStore } from "../../../server/accounts/console-types";
import type { ApiError } from "../../../server/errors";
import { OAuthError } from "../../../server/oauth/oauth-error";
import { s256Challenge } from "../../../server/oauth";
import { usePostgres } from "../console/_stores";

const postgresUrl = usePostgres();
/** A stored password hash (its format is not checked by the store). */
const HASH = "scrypt$1024$8$1$AAAA$AAAA";

interface Pair {
  a: AccountStore;
  b: AccountStore;
  ca: ConsoleStore;
  cb: ConsoleStore;
  wall: { ms: number };
  close(): Promise<void>;
}

const kinds: [string, () => Promise<Pair>][] = [
  [
    "sqlite",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "osc-console-contract-"));
      const wall = { ms: Date.parse("2024-03-06T15:00:00Z") };
      const a = await openAccountStore({ storeUrl: undefined, dataDir: dir, clock: () => wall.ms });
      const b = await openAccountStore({ storeUrl: undefined, dataDir: dir, clock: () => wall.ms });
      const close = async () => {
        await a.close();
        await b.close();
        rmSync(dir, { recursive: true, force: true });
      };
      return { a, b, ca: a.openConsoleStore(), cb: b.openConsoleStore(), wall, close };
    },
  ],
  [
    "postgres",
    async () => {
      const wall = { ms: Date.parse("2024-03-06T15:00:00Z") };
      const a = await openAccountStore({ storeUrl: postgresUrl("postgres")!, dataDir: "/nonexistent", clock: () => wall.ms });
      const b = await openAccountStore({ storeUrl: postgresUrl("postgres")!, dataDir: "/nonexistent", clock: () => wall.ms });
      const close = async () => {
        await a.close();
        await b.close();
      };
      return { a, b, ca: a.openConsoleStore(), cb: b.openConsoleStore(), wall, close };
    },
  ],
];

/** Settle calls that may throw at once (SQLite) or reject later (PostgreSQL) alike. */
const settleAll = (calls: (() => unknown)[]) => Promise.allSettled(calls.map(async (call) => call()));

async function rejected(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe.each(kinds)("console store contract: %s", (_kind, open) => {
  let s: Pair;
  beforeAll(async () => {
    s = await open();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("a session opened on one instance is valid on the other; ending it on either ends it on both", async () => {
    const { accountId } = await s.a.createAccount({ plan: "top" });
    const opened = await s.ca.createSession(accountId);
    expect(await s.cb.session(opened.sessionId)).toMatchObject({ accountId, csrfToken: opened.csrfToken, expiresMs: opened.expiresMs });
    expect(await s.cb.endSession(opened.sessionId)).toBe(true);
    expect(await s.ca.session(opened.sessionId)).toBeNull();
    expect(await s.ca.endSession(opened.sessionId)).toBe(false);
  });

  it("idle sessions expire after an hour of no use on any instance; use on one keeps it alive on the other", async () => {
    const { accountId } = await s.a.createAccount({ plan: "top" });
    const opened = await s.ca.createSession(accountId);
    s.wall.ms += 50 * 60_000;
    expect(await s.cb.session(opened.sessionId)).not.toBeNull(); // touched on b
    s.wall.ms += 50 * 60_000; // 100 min after sign-in, 50 after the touch
    expect(await s.ca.session(opened.sessionId)).not.toBeNull();
    s.wall.ms += 60 * 60_000;
    expect(await s.cb.session(opened.sessionId)).toBeNull();
  });

  it("a changed password ends the account's sessions everywhere; endSessionsOf counts what it ended", async () => {
    const { accountId } = await s.a.createAccount({ plan: "top" });
    const one = await s.ca.createSession(accountId);
    const two = await s.cb.createSession(accountId);
    await s.cb.setPasswordHash(accountId, "scrypt$1024$8$1$AAAA$AAAA");
    expect(await s.ca.passwordHash(accountId)).toBe("scrypt$1024$8$1$AAAA$AAAA");
    expect([await s.ca.session(one.sessionId), await s.ca.session(two.sessionId)]).toEqual([null, null]);
    await s.ca.createSession(accountId);
    await s.cb.createSession(accountId);
    expect(await s.ca.endSessionsOf(accountId)).toBe(2);
  });

  it("a setup link made by one instance (the CLI) works once on another, and never after it expires", async () => {
    const { accountId } = await s.a.createAccount({ plan: "api" });
    const link = await s.ca.createSetupLink(accountId, 60_000);
    const racing = await Promise.all([s.ca, s.cb].map(async (c) => c.consumeSetupLink(link.token)));
    expect(racing.filter((x) => x === accountId)).toHaveLength(1);
    expect(racing.filter((x) => x === null)).toHaveLength(1);
    const late = await s.ca.createSetupLink(accountId, 60_000);
    s.wall.ms += 60_000;
    expect(await s.cb.consumeSetupLink(late.token)).toBeNull();
  });

  it("an invite code opens exactly one account when both instances race to redeem it", async () => {
    const before = (await s.a.listAccounts()).length;
    const { code, invite } = await s.ca.createInvite({ plan: "invite", credits: 250, label: "race" });
    const tries = await Promise.all(Array.from({ length: 8 }, async (_, i) => (i % 2 ? s.cb : s.ca).signUpWithInvite(code, HASH)));
    const winners = tries.filter((t) => t !== null);
    expect(winners).toHaveLength(1);
    expect((await s.a.listAccounts()).length).toBe(before + 1);
    const account = await s.b.getAccount(winners[0]!.accountId);
    expect(account).toMatchObject({ plan: "invite", label: "race", creditsBalance: planDefinition("invite").grantCredits + 250 });
    expect(account.ledgerSumCredits).toBe(account.creditsBalance);
    const listed = (await s.cb.listInvites()).find((i) => i.inviteId === invite.inviteId);
    expect(listed).toMatchObject({ state: "redeemed", redeemedBy: winners[0]!.accountId });
    // The same transaction set the password and opened the session, visible to the other instance.
    expect(await s.cb.passwordHash(winners[0]!.accountId)).toBe(HASH);
    expect(await s.ca.session(winners[0]!.session.sessionId)).toMatchObject({ accountId: winners[0]!.accountId, csrfToken: winners[0]!.session.csrfToken });
  });

  it("a setup link signs in once across instances: the winner's password is set and its session live; the loser writes nothing", async () => {
    const { accountId } = await s.a.createAccount({ plan: "api" });
    const old = await s.ca.createSession(accountId);
    const link = await s.ca.createSetupLink(accountId, 60_000);
    const racing = await Promise.all([s.ca, s.cb].map(async (c, i) => c.setUpWithLink(link.token, `${HASH}${i}`)));
    const winner = racing.findIndex((r) => r !== null);
    expect(racing.filter((r) => r === null)).toHaveLength(1);
    expect(racing[winner]!.accountId).toBe(accountId);
    expect(await s.cb.passwordHash(accountId)).toBe(`${HASH}${winner}`);
    expect(await s.cb.session(racing[winner]!.sessionId)).toMatchObject({ accountId, csrfToken: racing[winner]!.csrfToken });
    expect(await s.ca.session(old.sessionId)).toBeNull(); // the new password ended the older session
    const late = await s.ca.createSetupLink(accountId, 60_000);
    s.wall.ms += 60_000;
    expect(await s.cb.setUpWithLink(late.token, "scrypt$other")).toBeNull();
    expect(await s.ca.passwordHash(accountId)).toBe(`${HASH}${winner}`);
  });

  it("applying a code: once across instances; a refused code (listed plan) stays open and changes nothing", async () => {
    const { accountId } = await s.a.createAccount({ plan: "invite", credits: 100 });
    const up = await s.ca.createInvite({ plan: "api", credits: 40 });
    const results = await settleAll([() => s.ca.applyInvite(accountId, up.code), () => s.cb.applyInvite(accountId, up.code)]);
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(1);
    expect((ok[0] as PromiseFulfilledResult<unknown>).value).toEqual({ plan: "api", creditsAdded: 40 });
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect([(failed.reason as ApiError).status, (failed.reason as ApiError).code]).toEqual([404, "invite_not_found"]);
    const after = await s.b.getAccount(accountId);
    expect(after.plan).toBe("api");
    expect(after.ledgerSumCredits).toBe(after.creditsBalance);

    const down = await s.cb.createInvite({ plan: "invite", credits: 5 });
    const refused = (await rejected(() => s.ca.applyInvite(accountId, down.code))) as ApiError;
    expect([refused.status, refused.code]).toEqual([409, "invite_not_applicable"]);
    expect((await s.ca.listInvites()).find((i) => i.inviteId === down.invite.inviteId)!.state).toBe("open");
    expect((await s.b.getAccount(accountId)).creditsBalance).toBe(after.creditsBalance);
  });

  it("an expired code is refused and listed as expired", async () => {
    const { code, invite } = await s.ca.createInvite({ plan: "invite", expiresAtMs: s.wall.ms + 1000 });
    s.wall.ms += 1000;
    expect(await s.cb.signUpWithInvite(code, HASH)).toBeNull();
    expect((await s.cb.listInvites()).find((i) => i.inviteId === invite.inviteId)!.state).toBe("expired");
  });

  it("keeps the latest last-use per key (skipping unknown keys), and the monthly cap the debit path reads", async () => {
    const acct = await s.a.createAccount({ plan: "top", credits: 1000 });
    await s.ca.recordKeyUses(new Map([[acct.keyId, s.wall.ms]]));
    await s.cb.recordKeyUses(
      new Map([
        [acct.keyId, s.wall.ms - 5000],
        ["key_gone", s.wall.ms],
      ]),
    );
    expect(await s.cb.keysOf(acct.accountId)).toEqual([expect.objectContaining({ keyId: acct.keyId, state: "active", lastUsedAt: new Date(s.wall.ms).toISOString() })]);
    expect(await s.ca.setMonthlyCap(acct.accountId, 5)).toBe(5);
    const p = await s.b.authenticate(`Bearer ${acct.key}`);
    const capped = (await rejected(() => s.b.debit(p, 6, { requestId: "cap-1", route: "/v1/heatmap" }))) as ApiError;
    expect(capped.code).toBe("monthly_cap_reached");
    expect(await s.ca.setMonthlyCap(acct.accountId, null)).toBeNull();
    expect((await s.b.debit(p, 6, { requestId: "cap-2", route: "/v1/heatmap" })).balance).toBe(994);
    expect(await s.ca.setMonthlyCap("acct_none", 5)).toBeUndefined();
    expect(await s.ca.accountPlan(acct.accountId)).toBe("top");
    expect(await s.ca.accountPlan("acct_none")).toBeNull();
  });

  it("the usage report equals a recount of the ledger by ET day (Intl) and route, net of refunds", async () => {
    const acct = await s.a.createAccount({ plan: "top", credits: 100_000 });
    const p = await s.a.authenticate(`Bearer ${acct.key}`);
    const etDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" });
    const routes = ["/v1/heatmap", "/v1/levels", "/v1/historical"];
    let seed = 11;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let step = 0; step < 30; step++) {
      s.wall.ms += Math.floor(rand() * 9 * 3_600_000);
      const ref = { requestId: `u${step}`, route: routes[step % 3]! };
      const svc = step % 2 ? s.b : s.a;
      await svc.debit(p, 1 + Math.floor(rand() * 20), ref);
      if (rand() < 0.3) await svc.refund(p, 1 + Math.floor(rand() * 5), ref);
    }
    const perDay = new Map<string, number>();
    const perRoute = new Map<string, number>();
    for (const e of await s.a.ledger(acct.accountId, { limit: 10_000 })) {
      if (e.kind !== "debit" && e.kind !== "refund") continue;
      perDay.set(etDay.format(e.tsMs), (perDay.get(etDay.format(e.tsMs)) ?? 0) - e.delta);
      perRoute.set(e.route!, (perRoute.get(e.route!) ?? 0) - e.delta);
    }
    const report = await s.cb.usageReport(acct.accountId, s.wall.ms, 90);
    for (const d of report.byDay) expect(d.credits, d.day).toBe(perDay.get(d.day) ?? 0);
    expect(report.totalCredits).toBe([...perDay.values()].reduce((x, y) => x + y, 0));
    expect(new Map(report.byEndpoint.map((e) => [e.endpoint, e.credits]))).toEqual(perRoute);
  });
});

describe.each(kinds)("OAuth store across instances: %s", (_kind, open) => {
  let s: Pair;
  beforeAll(async () => {
    s = await open();
  });
  afterAll(async () => {
    await s?.close();
  });
  const RESOURCE = "http://localhost:8080/mcp";
  const verifier = "v".repeat(50);

  async function signedIn() {
    const acct = await s.a.createAccount({ plan: "top" });
    const oa = s.a.openOAuthStore();
    const ob = s.b.openOAuthStore();
    const client = await oa.registerClient({ clientName: "tool", redirectUris: ["https://c.example/cb"], authMethod: "none", metadata: {} });
    const app = await ob.connectApp({ accountId: acct.accountId, clientId: client.clientId, resource: RESOURCE, scope: "mcp" });
    const code = await oa.issueCode({
      appId: app.appId,
      keyId: acct.keyId,
      clientId: client.clientId,
      redirectUri: "https://c.example/cb",
      codeChallenge: s256Challenge(verifier),
      resource: RESOURCE,
      scope: "mcp",
    });
    return { acct, oa, ob, client, app, code };
  }

  it("an authorization code is exchanged once when two instances race for it", async () => {
    const { oa, ob, client, code } = await signedIn();
    const input = { code, clientId: client.clientId, redirectUri: "https://c.example/cb", codeVerifier: verifier, resource: null };
    const results = await settleAll([() => oa.exchangeCode(input), () => ob.exchangeCode(input)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failed.reason).toBeInstanceOf(OAuthError);
    expect((failed.reason as OAuthError).error).toBe("invalid_grant");
  });

  it("tokens issued by one instance verify on the other; revoking the key there ends the grant; apps list on both", async () => {
    const { acct, oa, ob, client, app, code } = await signedIn();
    const set = await oa.exchangeCode({ code, clientId: client.clientId, redirectUri: null, codeVerifier: verifier, resource: null });
    expect(await ob.verifyAccessToken(set.accessToken, RESOURCE + "/")).toMatchObject({ accountId: acct.accountId, appId: app.appId, keyId: acct.keyId });
    expect(await ob.verifyAccessToken(set.accessToken, "https://other.example/mcp")).toBeNull();
    expect((await oa.listApps({ accountId: acct.accountId })).map((x) => [x.appId, x.activeRefreshTokens])).toEqual([[app.appId, 1]]);
    // A refresh rotates the token once; the old one replayed ends the whole grant.
    const next = await ob.refresh({ refreshToken: set.refreshToken, clientId: client.clientId, scope: null, resource: null });
    const replay = (await rejected(() => oa.refresh({ refreshToken: set.refreshToken, clientId: client.clientId, scope: null, resource: null }))) as OAuthError;
    expect(replay.error).toBe("invalid_grant");
    expect(await ob.verifyAccessToken(next.accessToken, RESOURCE)).toBeNull();
    // A fresh sign-in, then the key is revoked: refresh is refused as "gone" and the tokens die with the key.
    const again = await signedIn();
    const set2 = await again.oa.exchangeCode({ code: again.code, clientId: again.client.clientId, redirectUri: null, codeVerifier: verifier, resource: null });
    await s.b.revokeKey(again.acct.keyId);
    const gone = (await rejected(() =>
      again.ob.refresh({ refreshToken: set2.refreshToken, clientId: again.client.clientId, scope: null, resource: null }),
    )) as OAuthError;
    expect(gone.message).toMatch(/revoked or has expired/);
    expect(await again.oa.verifyAccessToken(set2.accessToken, RESOURCE)).toBeNull();
    const revoked = await again.oa.revokeApp(again.app.appId);
    expect(revoked).toMatchObject({ appId: again.app.appId, accountId: again.acct.accountId, alreadyRevoked: false });
    expect((await again.ob.listApps({ accountId: again.acct.accountId }))[0]!.revokedAt).not.toBeNull();
    expect(await again.ob.revokeApp("app_unknown")).toBeNull();
  });

  it("client authentication: a secret client must present its secret by its registered method", async () => {
    const oa = s.a.openOAuthStore();
    const ob = s.b.openOAuthStore();
    const c = await oa.registerClient({ clientName: null, redirectUris: ["https://c.example/cb"], authMethod: "client_secret_post", metadata: {} });
    expect(c.clientSecret).toMatch(/\S{20,}/);
    expect((await ob.authenticateClient(c.clientId, c.clientSecret, "post")).clientId).toBe(c.clientId);
    for (const [secret, via] of [
      [c.clientSecret, "basic"],
      ["wrong", "post"],
      [null, "post"],
    ] as const) {
      const e = (await rejected(() => ob.authenticateClient(c.clientId, secret, via))) as OAuthError;
      expect([e.error, e.status]).toEqual(["invalid_client", 401]);
    }
    expect(await ob.getClient("oscl_unknown")).toBeNull();
  });
});
