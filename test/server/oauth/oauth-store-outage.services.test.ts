// The OAuth endpoints when their store fails under them. The SQLite OAuth store has no guard of its
// own: with its database closed, registration, the token endpoint and revocation answer 503
// `temporarily_unavailable` with Retry-After (OAuth error body), not 500 `server_error`; so do they
// on a stopped PostgreSQL. The sign-in form says the store could not be reached (503), not that
// the key is invalid (401). And
// `oauthErrorResponse` keeps the headers an OAuth error carries (Retry-After of a 503 or a 429).
import { createHash } from "node:crypto";
import { openSqlite } from "../../../server/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountStore } from "../../../server/accounts";
import { STORE_RETRY_AFTER_S } from "../../../server/errors";
import { OAuthError, oauthErrorResponse, storeUnavailableOAuth } from "../../../server/oauth/oauth-error";
import { openOAuthStore } from "../../../server/oauth/oauth-store";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";
import { startMcpHarness, type McpHarness } from "../mcp/_mcp-harness";

const REDIRECT = "http://127.0.0.1:9/callback";

const register = (h: { origin: string }) =>
  fetch(`${h.origin}/mcp/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "Outage Client", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
  });

const form = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

async function expectTemporarilyUnavailable(res: Response, what: string): Promise<void> {
  const body = (await res.json()) as { error?: string; error_description?: string };
  expect([res.status, body.error], what).toEqual([503, "temporarily_unavailable"]);
  expect(res.headers.get("retry-after"), what).toBe(String(STORE_RETRY_AFTER_S));
  expect(res.headers.get("cache-control"), what).toBe("no-store");
  expect(body.error_description, what).not.toMatch(/database|sqlite|not open/i);
}

describe("OAuth endpoints on a closed SQLite store", () => {
  let h: McpHarness;
  let clientId: string;
  beforeAll(async () => {
    h = await startMcpHarness();
    const reg = await register(h); // opens the OAuth store while the database is open
    expect(reg.status).toBe(201);
    clientId = ((await reg.json()) as { client_id: string }).client_id;
    h.accounts.close();
  });
  afterAll(() => h.close());

  it("register, token (code and refresh grants) and revoke: 503 temporarily_unavailable with Retry-After", async () => {
    await expectTemporarilyUnavailable(await register(h), "register");
    const token = `${h.origin}/mcp/oauth/token`;
    await expectTemporarilyUnavailable(
      await form(token, { grant_type: "authorization_code", code: "oc_x", client_id: clientId, redirect_uri: REDIRECT, code_verifier: "v".repeat(43) }),
      "token (code)",
    );
    await expectTemporarilyUnavailable(await form(token, { grant_type: "refresh_token", refresh_token: "ort_x", client_id: clientId }), "token (refresh)");
    await expectTemporarilyUnavailable(await form(`${h.origin}/mcp/oauth/revoke`, { token: "ort_x", client_id: clientId }), "revoke");
  });

  it("a request refused before the store is read keeps its own answer (no client: 401 invalid_client)", async () => {
    const res = await form(`${h.origin}/mcp/oauth/token`, { grant_type: "password" });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([401, "invalid_client"]);
  });
});

describe("the sign-in form while the accounts store is down (the OAuth store up)", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness({ toolServer: { oauth: openOAuthStore(openSqlite(":memory:")) } });
  });
  afterAll(() => h.close());

  it("answers 503 with Retry-After and says the store could not be reached, not that the key is invalid", async () => {
    const reg = await register(h);
    expect(reg.status).toBe(201);
    const params = {
      response_type: "code",
      client_id: ((await reg.json()) as { client_id: string }).client_id,
      redirect_uri: REDIRECT,
      code_challenge: createHash("sha256").update("v".repeat(43)).digest("base64url"),
      code_challenge_method: "S256",
      state: "s",
      resource: h.mcpUrl,
    };
    const page = await fetch(`${h.origin}/mcp/oauth/authorize?${new URLSearchParams(params)}`);
    expect(page.status).toBe(200);
    h.accounts.close();
    const res = await form(`${h.origin}/mcp/oauth/authorize`, { ...params, api_key: h.key });
    const html = await res.text();
    expect([res.status, res.headers.get("retry-after")]).toEqual([503, String(STORE_RETRY_AFTER_S)]);
    expect(html).toContain("could not be reached");
    expect(html).not.toMatch(/not valid/);
    expect(html).toContain('name="api_key"'); // the form again, to retry
  });
});

describe("OAuth endpoints on a stopped PostgreSQL", () => {
  let pg: PostgresProcess;
  let h: McpHarness<AccountStore>;
  beforeAll(async () => {
    pg = await startPostgres();
    h = await startMcpHarness({ storeUrl: pg.url });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await pg?.stop();
  });

  it("register, token and the sign-in form: 503 with Retry-After while it is down, served again once it is back", async () => {
    const reg = await register(h);
    expect(reg.status).toBe(201);
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const params = {
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: createHash("sha256").update("v".repeat(43)).digest("base64url"),
      code_challenge_method: "S256",
      state: "s",
      resource: h.mcpUrl,
    };
    await pg.pause();
    try {
      await expectTemporarilyUnavailable(await register(h), "register");
      await expectTemporarilyUnavailable(
        await form(`${h.origin}/mcp/oauth/token`, { grant_type: "refresh_token", refresh_token: "ort_x", client_id: clientId }),
        "token",
      );
      const signIn = await form(`${h.origin}/mcp/oauth/authorize`, { ...params, api_key: h.key });
      expect([signIn.status, signIn.headers.get("retry-after")]).toEqual([503, String(STORE_RETRY_AFTER_S)]);
    } finally {
      await pg.start();
    }
    expect((await register(h)).status).toBe(201);
  }, 60_000);
});

describe("oauthErrorResponse", () => {
  it("sends the error's own headers, and an explicit header of the same name wins", async () => {
    const limited = new OAuthError("temporarily_unavailable", "Too many registrations.", 429, { "Retry-After": "17" });
    const res = oauthErrorResponse(limited);
    expect([res.status, res.headers.get("retry-after")]).toEqual([429, "17"]);
    expect(await res.json()).toEqual({ error: "temporarily_unavailable", error_description: "Too many registrations." });

    const outage = oauthErrorResponse(storeUnavailableOAuth(), { "WWW-Authenticate": 'Basic realm="x"' });
    expect([outage.status, outage.headers.get("retry-after"), outage.headers.get("www-authenticate")]).toEqual([503, String(STORE_RETRY_AFTER_S), 'Basic realm="x"']);

    const overridden = oauthErrorResponse(limited, { "Retry-After": "3" });
    expect(overridden.headers.get("retry-after")).toBe("3");
  });
});
