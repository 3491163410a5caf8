// OAuth sign-in for tool clients, end to end over HTTP: discovery (RFC 9728, RFC 8414), dynamic
// registration (RFC 7591), authorization code + PKCE S256 through the sign-in form, token
// exchange, a tool call charged to the account, rotating refresh, revocation (RFC 7009), and the
// refusals (expired, other audience, revoked) as 401 invalid_token; on both accounts stores
// (SQLite and PostgreSQL), the CLI included.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { accountsDbPath, isSqliteStore, type AccountStore } from "../../../server/accounts";
import { runAccountsCli } from "../../../server/cli/accounts-cli";
import { runAppsCli } from "../../../server/cli/apps-cli";
import { CONSOLE_STORES, usePostgres, type ConsoleStoreKind } from "../console/_stores";
import { startMcpHarness as startOn, rawRpc, type McpHarness as HarnessOn, type McpHarnessOptions } from "../mcp/_mcp-harness";

type McpHarness = HarnessOn<AccountStore>;
const storeUrl = usePostgres();

const REDIRECT = "http://127.0.0.1:9/callback";
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

/** RFC 7636 S256, computed here independently of the server's helper. */
const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

async function form(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

/** Register a public client, sign in through the form with `key`, return the code exchange result. */
async function signIn(h: McpHarness, key = h.key, extra: Record<string, string> = {}) {
  const reg = await fetch(`${h.origin}/mcp/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "Test Client", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
  });
  expect(reg.status).toBe(201);
  const client = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const params = {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: challengeOf(verifier),
    code_challenge_method: "S256",
    state: "st4te",
    resource: h.mcpUrl,
    ...extra,
  };
  const page = await fetch(`${h.origin}/mcp/oauth/authorize?${new URLSearchParams(params)}`, { redirect: "manual" });
  // A request that is wrong past the client check goes straight back to the client.
  if (page.status === 302) return { client, verifier, submitted: page, params };
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('name="api_key"');
  const submitted = await form(`${h.origin}/mcp/oauth/authorize`, { ...params, api_key: key });
  return { client, verifier, submitted, params };
}

async function exchange(h: McpHarness, clientId: string, code: string, verifier: string) {
  const res = await form(`${h.origin}/mcp/oauth/token`, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
    resource: h.mcpUrl,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

async function tokensFor(h: McpHarness) {
  const { client, verifier, submitted } = await signIn(h);
  expect(submitted.status).toBe(302);
  const location = new URL(submitted.headers.get("location")!);
  const t = await exchange(h, client.client_id, location.searchParams.get("code")!, verifier);
  expect(t.status).toBe(200);
  return { clientId: client.client_id, access: t.body.access_token as string, refresh: t.body.refresh_token as string };
}

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

/** Every row of the OAuth token and code tables, as text, whichever store holds them. */
async function storedGrantRows(accounts: AccountStore): Promise<string> {
  if (isSqliteStore(accounts)) {
    return JSON.stringify(accounts.db.prepare("SELECT * FROM oauth_tokens").all()) + JSON.stringify(accounts.db.prepare("SELECT * FROM oauth_codes").all());
  }
  return JSON.stringify(await accounts.sql`SELECT * FROM oauth_tokens`) + JSON.stringify(await accounts.sql`SELECT * FROM oauth_codes`);
}

describe.each(CONSOLE_STORES)("OAuth on %s", (kind: ConsoleStoreKind) => {
  const startMcpHarness = (o: McpHarnessOptions = {}) => startOn({ ...o, storeUrl: storeUrl(kind) });
  /** Where a CLI finds this store: the SQLite file's data directory, or the PostgreSQL URL. */
  const storeArgs = (dir: string) => (kind === "postgres" ? ["--store", storeUrl(kind)!] : ["--data-dir", dir]);

  describe("discovery", () => {
    let h: McpHarness;
    beforeAll(async () => {
      h = await startMcpHarness();
    });
    afterAll(() => h.close());

    it("serves authorization-server metadata: code + PKCE S256 only, refresh, registration, revocation", async () => {
      const meta = (await (await fetch(`${h.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, any>;
      expect(meta.issuer).toBe(h.origin);
      expect(meta.code_challenge_methods_supported).toEqual(["S256"]);
      expect(meta.response_types_supported).toEqual(["code"]);
      expect(meta.grant_types_supported).toEqual(["authorization_code", "refresh_token"]);
      for (const k of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint"]) {
        expect(meta[k]).toMatch(new RegExp(`^${h.origin}/mcp/oauth/`));
      }
    });
  });

  describe("sign-in with the SDK's own OAuth client", () => {
    let h: McpHarness;
    beforeAll(async () => {
      h = await startMcpHarness({ credits: 300 });
    });
    afterAll(() => h.close());

    it("discovers, registers, authorizes with PKCE through the form, exchanges, and calls a tool charged to the account", async () => {
      const store: { client?: any; tokens?: any; verifier?: string; redirectedTo?: URL } = {};
      const provider: OAuthClientProvider = {
        get redirectUrl() {
          return REDIRECT;
        },
        get clientMetadata() {
          return {
            client_name: "SDK test client",
            redirect_uris: [REDIRECT],
            token_endpoint_auth_method: "none",
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
          };
        },
        clientInformation: () => store.client,
        saveClientInformation: (c) => {
          store.client = c;
        },
        tokens: () => store.tokens,
        saveTokens: (t) => {
          store.tokens = t;
        },
        redirectToAuthorization: (url) => {
          store.redirectedTo = url;
        },
        saveCodeVerifier: (v) => {
          store.verifier = v;
        },
        codeVerifier: () => store.verifier!,
      };
      expect(await auth(provider, { serverUrl: h.mcpUrl })).toBe("REDIRECT");
      const authorizeUrl = store.redirectedTo!;
      expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorizeUrl.searchParams.get("resource")).toBe(h.mcpUrl);
      // The person at the browser submits the form with an API key of the account.
      const submitted = await form(`${h.origin}/mcp/oauth/authorize`, { ...Object.fromEntries(authorizeUrl.searchParams), api_key: h.key });
      expect(submitted.status).toBe(302);
      const back = new URL(submitted.headers.get("location")!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get("state")).toBe(authorizeUrl.searchParams.get("state"));
      expect(back.searchParams.get("iss")).toBe(h.origin);
      expect(await auth(provider, { serverUrl: h.mcpUrl, authorizationCode: back.searchParams.get("code")!, iss: back.searchParams.get("iss")! })).toBe("AUTHORIZED");
      expect(store.tokens.token_type).toBe("Bearer");
      expect(store.tokens.expires_in).toBe(3600);

      const client = await h.connect(bearer(store.tokens.access_token));
      const before = await h.accounts.balance(h.accountId);
      const r = await client.callTool({ name: "heat_heatmap", arguments: { symbols: "SPY" } });
      expect(r.isError).toBeFalsy();
      expect(await h.accounts.balance(h.accountId)).toBe(before - 1);
      expect(r._meta?.creditsRemaining).toBe(before - 1);
      expect((await h.accounts.ledger(h.accountId, { limit: 1 }))[0]).toMatchObject({ kind: "debit", delta: -1, route: "/v1/heatmap" });
    });
  });

  describe("tokens: refresh, revoke, expiry, audience", () => {
    let h: McpHarness;
    beforeAll(async () => {
      h = await startMcpHarness();
    });
    afterAll(() => h.close());

    it("rotates refresh tokens; a reused refresh token ends the grant", async () => {
      const t = await tokensFor(h);
      const r1 = await form(`${h.origin}/mcp/oauth/token`, { grant_type: "refresh_token", refresh_token: t.refresh, client_id: t.clientId });
      expect(r1.status).toBe(200);
      const next = (await r1.json()) as { access_token: string; refresh_token: string };
      expect(next.refresh_token).not.toBe(t.refresh);
      expect((await rawRpc(h.mcpUrl, LIST, bearer(next.access_token))).status).toBe(200);
      const replay = await form(`${h.origin}/mcp/oauth/token`, { grant_type: "refresh_token", refresh_token: t.refresh, client_id: t.clientId });
      expect(replay.status).toBe(400);
      expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
      // The replay withdrew everything the grant held, the rotated tokens included.
      expect((await rawRpc(h.mcpUrl, LIST, bearer(next.access_token))).status).toBe(401);
      const again = await form(`${h.origin}/mcp/oauth/token`, { grant_type: "refresh_token", refresh_token: next.refresh_token, client_id: t.clientId });
      expect(again.status).toBe(400);
    });

    it("revocation (RFC 7009) answers 200 and the token is refused with 401 invalid_token", async () => {
      const t = await tokensFor(h);
      expect((await rawRpc(h.mcpUrl, LIST, bearer(t.access))).status).toBe(200);
      const rv = await form(`${h.origin}/mcp/oauth/revoke`, { token: t.access, client_id: t.clientId });
      expect(rv.status).toBe(200);
      const refused = await rawRpc(h.mcpUrl, LIST, bearer(t.access));
      expect(refused.status).toBe(401);
      expect(refused.json.error).toBe("invalid_token");
      expect(refused.headers.get("www-authenticate")).toMatch(/error="invalid_token".*resource_metadata="/);
      // Unknown tokens are also answered 200 (RFC 7009 section 2.2).
      expect((await form(`${h.origin}/mcp/oauth/revoke`, { token: "osat_nothing", client_id: t.clientId })).status).toBe(200);
    });

    it("refuses an expired access token (pinned clock moved past 1 h) while its refresh token still works", async () => {
      const t = await tokensFor(h);
      h.wall.ms += 3600 * 1000 + 1000;
      try {
        expect((await rawRpc(h.mcpUrl, LIST, bearer(t.access))).status).toBe(401);
        const r = await form(`${h.origin}/mcp/oauth/token`, { grant_type: "refresh_token", refresh_token: t.refresh, client_id: t.clientId });
        expect(r.status).toBe(200);
        const fresh = (await r.json()) as { access_token: string };
        expect((await rawRpc(h.mcpUrl, LIST, bearer(fresh.access_token))).status).toBe(200);
      } finally {
        h.wall.ms -= 3600 * 1000 + 1000;
      }
    });

    it("refuses a token presented to another resource (audience), and will not issue for one", async () => {
      const t = await tokensFor(h);
      const otherResource = `http://localhost:${h.listening.port}/mcp`;
      const refused = await rawRpc(otherResource, LIST, bearer(t.access));
      expect(refused.status).toBe(401);
      expect(refused.json.error).toBe("invalid_token");
      const { submitted } = await signIn(h, h.key, { resource: "https://elsewhere.example/mcp" });
      const back = new URL(submitted.headers.get("location")!);
      expect(back.searchParams.get("error")).toBe("invalid_target");
      expect(back.searchParams.get("code")).toBeNull();
    });

    it("never stores a token or code in the clear", async () => {
      const t = await tokensFor(h);
      const dump = await storedGrantRows(h.accounts);
      expect(dump).not.toContain(t.access);
      expect(dump).not.toContain(t.refresh);
      expect(dump).toContain(createHash("sha256").update(t.access).digest("hex"));
    });
  });

  describe("authorization request checks", () => {
    let h: McpHarness;
    beforeAll(async () => {
      h = await startMcpHarness();
    });
    afterAll(() => h.close());

    it("requires PKCE S256: no challenge or plain is an error sent back to the client", async () => {
      for (const extra of [{ code_challenge: "" }, { code_challenge_method: "plain" }] as Record<string, string>[]) {
        const { submitted } = await signIn(h, h.key, extra);
        expect(submitted.status).toBe(302);
        const back = new URL(submitted.headers.get("location")!);
        expect(back.searchParams.get("error")).toBe("invalid_request");
        expect(back.searchParams.get("state")).toBe("st4te");
      }
    });

    it("rejects a wrong code_verifier and a second use of a code (invalid_grant)", async () => {
      const { client, verifier, submitted } = await signIn(h);
      const code = new URL(submitted.headers.get("location")!).searchParams.get("code")!;
      const wrong = await exchange(h, client.client_id, code, randomBytes(32).toString("base64url"));
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe("invalid_grant");
      const ok = await exchange(h, client.client_id, code, verifier);
      expect(ok.status).toBe(200);
      const reused = await exchange(h, client.client_id, code, verifier);
      expect(reused.body.error).toBe("invalid_grant");
      expect((await rawRpc(h.mcpUrl, LIST, bearer(ok.body.access_token))).status).toBe(401);
    });

    it("shows the form again for a bad key, issuing nothing", async () => {
      const { submitted } = await signIn(h, "osk_live_notakey0000000000000000000000000000000");
      expect(submitted.status).toBe(401);
      expect(submitted.headers.get("location")).toBeNull();
      expect(await submitted.text()).toContain("not valid");
    });

    it("never redirects to an unregistered redirect_uri, and registration refuses unsafe ones", async () => {
      const reg = (await (
        await fetch(`${h.origin}/mcp/oauth/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
        })
      ).json()) as { client_id: string };
      const res = await fetch(
        `${h.origin}/mcp/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: "https://attacker.example/cb", code_challenge: challengeOf("x".repeat(43)), code_challenge_method: "S256" })}`,
        { redirect: "manual" },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      for (const uri of ["javascript:alert(1)", "http://example.com/cb", "https://ok.example/cb#frag"]) {
        const r = await fetch(`${h.origin}/mcp/oauth/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ redirect_uris: [uri] }),
        });
        expect(r.status).toBe(400);
        expect(((await r.json()) as { error: string }).error).toBe("invalid_redirect_uri");
      }
    });

    it("authenticates confidential clients at the token endpoint (client_secret_basic)", async () => {
      const reg = (await (
        await fetch(`${h.origin}/mcp/oauth/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ redirect_uris: [REDIRECT] }),
        })
      ).json()) as { client_id: string; client_secret: string; token_endpoint_auth_method: string };
      expect(reg.token_endpoint_auth_method).toBe("client_secret_basic");
      const verifier = randomBytes(32).toString("base64url");
      const params = { response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: challengeOf(verifier), code_challenge_method: "S256" };
      const submitted = await form(`${h.origin}/mcp/oauth/authorize`, { ...params, api_key: h.key });
      const code = new URL(submitted.headers.get("location")!).searchParams.get("code")!;
      const body = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
      const basic = (secret: string) => ({ Authorization: `Basic ${Buffer.from(`${reg.client_id}:${secret}`).toString("base64")}` });
      const bad = await form(`${h.origin}/mcp/oauth/token`, body, basic("wrong"));
      expect(bad.status).toBe(401);
      expect(((await bad.json()) as { error: string }).error).toBe("invalid_client");
      const good = await form(`${h.origin}/mcp/oauth/token`, body, basic(reg.client_secret));
      expect(good.status).toBe(200);
    });
  });

  describe("connected apps: optionscope apps list|revoke", () => {
    let dir: string;
    let h: McpHarness;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "optionscope-apps-"));
      // Real wall time: the CLI reads the same store with its own (real) clock.
      h = await startMcpHarness({ dbPath: accountsDbPath(dir), wallMs: Date.now() });
    });
    afterAll(async () => {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const cli = async (args: string[]) => {
      let out = "";
      let err = "";
      const code = await runAppsCli(
        ["apps", ...args, ...storeArgs(dir)],
        {},
        {
          stdout: (t) => {
            out += t;
          },
          stderr: (t) => {
            err += t;
          },
        },
      );
      return { code, out, err };
    };

    it("lists the app a sign-in created, and revoking it refuses its tokens at once", async () => {
      const t = await tokensFor(h);
      const listed = await cli(["list", "--account", h.accountId, "--json"]);
      expect(listed.code).toBe(0);
      const apps = (JSON.parse(listed.out) as { apps: { appId: string; accountId: string; clientName: string; state: string }[] }).apps;
      expect(apps).toHaveLength(1);
      expect(apps[0]).toMatchObject({ accountId: h.accountId, clientName: "Test Client", state: "active" });
      expect((await rawRpc(h.mcpUrl, LIST, bearer(t.access))).status).toBe(200);

      const revoked = await cli(["revoke", apps[0]!.appId]);
      expect(revoked.code).toBe(0);
      expect((await rawRpc(h.mcpUrl, LIST, bearer(t.access))).status).toBe(401);
      const r = await form(`${h.origin}/mcp/oauth/token`, { grant_type: "refresh_token", refresh_token: t.refresh, client_id: t.clientId });
      expect(((await r.json()) as { error: string }).error).toBe("invalid_grant");
      // The unfiltered listing too (PostgreSQL's tests share one database: find this app by id).
      const all = JSON.parse((await cli(["list", "--json"])).out).apps as { appId: string; state: string }[];
      expect(all.find((a) => a.appId === apps[0]!.appId)?.state).toBe("revoked");
      expect((await cli(["revoke", "app_nosuchapp"])).code).toBe(1);
      expect((await cli(["frobnicate"])).code).toBe(2);
    });
  });

  describe("grants end with the key that signed in (issue 13 item 6)", () => {
    let dir: string;
    let h: McpHarness;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "optionscope-grant-keys-"));
      // Real wall time: the CLI reads the same store with its own (real) clock.
      h = await startMcpHarness({ dbPath: accountsDbPath(dir), wallMs: Date.now(), credits: 500 });
    });
    afterAll(async () => {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const keyCli = async (args: string[]) => {
      let out = "";
      const code = await runAccountsCli(
        ["key", ...args, ...storeArgs(dir), "--json"],
        {},
        {
          stdout: (t) => {
            out += t;
          },
          stderr: () => {},
        },
      );
      return { code, json: out ? (JSON.parse(out) as Record<string, unknown>) : null };
    };
    const call = (access: string) =>
      rawRpc(h.mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "heat_heatmap", arguments: { symbols: "SPY" } } }), bearer(access));
    const refresh = (t: { refresh: string; clientId: string }) =>
      form(`${h.origin}/mcp/oauth/token`, { grant_type: "refresh_token", refresh_token: t.refresh, client_id: t.clientId });

    /** Sign in with `key` and exchange the code for tokens. */
    async function tokensWith(key: string) {
      const { client, verifier, submitted } = await signIn(h, key);
      expect(submitted.status).toBe(302);
      const t = await exchange(h, client.client_id, new URL(submitted.headers.get("location")!).searchParams.get("code")!, verifier);
      expect(t.status).toBe(200);
      return { clientId: client.client_id, access: t.body.access_token as string, refresh: t.body.refresh_token as string };
    }

    it("`key revoke` ends the access token (401 invalid_token, nothing charged) and the refresh token (invalid_grant)", async () => {
      const second = await h.accounts.createKey(h.accountId);
      const t = await tokensWith(second.key);
      const other = await tokensWith(h.key);
      const before = await h.accounts.balance(h.accountId);
      const ok = await call(t.access);
      expect(ok.status).toBe(200);
      expect(ok.json.result.isError).toBeFalsy();
      expect(await h.accounts.balance(h.accountId)).toBe(before - 1);

      const pending = await signIn(h, second.key); // a code not yet exchanged when the key goes
      const revoked = await keyCli(["revoke", second.keyId]);
      expect(revoked.code).toBe(0);
      expect(revoked.json).toMatchObject({ keyId: second.keyId, alreadyRevoked: false });
      expect(revoked.json!.oauthTokensRevoked).toBeGreaterThanOrEqual(2);

      const refused = await call(t.access);
      expect(refused.status).toBe(401);
      expect(refused.json.error).toBe("invalid_token");
      expect(refused.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
      expect(await h.accounts.balance(h.accountId)).toBe(before - 1);
      const r = await refresh(t);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe("invalid_grant");

      const code = new URL(pending.submitted.headers.get("location")!).searchParams.get("code")!;
      const late = await exchange(h, pending.client.client_id, code, pending.verifier);
      expect(late.status).toBe(400);
      expect(late.body.error).toBe("invalid_grant");
      expect(late.body.error_description).toMatch(/revoked/);

      // A grant signed in with another key of the same account is untouched.
      expect((await call(other.access)).status).toBe(200);
      expect((await refresh(other)).status).toBe(200);
    });

    it("a key revoked behind the OAuth store's back (any admin path) ends its grants all the same", async () => {
      const second = await h.accounts.createKey(h.accountId);
      const t = await tokensWith(second.key);
      expect((await call(t.access)).status).toBe(200);
      await h.accounts.revokeKey(second.key); // the service alone: no OAuth bookkeeping at all
      const before = await h.accounts.balance(h.accountId);
      expect((await call(t.access)).status).toBe(401);
      expect(await h.accounts.balance(h.accountId)).toBe(before);
      const r = await refresh(t);
      expect(((await r.json()) as { error: string }).error).toBe("invalid_grant");
      // The refusal revoked what the key signed in, so a retry is refused the same way.
      expect(((await (await refresh(t)).json()) as { error: string }).error).toBe("invalid_grant");
    });

    it("an expired key ends its grants; a code issued before the key was revoked cannot be exchanged", async () => {
      const expiring = await h.accounts.createKey(h.accountId, { expiresAtMs: h.wall.ms + 60_000 });
      const t = await tokensWith(expiring.key);
      expect((await call(t.access)).status).toBe(200);
      h.wall.ms += 61_000;
      try {
        expect((await call(t.access)).status).toBe(401);
        expect(((await (await refresh(t)).json()) as { error: string }).error).toBe("invalid_grant");
      } finally {
        h.wall.ms -= 61_000;
      }

      const third = await h.accounts.createKey(h.accountId);
      const { client, verifier, submitted } = await signIn(h, third.key);
      const code = new URL(submitted.headers.get("location")!).searchParams.get("code")!;
      await h.accounts.revokeKey(third.keyId);
      const x = await exchange(h, client.client_id, code, verifier);
      expect(x.status).toBe(400);
      expect(x.body.error).toBe("invalid_grant");
    });

    it("a suspended account's tokens stop (403 account_suspended, refresh refused) and work again once it is active", async () => {
      const acct = await h.accounts.createAccount({ plan: "top", credits: 100 });
      const t = await tokensWith(acct.key);
      expect((await call(t.access)).status).toBe(200);
      await h.accounts.updateAccount(acct.accountId, { status: "suspended" });
      const balance = await h.accounts.balance(acct.accountId);
      const refused = await call(t.access);
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe("account_suspended");
      expect(await h.accounts.balance(acct.accountId)).toBe(balance);
      expect(((await (await refresh(t)).json()) as { error: string }).error).toBe("invalid_grant");
      await h.accounts.updateAccount(acct.accountId, { status: "blocked" });
      expect((await call(t.access)).json.error.code).toBe("account_blocked");
      // Suspension is reversible: the grant was kept, so the same tokens work again.
      await h.accounts.updateAccount(acct.accountId, { status: "active" });
      expect((await call(t.access)).status).toBe(200);
      expect((await refresh(t)).status).toBe(200);
    });
  });
});
