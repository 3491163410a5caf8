// The OAuth store on its own: PKCE against the RFC 7636 test vector, single-use and expiring
// codes on a pinned clock, hashed secrets, audience binding, and grants tied to the signing key.
import { describe, expect, it } from "vitest";
import { openSqlite } from "../../../server/sqlite";
import { openOAuthStore, pkceMatches, s256Challenge, sameResource } from "../../../server/oauth";

const RESOURCE = "http://localhost:8080/mcp";

function setup(ttls: { codeTtlS?: number; accessTokenTtlS?: number } = {}) {
  const db = openSqlite(":memory:");
  const clock = { ms: Date.parse("2025-01-02T03:04:05Z") };
  const store = openOAuthStore(db, { now: () => clock.ms, ...ttls });
  const client = store.registerClient({ clientName: "t", redirectUris: ["https://c.example/cb"], authMethod: "none", metadata: {} });
  const app = store.connectApp({ accountId: "acct_1", clientId: client.clientId, resource: RESOURCE, scope: "mcp" });
  return { db, clock, store, client, app };
}

describe("PKCE S256 (RFC 7636)", () => {
  it("matches the Appendix B example: verifier dBjf...EjXk -> challenge E9Me...w-cM", () => {
    expect(s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    expect(pkceMatches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(true);
  });

  it("refuses verifiers outside the RFC grammar (43-128 unreserved characters) even if they hash right", () => {
    const short = "abc";
    expect(pkceMatches(short, s256Challenge(short))).toBe(false);
    const bad = "a".repeat(42) + "!";
    expect(pkceMatches(bad, s256Challenge(bad))).toBe(false);
  });
});

describe("codes and tokens", () => {
  const verifier = "v".repeat(50);

  it("a code expires after codeTtlS on the store's clock", () => {
    const { store, clock, client, app } = setup({ codeTtlS: 60 });
    const code = store.issueCode({
      appId: app.appId,
      keyId: "key_1",
      clientId: client.clientId,
      redirectUri: "https://c.example/cb",
      codeChallenge: s256Challenge(verifier),
      resource: RESOURCE,
      scope: "mcp",
    });
    clock.ms += 60_000;
    expect(() => store.exchangeCode({ code, clientId: client.clientId, redirectUri: "https://c.example/cb", codeVerifier: verifier, resource: null })).toThrow(/expired/);
  });

  it("binds a code to its client and redirect URI", () => {
    const { store, client, app } = setup();
    const code = store.issueCode({
      appId: app.appId,
      keyId: "key_1",
      clientId: client.clientId,
      redirectUri: "https://c.example/cb",
      codeChallenge: s256Challenge(verifier),
      resource: RESOURCE,
      scope: "mcp",
    });
    expect(() => store.exchangeCode({ code, clientId: "oscl_other", redirectUri: null, codeVerifier: verifier, resource: null })).toThrow(/not valid/);
    expect(() => store.exchangeCode({ code, clientId: client.clientId, redirectUri: "https://c.example/other", codeVerifier: verifier, resource: null })).toThrow(
      /redirect_uri/,
    );
    const set = store.exchangeCode({ code, clientId: client.clientId, redirectUri: "https://c.example/cb", codeVerifier: verifier, resource: RESOURCE + "/" });
    expect(set.expiresInS).toBe(3600);
  });

  it("an access token lives accessTokenTtlS, for its resource only, and is stored hashed", () => {
    const { store, clock, client, app, db } = setup({ accessTokenTtlS: 120 });
    const code = store.issueCode({
      appId: app.appId,
      keyId: "key_1",
      clientId: client.clientId,
      redirectUri: "https://c.example/cb",
      codeChallenge: s256Challenge(verifier),
      resource: RESOURCE,
      scope: "mcp",
    });
    const set = store.exchangeCode({ code, clientId: client.clientId, redirectUri: null, codeVerifier: verifier, resource: null });
    expect(store.verifyAccessToken(set.accessToken, RESOURCE)).toMatchObject({ accountId: "acct_1", appId: app.appId });
    expect(store.verifyAccessToken(set.accessToken, "https://other.example/mcp")).toBeNull();
    expect(JSON.stringify(db.prepare("SELECT * FROM oauth_tokens").all())).not.toContain(set.accessToken);
    clock.ms += 119_000;
    expect(store.verifyAccessToken(set.accessToken, RESOURCE)).not.toBeNull();
    clock.ms += 1_000;
    expect(store.verifyAccessToken(set.accessToken, RESOURCE)).toBeNull();
  });

  it("compares resources ignoring one trailing slash and a fragment, nothing else", () => {
    expect(sameResource("https://a.example/mcp", "https://a.example/mcp/")).toBe(true);
    expect(sameResource("https://a.example/mcp#x", "https://a.example/mcp")).toBe(true);
    expect(sameResource("https://a.example/mcp", "https://a.example/mcp2")).toBe(false);
    expect(sameResource("http://a.example/mcp", "https://a.example/mcp")).toBe(false);
  });

  it("reuses the active app of an account and client; a revoked app is replaced by a new one", () => {
    const { store, client, app } = setup();
    expect(store.connectApp({ accountId: "acct_1", clientId: client.clientId, resource: RESOURCE, scope: "mcp" }).appId).toBe(app.appId);
    expect(store.revokeApp(app.appId)).toMatchObject({ alreadyRevoked: false });
    expect(store.revokeApp(app.appId)).toMatchObject({ alreadyRevoked: true });
    expect(store.connectApp({ accountId: "acct_1", clientId: client.clientId, resource: RESOURCE, scope: "mcp" }).appId).not.toBe(app.appId);
    expect(store.listApps({ accountId: "acct_1" })).toHaveLength(2);
  });
});

describe("grants carry the API key that signed in (issue 13 item 6)", () => {
  const verifier = "w".repeat(50);

  function signedIn(standing: Map<string, "live" | "paused" | "gone">, trace?: (sql: string) => void) {
    const db = openSqlite(":memory:", trace ? { trace } : {});
    const store = openOAuthStore(db, { grantStanding: ({ keyId }) => (keyId === null ? "gone" : (standing.get(keyId) ?? "live")) });
    const client = store.registerClient({ clientName: "t", redirectUris: ["https://c.example/cb"], authMethod: "none", metadata: {} });
    const app = store.connectApp({ accountId: "acct_1", clientId: client.clientId, resource: RESOURCE, scope: "mcp" });
    const tokens = (keyId: string) => {
      const code = store.issueCode({
        appId: app.appId,
        keyId,
        clientId: client.clientId,
        redirectUri: "https://c.example/cb",
        codeChallenge: s256Challenge(verifier),
        resource: RESOURCE,
        scope: "mcp",
      });
      return store.exchangeCode({ code, clientId: client.clientId, redirectUri: null, codeVerifier: verifier, resource: null });
    };
    const refresh = (refreshToken: string) => store.refresh({ refreshToken, clientId: client.clientId, scope: null, resource: null });
    return { db, store, client, tokens, refresh };
  }

  it("the key id rides through code, access and every rotated refresh token", () => {
    const { store, tokens, refresh } = signedIn(new Map());
    const first = tokens("key_a");
    expect(store.verifyAccessToken(first.accessToken, RESOURCE)?.keyId).toBe("key_a");
    const next = refresh(first.refreshToken);
    expect(store.verifyAccessToken(next.accessToken, RESOURCE)?.keyId).toBe("key_a");
  });

  it("a gone key: refresh refused and its grants revoked; another key's grant on the same app untouched", () => {
    const standing = new Map<string, "live" | "paused" | "gone">();
    const { store, tokens, refresh } = signedIn(standing);
    const a = tokens("key_a");
    const b = tokens("key_b");
    standing.set("key_a", "gone");
    expect(() => refresh(a.refreshToken)).toThrow(/revoked or has expired/);
    expect(store.verifyAccessToken(a.accessToken, RESOURCE)).toBeNull(); // revoked as a side effect
    expect(() => refresh(a.refreshToken)).toThrow(/revoked or has expired/); // and no replay alarm
    expect(store.verifyAccessToken(b.accessToken, RESOURCE)).not.toBeNull();
    expect(() => refresh(b.refreshToken)).not.toThrow();
  });

  it("a paused account: refresh refused, nothing revoked, works again when live", () => {
    const standing = new Map<string, "live" | "paused" | "gone">();
    const { store, tokens, refresh } = signedIn(standing);
    const a = tokens("key_a");
    standing.set("key_a", "paused");
    expect(() => refresh(a.refreshToken)).toThrow(/suspended or blocked/);
    expect(store.verifyAccessToken(a.accessToken, RESOURCE)).not.toBeNull();
    standing.set("key_a", "live");
    expect(() => refresh(a.refreshToken)).not.toThrow();
  });

  it("revokeGrantsOfKey ends the key's tokens and pending codes, and no grant statement scans a table", () => {
    const traced: string[] = [];
    const standing = new Map<string, "live" | "paused" | "gone">();
    const { db, store, client, tokens, refresh } = signedIn(standing, (sql) => traced.push(sql));
    const a = tokens("key_a");
    const pending = store.issueCode({
      appId: store.listApps()[0]!.appId,
      keyId: "key_a",
      clientId: client.clientId,
      redirectUri: "https://c.example/cb",
      codeChallenge: s256Challenge(verifier),
      resource: RESOURCE,
      scope: "mcp",
    });
    refresh(tokens("key_b").refreshToken);
    expect(store.revokeGrantsOfKey("key_a")).toBe(2);
    expect(store.verifyAccessToken(a.accessToken, RESOURCE)).toBeNull();
    standing.set("key_a", "gone");
    expect(() => store.exchangeCode({ code: pending, clientId: client.clientId, redirectUri: null, codeVerifier: verifier, resource: null })).toThrow(
      /revoked or has expired/,
    );
    const scans = traced
      .filter((sql) => /^\s*(SELECT|INSERT|UPDATE|DELETE)\b/i.test(sql) && /oauth_(codes|tokens)/.test(sql))
      .flatMap((sql) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => `${r.detail}  <-  ${sql}`))
      .filter((d) => /^SCAN oauth_(codes|tokens)\b/.test(d));
    expect(scans).toEqual([]);
  });
});
