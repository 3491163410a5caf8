// What a customer does in the console, end to end over HTTP (in process): sign in, create a key and
// use it on the API, revoke it (next call 403), the plan's key limit, the monthly cap
// (402 monthly_cap_reached, cleared by raising or removing it), invite codes, usage from the ledger;
// on both accounts stores (SQLite and PostgreSQL).
import { afterEach, describe, expect, it } from "vitest";
import { openAccountService } from "../../../server/accounts";
import { planDefinition } from "../../../server/accounts/plans";
import { createApp } from "../../../server/app";
import { createConsoleApp, createConsoleService } from "../../../server/console";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import { fakeMarket } from "../_fake-market";
import { NOW_MS } from "../_harness";
import { closeConsoleHarnesses, makeConsoleHarness, PASSWORD, type ConsoleHarnessOptions } from "./_console-harness";
import { CONSOLE_STORES, usePostgres } from "./_stores";

const HEATMAP = "/v1/heatmap?symbols=SPY";
const storeUrl = usePostgres();

describe.each(CONSOLE_STORES)("console on %s", (kind) => {
  const harness = (o: ConsoleHarnessOptions = {}) => makeConsoleHarness({ ...o, storeUrl: storeUrl(kind) });
  afterEach(closeConsoleHarnesses);

  describe("console: keys", () => {
    it("creates a key shown once, which works on the API until revoked (then 403 forbidden)", async () => {
      const h = await harness();
      const acct = await h.newAccount();
      const c = h.client();
      expect((await c.signIn(acct.accountId)).status).toBe(200);

      const created = await c.post("/console/api/keys");
      expect(created.status).toBe(201);
      const { key, keyId } = (await created.json()) as { key: string; keyId: string };
      expect(key).toMatch(/^osk_live_[0-9A-Za-z]{43}$/);
      expect((await h.api("/v1/account", key)).status).toBe(200);

      // The listing never carries the key again, only its display prefix.
      const listed = (await (await c.get("/console/api/keys")).json()) as { keys: { keyId: string; prefix: string; state: string }[]; activeKeyLimit: number };
      expect(JSON.stringify(listed)).not.toContain(key);
      expect(listed.keys.find((k) => k.keyId === keyId)).toMatchObject({ prefix: key.slice(0, 15), state: "active" });
      expect(listed.activeKeyLimit).toBe(planDefinition("top").limits.activeKeys);

      const revoked = await c.post(`/console/api/keys/${keyId}/revoke`);
      expect(revoked.status).toBe(200);
      expect(await revoked.json()).toMatchObject({ keyId, alreadyRevoked: false });
      const after = await h.api("/v1/account", key);
      expect(after.status).toBe(403);
      expect(((await after.json()) as { error: { code: string } }).error.code).toBe("forbidden");
      // The account's other key is untouched.
      expect((await h.api("/v1/account", acct.key)).status).toBe(200);
    });

    it("enforces the plan's active-key limit (2 on invite access) with 409 key_limit_reached", async () => {
      const h = await harness();
      const acct = await h.newAccount("invite"); // its first key is active already
      const c = h.client();
      await c.signIn(acct.accountId);
      expect((await c.post("/console/api/keys")).status).toBe(201);
      const third = await c.post("/console/api/keys");
      expect(third.status).toBe(409);
      expect(((await third.json()) as { error: { code: string } }).error.code).toBe("key_limit_reached");
      // Revoking one frees a slot.
      await c.post(`/console/api/keys/${acct.keyId}/revoke`);
      expect((await c.post("/console/api/keys")).status).toBe(201);
    });
  });

  describe("console: monthly cap", () => {
    it("a cap below this month's spend gives 402 monthly_cap_reached; raising or removing it resumes", async () => {
      const h = await harness();
      const acct = await h.newAccount("top", 1000);
      const c = h.client();
      await c.signIn(acct.accountId);
      expect((await h.api(HEATMAP, acct.key)).status).toBe(200);
      const spent = ((await (await c.get("/console/api/overview")).json()) as { caps: { usedThisMonthCredits: number } }).caps.usedThisMonthCredits;
      expect(spent).toBeGreaterThan(0);

      const set = await c.post("/console/api/monthly-cap", { monthlyCapCredits: spent });
      expect(await set.json()).toEqual({ monthlyCapCredits: spent });
      const capped = await h.api(HEATMAP, acct.key);
      expect(capped.status).toBe(402);
      expect(((await capped.json()) as { error: { code: string } }).error.code).toBe("monthly_cap_reached");

      await c.post("/console/api/monthly-cap", { monthlyCapCredits: spent + 100 });
      expect((await h.api(HEATMAP, acct.key)).status).toBe(200);

      await c.post("/console/api/monthly-cap", { monthlyCapCredits: spent });
      expect((await h.api(HEATMAP, acct.key)).status).toBe(402);
      const removed = await c.post("/console/api/monthly-cap", { monthlyCapCredits: null });
      expect(await removed.json()).toEqual({ monthlyCapCredits: null });
      expect((await h.api(HEATMAP, acct.key)).status).toBe(200);
    });

    it.each([-1, 1.5, "100", true, 1e13])("refuses cap %j with 400 naming monthlyCapCredits", async (bad) => {
      const h = await harness();
      const acct = await h.newAccount();
      const c = h.client();
      await c.signIn(acct.accountId);
      const res = await c.post("/console/api/monthly-cap", { monthlyCapCredits: bad });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_parameter");
      expect(body.error.message).toContain("monthlyCapCredits");
      expect(body.error.message).toContain("null for no cap");
    });
  });

  describe("console: overview and usage", () => {
    it("overview is the account record; usage sums the ledger's debits net of refunds by day and endpoint", async () => {
      const h = await harness();
      const acct = await h.newAccount("top", 1000);
      const c = h.client();
      await c.signIn(acct.accountId);
      for (let i = 0; i < 3; i++) expect((await h.api(HEATMAP, acct.key)).status).toBe(200);
      // The ledger itself is the independent reference.
      const entries = (await h.accounts.ledger(acct.accountId, { limit: 1000 })).filter((e) => e.kind === "debit" || e.kind === "refund");
      const expected = -entries.reduce((s, e) => s + e.delta, 0);
      expect(expected).toBeGreaterThan(0);

      const overview = (await (await c.get("/console/api/overview")).json()) as Record<string, any>;
      expect(overview).toMatchObject({ customerId: acct.accountId, plan: "top", creditsBalance: await h.accounts.balance(acct.accountId), activeKeys: 1 });
      expect(overview.balanceUsd).toBeCloseTo(overview.creditsBalance / 1000, 9);
      expect(overview.caps.usedThisMonthCredits).toBe(expected);

      const usage = (await (await c.get("/console/api/usage?days=7")).json()) as {
        byDay: { day: string; credits: number }[];
        byEndpoint: { endpoint: string; credits: number }[];
        totalCredits: number;
      };
      expect(usage.byDay.map((d) => d.day)).toEqual(["2024-02-29", "2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04", "2024-03-05", "2024-03-06"]);
      expect(usage.byDay.at(-1)!.credits).toBe(expected);
      expect(usage.totalCredits).toBe(expected);
      expect(usage.byEndpoint).toEqual([{ endpoint: "/v1/heatmap", credits: expected }]);

      for (const bad of ["0", "91", "x", "2.5"]) {
        const res = await c.get(`/console/api/usage?days=${bad}`);
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: { message: string } }).error.message).toContain("days");
      }
    });
  });

  describe("console: invite codes", () => {
    it("a new customer opens an account with an invite code (invite plan, first key shown once); the code works once", async () => {
      const h = await harness();
      const { code } = await h.service.store.createInvite({ plan: "invite", credits: 250 });
      const c = h.client();
      const res = await c.post("/console/api/sign-up", { inviteCode: code, password: PASSWORD }, { csrf: "" });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { accountId: string; key: string; csrfToken: string };
      c.csrf = body.csrfToken;
      expect((await h.api("/v1/account", body.key)).status).toBe(200);
      const overview = (await (await c.get("/console/api/overview")).json()) as { plan: string; creditsBalance: number; limits: { activeKeys: number } };
      expect(overview.plan).toBe("invite");
      expect(overview.limits.activeKeys).toBe(2);
      expect(overview.creditsBalance).toBe(planDefinition("invite").grantCredits + 250);
      expect((await h.service.store.listInvites())[0]).toMatchObject({ state: "redeemed", redeemedBy: body.accountId });

      const again = await h.client().post("/console/api/sign-up", { inviteCode: code, password: PASSWORD }, { csrf: "" });
      expect(again.status).toBe(404);
      expect(((await again.json()) as { error: { code: string } }).error.code).toBe("invite_not_found");
      // The new customer can sign in with the password chosen at sign-up.
      expect((await h.client().signIn(body.accountId)).status).toBe(200);
    });

    it("redeemed on an invite account, a code for a listed plan moves the account to it; a listed plan is never downgraded", async () => {
      const h = await harness();
      const acct = await h.newAccount("invite", 100);
      const c = h.client();
      await c.signIn(acct.accountId);
      const up = (await h.service.store.createInvite({ plan: "api", credits: 0 })).code;
      const res = await c.post("/console/api/invite", { inviteCode: up });
      expect(await res.json()).toEqual({ plan: "api", creditsAdded: 0 });
      expect(((await (await c.get("/console/api/overview")).json()) as { plan: string }).plan).toBe("api");

      const { code: down, invite: downInvite } = await h.service.store.createInvite({ plan: "invite" });
      const refused = await c.post("/console/api/invite", { inviteCode: down });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("invite_not_applicable");
      // Refused codes stay open.
      // (By id: on PostgreSQL the file's tests share one database, with other "invite" codes in it.)
      expect((await h.service.store.listInvites()).find((i) => i.inviteId === downInvite.inviteId)!.state).toBe("open");
    });

    it("an expired code is refused", async () => {
      const h = await harness();
      const { code } = await h.service.store.createInvite({ plan: "invite", expiresAtMs: h.wall.ms + 1000 });
      h.wall.ms += 1000;
      const res = await h.client().post("/console/api/sign-up", { inviteCode: code, password: PASSWORD }, { csrf: "" });
      expect(res.status).toBe(404);
    });
  });
});

// Routing does not depend on the store: SQLite only.
describe("console: routing", () => {
  afterEach(closeConsoleHarnesses);
  it("serves the page and its script without a session, with a CSP that allows no inline script", async () => {
    const h = await makeConsoleHarness();
    const page = await h.client().get("/console");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await page.text();
    for (const tab of ["overview", "usage", "keys", "apps", "invite", "cap"]) expect(html).toContain(`id="tab-${tab}"`);
    expect((await h.client().get("/console/app.js")).headers.get("content-type")).toContain("javascript");
  });

  it("answers 401 not_signed_in without a session, 404 for unknown calls and 405 with Allow for a wrong method", async () => {
    const h = await makeConsoleHarness();
    const c = h.client();
    const anon = await c.get("/console/api/keys");
    expect(anon.status).toBe(401);
    expect(((await anon.json()) as { error: { code: string } }).error.code).toBe("not_signed_in");
    expect((await c.get("/console/api/nope")).status).toBe(404);
    const wrong = await c.get("/console/api/sign-in");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    // The read-only API stays GET-only and knows nothing of the console.
    expect((await h.app.request("/v1/console")).status).not.toBe(200);
  });

  it("keeps the console out of the /v1 API: a session cookie is no API credential, and no OpenAPI path mentions it", async () => {
    const h = await makeConsoleHarness();
    const acct = await h.newAccount();
    const c = h.client();
    await c.signIn(acct.accountId);
    const withCookie = await h.app.request("/v1/account", { headers: { Cookie: c.cookie! } });
    expect(withCookie.status).toBe(401);
    const doc = await (await h.app.request("/v1/openapi.json")).text();
    expect(doc).not.toContain("/console");
  });

  it("is served on {base_url} only when hosts are matched by name", async () => {
    const accounts = openAccountService({ dbPath: ":memory:" });
    const app = createApp({
      market: fakeMarket(NOW_MS),
      accounts,
      rateLimiter: createRateLimiter(),
      concurrency: createConcurrencyLimiter(),
      toolServer: false,
      hosts: { base: "api.test", atlas: "atlas.test" },
      console: createConsoleApp({ service: createConsoleService({ accounts }) }),
    });
    const on = (host: string) => app.request(`http://${host}/console`, { headers: { Host: host } });
    expect((await on("api.test")).status).toBe(200);
    expect((await on("atlas.test")).status).toBe(404);
    accounts.close();
  });
});
