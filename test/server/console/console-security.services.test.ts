// The console's security rules: CSRF on every state change, no session fixation, the cookie's
// flags, one account never sees or touches another's keys and apps, and brute-force limits on
// sign-in per account and per address; on both accounts stores (SQLite and PostgreSQL).
import { afterEach, describe, expect, it } from "vitest";
import { closeConsoleHarnesses, makeConsoleHarness, ORIGIN, PASSWORD, type ConsoleHarness, type ConsoleHarnessOptions } from "./_console-harness";
import { CONSOLE_STORES, usePostgres } from "./_stores";

const code = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
const keyCount = async (h: ConsoleHarness, accountId: string) => (await h.service.store.keysOf(accountId)).length;
const storeUrl = usePostgres();

describe.each(CONSOLE_STORES)("console security on %s", (kind) => {
  const harness = (o: ConsoleHarnessOptions = {}) => makeConsoleHarness({ ...o, storeUrl: storeUrl(kind) });
  afterEach(closeConsoleHarnesses);

  describe("CSRF", () => {
    it("refuses a signed-in state change without, with a wrong, or with another session's X-CSRF-Token (nothing changes)", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const b = await h.newAccount();
      const ca = h.client();
      const cb = h.client();
      await ca.signIn(a.accountId);
      await cb.signIn(b.accountId);
      const before = await keyCount(h, a.accountId);
      for (const token of ["", "x".repeat(43), cb.csrf]) {
        const res = token === "" ? await ca.post("/console/api/keys", {}, { csrf: "" }) : await ca.post("/console/api/keys", {}, { csrf: token });
        expect(res.status).toBe(403);
        expect(await code(res)).toBe("csrf_failed");
      }
      expect((await ca.post("/console/api/monthly-cap", { monthlyCapCredits: 0 }, { csrf: cb.csrf })).status).toBe(403);
      expect((await ca.post("/console/api/sign-out", {}, { csrf: "" })).status).toBe(403);
      expect(await keyCount(h, a.accountId)).toBe(before);
      expect((await h.accounts.getAccount(a.accountId)).monthlyCapCredits).toBeNull();
      // The page's own call, with the token, goes through.
      expect((await ca.post("/console/api/keys")).status).toBe(201);
    });

    it("refuses requests from another origin even with the right token, and form posts (not JSON)", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const c = h.client();
      await c.signIn(a.accountId);
      const evil = await c.post("/console/api/keys", {}, { headers: { Origin: "https://evil.example" } });
      expect(evil.status).toBe(403);
      expect(await code(evil)).toBe("csrf_failed");
      const crossSite = await c.post("/console/api/keys", {}, { headers: { "Sec-Fetch-Site": "cross-site" } });
      expect(crossSite.status).toBe(403);
      const form = await h.app.fetch(
        new Request(`${ORIGIN}/console/api/keys`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: c.cookie!, "X-CSRF-Token": c.csrf, Origin: ORIGIN },
          body: "a=1",
        }),
      );
      expect(form.status).toBe(415);
      expect(await keyCount(h, a.accountId)).toBe(1);
    });

    it("refuses a sign-in posted from another origin (login CSRF)", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const res = await h.client({ origin: "https://evil.example" }).signIn(a.accountId);
      expect(res.status).toBe(403);
      expect(res.headers.get("set-cookie")).toBeNull();
    });
  });

  describe("sessions", () => {
    it("ignores a session id planted before sign-in and always issues a fresh one", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const c = h.client();
      const planted = "osc_session=AttackerChosenValue0123456789";
      c.cookie = planted;
      expect((await c.get("/console/api/session")).status).toBe(401);
      await c.signIn(a.accountId);
      expect(c.cookie).not.toBe(planted);
      expect(c.cookie).toMatch(/^osc_session=[0-9A-Za-z]{43}$/);
      const replay = h.client();
      replay.cookie = planted;
      expect((await replay.get("/console/api/session")).status).toBe(401);
    });

    it("a victim signing in over an attacker's planted (valid) session gets a new id, and the planted one dies", async () => {
      const h = await harness();
      const attacker = await h.newAccount();
      const victim = await h.newAccount();
      const ca = h.client();
      await ca.signIn(attacker.accountId);
      const cv = h.client();
      cv.cookie = ca.cookie;
      await cv.signIn(victim.accountId);
      expect(cv.cookie).not.toBe(ca.cookie);
      expect((await ca.get("/console/api/session")).status).toBe(401);
      const who = (await (await cv.get("/console/api/session")).json()) as { accountId: string };
      expect(who.accountId).toBe(victim.accountId);
    });

    it("a failed sign-in (wrong password) leaves the browser's session as it was", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const c = h.client();
      await c.signIn(a.accountId);
      const cookie = c.cookie;
      expect((await c.signIn(a.accountId, "not the password")).status).toBe(401);
      expect(c.cookie).toBe(cookie);
      const who = (await (await c.get("/console/api/session")).json()) as { accountId: string };
      expect(who.accountId).toBe(a.accountId);
    });

    it("sign-out ends the session on the server and clears the cookie; a changed password ends every session", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const c = h.client();
      await c.signIn(a.accountId);
      const old = c.cookie;
      const out = await c.post("/console/api/sign-out");
      expect(out.status).toBe(200);
      expect(out.headers.get("set-cookie")).toMatch(/^osc_session=; Path=\/console; Max-Age=0; HttpOnly; SameSite=Strict$/);
      const replay = h.client();
      replay.cookie = old;
      expect((await replay.get("/console/api/overview")).status).toBe(401);

      const d = h.client();
      await d.signIn(a.accountId);
      await h.service.store.setPasswordHash(a.accountId, "scrypt$1024$8$1$AAAA$AAAA");
      expect((await d.get("/console/api/overview")).status).toBe(401);
    });

    it("expires after an hour idle and after 12 hours in any case", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const c = h.client();
      await c.signIn(a.accountId);
      h.wall.ms += 3_600_000 - 1000;
      expect((await c.get("/console/api/session")).status).toBe(200);
      h.wall.ms += 3_600_000 - 1000;
      expect((await c.get("/console/api/session")).status).toBe(200);
      h.wall.ms += 3_600_000 + 1;
      expect((await c.get("/console/api/session")).status).toBe(401);

      const d = h.client();
      await d.signIn(a.accountId);
      for (let i = 0; i < 14; i++) {
        h.wall.ms += 3_000_000; // active every 50 minutes: never idle, 11 h 40 min in all
        expect((await d.get("/console/api/session")).status).toBe(200);
      }
      h.wall.ms += 3_000_000; // 12 h 30 min after sign-in
      expect((await d.get("/console/api/session")).status).toBe(401);
    });
  });

  describe("cookie flags", () => {
    it("over plain HTTP: HttpOnly, SameSite=Strict, Path=/console, not Secure; the id is never in a body", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const c = h.client();
      const res = await c.signIn(a.accountId);
      const set = res.headers.get("set-cookie")!;
      expect(set).toMatch(/^osc_session=[0-9A-Za-z]{43}; Path=\/console; Max-Age=43200; HttpOnly; SameSite=Strict$/);
      expect(JSON.stringify(await res.json())).not.toContain(set.split(";")[0]!.split("=")[1]!);
    });

    it("over TLS (directly or via a trusted proxy saying so): Secure with the __Host- prefix, Path=/", async () => {
      const h = await harness({ trustedProxies: ["10.0.0.2"] });
      const a = await h.newAccount();
      const tls = await h.app.fetch(
        new Request("https://console.test/console/api/sign-in", {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: "https://console.test" },
          body: JSON.stringify({ accountId: a.accountId, password: PASSWORD }),
        }),
      );
      expect(tls.headers.get("set-cookie")).toMatch(/^__Host-osc_session=[0-9A-Za-z]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/);

      const viaProxy = (ip: string) => {
        const r = new Request(`${ORIGIN}/console/api/sign-in`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: "https://console.test", "X-Forwarded-Proto": "https" },
          body: JSON.stringify({ accountId: a.accountId, password: PASSWORD }),
        });
        Object.defineProperty(r, "ip", { value: ip });
        return h.app.fetch(r);
      };
      expect((await viaProxy("10.0.0.2")).headers.get("set-cookie")).toMatch(/; Secure$/);
      // An untrusted client cannot claim TLS: no Secure cookie, and its https Origin is not this origin.
      expect((await viaProxy("203.0.113.5")).status).toBe(403);
    });
  });

  describe("isolation between accounts", () => {
    it("lists only the signed-in account's keys and apps; another account's ids answer 404 and stay live", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const b = await h.newAccount();
      const oauth = h.accounts.openOAuthStore();
      const client = await oauth.registerClient({ clientName: "B's tool", redirectUris: ["http://127.0.0.1/cb"], authMethod: "none", metadata: {} });
      const bApp = await oauth.connectApp({ accountId: b.accountId, clientId: client.clientId, resource: "http://console.test/mcp", scope: "read" });

      const c = h.client();
      await c.signIn(a.accountId);
      const keys = JSON.stringify(await (await c.get("/console/api/keys")).json());
      expect(keys).toContain(a.keyId);
      expect(keys).not.toContain(b.keyId);
      const apps = (await (await c.get("/console/api/apps")).json()) as { apps: unknown[] };
      expect(apps.apps).toEqual([]);

      const revokeB = await c.post(`/console/api/keys/${b.keyId}/revoke`);
      expect(revokeB.status).toBe(404);
      expect(await code(revokeB)).toBe("key_not_found");
      expect((await h.api("/v1/account", b.key)).status).toBe(200);
      const revokeApp = await c.post(`/console/api/apps/${bApp.appId}/revoke`);
      expect(revokeApp.status).toBe(404);
      expect((await oauth.listApps({ accountId: b.accountId }))[0]!.revokedAt).toBeNull();

      // B, signed in, sees and revokes its own app.
      const cb = h.client();
      await cb.signIn(b.accountId);
      const own = (await (await cb.get("/console/api/apps")).json()) as { apps: { appId: string }[] };
      expect(own.apps.map((x) => x.appId)).toEqual([bApp.appId]);
      expect((await cb.post(`/console/api/apps/${bApp.appId}/revoke`)).status).toBe(200);
      expect((await oauth.listApps({ accountId: b.accountId }))[0]!.revokedAt).not.toBeNull();
    });
  });

  describe("brute-force limits on sign-in", () => {
    it("locks an account after its failed attempts from any address, until the window passes", async () => {
      const h = await harness({ signInLimits: { perAccount: 3, perIp: 100, windowMs: 60_000 } });
      const a = await h.newAccount();
      for (let i = 0; i < 3; i++) {
        const res = await h.client({ ip: `203.0.113.${i}` }).signIn(a.accountId, "wrong password " + i);
        expect(res.status).toBe(401);
        expect(await code(res)).toBe("invalid_credentials");
      }
      // Even the right password, from a fresh address, is refused now.
      const locked = await h.client({ ip: "192.0.2.50" }).signIn(a.accountId);
      expect(locked.status).toBe(429);
      expect(await code(locked)).toBe("sign_in_rate_limited");
      const retryAfter = Number(locked.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      h.wall.ms += retryAfter * 1000;
      expect((await h.client({ ip: "192.0.2.50" }).signIn(a.accountId)).status).toBe(200);
    });

    it("blocks an address after its failed attempts across accounts; other addresses are unaffected", async () => {
      const h = await harness({ signInLimits: { perAccount: 100, perIp: 4, windowMs: 60_000 } });
      const a = await h.newAccount();
      const spray = h.client({ ip: "203.0.113.9" });
      for (let i = 0; i < 4; i++) expect((await spray.signIn(`acct_guess${i}`, "password guess")).status).toBe(401);
      expect((await spray.signIn(a.accountId)).status).toBe(429);
      // Guessing setup links and invite codes counts against the same address.
      expect((await spray.post("/console/api/setup", { token: "oscl_guess", password: PASSWORD }, { csrf: "" })).status).toBe(429);
      expect((await h.client({ ip: "192.0.2.1" }).signIn(a.accountId)).status).toBe(200);
    });

    it("answers an unknown account exactly like a wrong password", async () => {
      const h = await harness();
      const a = await h.newAccount();
      const wrong = await h.client().signIn(a.accountId, "not the password");
      const unknown = await h.client().signIn("acct_doesnotexist", PASSWORD);
      expect(wrong.status).toBe(unknown.status);
      expect(await wrong.json()).toEqual(await unknown.json());
    });
  });
});
