/**
 * The OAuth 2.1 state of the tool server over SQLite: registered clients (RFC 7591), connected
 * apps (one per account and client, listed and revoked with `optionscope apps`), single-use
 * authorization codes bound to a PKCE S256 challenge, and opaque access/refresh tokens bound to
 * one resource (RFC 8707). Everything is synchronous (server/sqlite.ts) and every secret is
 * stored hashed. See docs/api.md#oauth-sign-in-for-tool-clients.
 */
import { randomBytes } from "node:crypto";
import type { Sqlite } from "../sqlite";
import { OAuthError } from "./oauth-error";
import { clientOf, connectedAppOf, type AppRow, type ClientRow, type CodeRow, type TokenRow } from "./oauth-rows";
import { migrateOAuth } from "./oauth-schema";
import { registrationLimits, type RegistrationLimits } from "./registration-limits";
import { hashSecret, newSecret, pkceMatches, SECRET_PREFIX, secretMatches } from "./secrets";

/** How a client authenticates at the token and revocation endpoints. */
export type ClientAuthMethod = "none" | "client_secret_post" | "client_secret_basic";
export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = ["none", "client_secret_post", "client_secret_basic"];

/** Lifetimes, seconds. Access 1 h, refresh 30 days, code 5 min by default. */
export interface OAuthTtls {
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  codeTtlS: number;
}
export const DEFAULT_OAUTH_TTLS: OAuthTtls = Object.freeze({ accessTokenTtlS: 3600, refreshTokenTtlS: 30 * 86_400, codeTtlS: 300 });

/**
 * Whether the API key a grant was signed in with still stands: `live`; `paused` (the account is
 * suspended or blocked: refused, kept for when it is active again); `gone` (the key is revoked,
 * expired or unknown: the grant is revoked with it).
 */
export type GrantStanding = "live" | "paused" | "gone";

export interface OAuthStoreOptions extends Partial<OAuthTtls> {
  /** Wall clock, Unix ms (tests pin it to expire tokens). Default `Date.now`. */
  now?: () => number;
  /**
   * Checked when a code is exchanged and a refresh token used (access tokens are checked by the
   * tool server through `AccountAuth.principalForGrant`). Default: every grant stands.
   * A grant without a key (issued before keys were recorded) has `keyId: null`.
   */
  grantStanding?: (grant: { accountId: string; keyId: string | null }) => GrantStanding;
  /** TTL and cap of clients that never signed in (24 h, 1000 by default). */
  registration?: Partial<RegistrationLimits>;
}

/** What a registration stores; `metadata` is echoed back to the client as registered. */
interface ClientRegistration {
  clientName: string | null;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  metadata: Record<string, unknown>;
}

export interface RegisteredClient {
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  metadata: Record<string, unknown>;
  createdMs: number;
}

/** A connected app as `optionscope apps list` shows it. */
export interface ConnectedApp {
  appId: string;
  accountId: string;
  clientId: string;
  clientName: string | null;
  resource: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Live (unrevoked, unexpired) refresh tokens: 0 means the app must sign in again. */
  activeRefreshTokens: number;
}

/** What the token endpoint returns. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  expiresInS: number;
  scope: string;
}

/** A valid access token, resolved. */
export interface AccessGrant {
  appId: string;
  accountId: string;
  /** The API key that signed in; the grant stands only while it does (null: issued before keys were recorded). */
  keyId: string | null;
  clientId: string;
  resource: string;
  scope: string;
  expiresMs: number;
}

/** A value now (SQLite) or later (PostgreSQL); callers `await` it. */
type Maybe<T> = T | Promise<T>;

/**
 * The OAuth state behind the authorization server, the tool server, the console and the CLI.
 * The SQLite store answers at once, the PostgreSQL one (server/accounts/postgres/pg-oauth.ts)
 * with promises: callers `await`.
 */
export interface OAuthStore {
  readonly ttls: OAuthTtls;
  registerClient(reg: ClientRegistration): Maybe<RegisteredClient & { clientSecret: string | null }>;
  getClient(clientId: string): Maybe<RegisteredClient | null>;
  /** Check the client's credentials for its registered method; 401 `invalid_client` otherwise. */
  authenticateClient(clientId: string | null, secret: string | null, via: "post" | "basic" | "none"): Maybe<RegisteredClient>;
  /** The active app of (account, client, resource), or a new one. */
  connectApp(input: { accountId: string; clientId: string; resource: string; scope: string }): Maybe<ConnectedApp>;
  /** `keyId`: the API key the user signed in with; every token the code leads to carries it. */
  issueCode(input: { appId: string; keyId: string; clientId: string; redirectUri: string; codeChallenge: string; resource: string; scope: string }): Maybe<string>;
  exchangeCode(input: { code: string; clientId: string; redirectUri: string | null; codeVerifier: string; resource: string | null }): Maybe<TokenSet>;
  refresh(input: { refreshToken: string; clientId: string; scope: string | null; resource: string | null }): Maybe<TokenSet>;
  /** RFC 7009: revoke a token of this client (a refresh token takes the app's access tokens with it). Unknown tokens are ignored. */
  revokeToken(token: string, clientId: string): Maybe<void>;
  /** The grant of a live access token for `expectedResource`, or null (unknown, expired, revoked, other audience). */
  verifyAccessToken(token: string, expectedResource: string): Maybe<AccessGrant | null>;
  listApps(filter?: { accountId?: string }): Maybe<ConnectedApp[]>;
  /** Revoke a connected app and every token it holds; 404-style `null` when no such app. */
  revokeApp(appId: string): Maybe<{ appId: string; accountId: string; alreadyRevoked: boolean; tokensRevoked: number } | null>;
  /** Revoke every grant signed in with an API key (codes and tokens); after `key revoke`. Returns the tokens revoked. */
  revokeGrantsOfKey(keyId: string): Maybe<number>;
}

/** `OAuthStore` answering at once: the SQLite store, for its direct callers (tests, CLI). */
export type SyncOAuthStore = { readonly ttls: OAuthTtls } & {
  [K in Exclude<keyof OAuthStore, "ttls">]: OAuthStore[K] extends (...a: infer A) => infer R ? (...a: A) => Awaited<R> : never;
};

/** `last_used_ms` is written at most this often per app (a write per tool call is wasteful). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Resource identifiers compare without a fragment and without one trailing slash (RFC 8707 / SDK convention). */
export function sameResource(a: string, b: string): boolean {
  const norm = (s: string) => {
    const noHash = s.split("#")[0]!;
    return noHash.endsWith("/") ? noHash.slice(0, -1) : noHash;
  };
  return norm(a) === norm(b);
}

/**
 * The scope a refresh grants (RFC 6749 section 6): the grant's, or the asked subset of it. A
 * resource other than the grant's is `invalid_target`, a scope beyond it `invalid_scope`.
 */
export function refreshedScope(input: { scope: string | null; resource: string | null }, grant: { scope: string; resource: string }): string {
  if (input.resource !== null && !sameResource(input.resource, grant.resource)) {
    throw new OAuthError("invalid_target", "resource does not match the grant.");
  }
  if (input.scope === null) return grant.scope;
  const granted = new Set(grant.scope.split(" "));
  const asked = input.scope.split(" ").filter(Boolean);
  if (asked.some((s) => !granted.has(s))) throw new OAuthError("invalid_scope", "The requested scope exceeds the grant.");
  return asked.join(" ");
}

/**
 * Open the OAuth store on an open database (the accounts file), creating its tables if needed.
 * The app opens it through `accounts.openOAuthStore()`, on the accounts database.
 * @example const oauth = openOAuthStore(db, { now: () => Date.now() });
 */
export function openOAuthStore(db: Sqlite, options: OAuthStoreOptions = {}): SyncOAuthStore {
  migrateOAuth(db);
  const now = options.now ?? Date.now;
  const ttls: OAuthTtls = {
    accessTokenTtlS: options.accessTokenTtlS ?? DEFAULT_OAUTH_TTLS.accessTokenTtlS,
    refreshTokenTtlS: options.refreshTokenTtlS ?? DEFAULT_OAUTH_TTLS.refreshTokenTtlS,
    codeTtlS: options.codeTtlS ?? DEFAULT_OAUTH_TTLS.codeTtlS,
  };
  const registry = registrationLimits(db, options.registration);
  /** A stored client, unless it expired without ever signing in. */
  const liveClient = (clientId: string, tsMs: number): ClientRow | undefined => {
    const row = q.client.get(clientId);
    return row && !registry.isExpired(row.client_id, row.created_ms, tsMs) ? row : undefined;
  };

  const q = {
    insertClient: db.prepare(
      `INSERT INTO oauth_clients (client_id, secret_hash, auth_method, client_name, redirect_uris, metadata, created_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    client: db.prepare<[string], ClientRow>(`SELECT * FROM oauth_clients WHERE client_id = ?`),
    activeApp: db.prepare<[string, string, string], AppRow>(
      `SELECT * FROM oauth_apps WHERE account_id = ? AND client_id = ? AND resource = ? AND revoked_ms IS NULL
        ORDER BY created_ms DESC LIMIT 1`,
    ),
    app: db.prepare<[string], AppRow>(`SELECT * FROM oauth_apps WHERE app_id = ?`),
    insertApp: db.prepare(
      `INSERT INTO oauth_apps (app_id, account_id, client_id, client_name, resource, scope, created_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    touchApp: db.prepare(`UPDATE oauth_apps SET last_used_ms = ? WHERE app_id = ?`),
    revokeApp: db.prepare(`UPDATE oauth_apps SET revoked_ms = ? WHERE app_id = ? AND revoked_ms IS NULL`),
    appsAll: db.prepare<[], AppRow>(`SELECT * FROM oauth_apps ORDER BY created_ms, app_id`),
    appsOf: db.prepare<[string], AppRow>(`SELECT * FROM oauth_apps WHERE account_id = ? ORDER BY created_ms, app_id`),
    liveRefresh: db.prepare<[string, number], { n: number }>(
      `SELECT count(*) AS n FROM oauth_tokens WHERE app_id = ? AND kind = 'refresh' AND revoked_ms IS NULL AND expires_ms > ?`,
    ),
    insertCode: db.prepare(
      `INSERT INTO oauth_codes (code_hash, app_id, client_id, redirect_uri, code_challenge, resource, scope, expires_ms, key_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    code: db.prepare<[string], CodeRow>(`SELECT * FROM oauth_codes WHERE code_hash = ?`),
    useCode: db.prepare(`UPDATE oauth_codes SET used_ms = ? WHERE code_hash = ? AND used_ms IS NULL`),
    insertToken: db.prepare(
      `INSERT INTO oauth_tokens (token_hash, kind, app_id, client_id, resource, scope, created_ms, expires_ms, key_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    token: db.prepare<[string], TokenRow>(`SELECT * FROM oauth_tokens WHERE token_hash = ?`),
    revokeToken: db.prepare(`UPDATE oauth_tokens SET revoked_ms = ? WHERE token_hash = ? AND revoked_ms IS NULL`),
    revokeAppTokens: db.prepare(`UPDATE oauth_tokens SET revoked_ms = ? WHERE app_id = ? AND revoked_ms IS NULL`),
    revokeAppAccessTokens: db.prepare(`UPDATE oauth_tokens SET revoked_ms = ? WHERE app_id = ? AND kind = 'access' AND revoked_ms IS NULL`),
    revokeKeyTokens: db.prepare(`UPDATE oauth_tokens SET revoked_ms = ? WHERE key_id = ? AND revoked_ms IS NULL`),
    useKeyCodes: db.prepare(`UPDATE oauth_codes SET used_ms = ? WHERE key_id = ? AND used_ms IS NULL`),
    purgeCodes: db.prepare(`DELETE FROM oauth_codes WHERE expires_ms < ?`),
    purgeTokens: db.prepare(`DELETE FROM oauth_tokens WHERE expires_ms < ?`),
  };

  const toClient = clientOf;
  const toApp = (row: AppRow, tsMs: number): ConnectedApp => connectedAppOf(row, q.liveRefresh.get(row.app_id, tsMs)!.n);

  const standing = (accountId: string, keyId: string | null): GrantStanding => options.grantStanding?.({ accountId, keyId }) ?? "live";

  /** Revoke what a key signed in (inside a transaction). */
  function revokeKeyGrantsTx(keyId: string, tsMs: number): number {
    q.useKeyCodes.run(tsMs, keyId);
    return q.revokeKeyTokens.run(tsMs, keyId).changes;
  }

  /** Mint an access/refresh pair for an app (inside a transaction), carrying the signed-in key. */
  function issueTokensTx(app: AppRow, clientId: string, scope: string, keyId: string | null, tsMs: number): TokenSet {
    // Rows long past expiry are of no use even for audit; dropping them keeps the tables small.
    const dayMs = 86_400_000;
    q.purgeCodes.run(tsMs - dayMs);
    q.purgeTokens.run(tsMs - dayMs);
    const accessToken = newSecret(SECRET_PREFIX.accessToken);
    const refreshToken = newSecret(SECRET_PREFIX.refreshToken);
    q.insertToken.run(hashSecret(accessToken), "access", app.app_id, clientId, app.resource, scope, tsMs, tsMs + ttls.accessTokenTtlS * 1000, keyId);
    q.insertToken.run(hashSecret(refreshToken), "refresh", app.app_id, clientId, app.resource, scope, tsMs, tsMs + ttls.refreshTokenTtlS * 1000, keyId);
    return { accessToken, refreshToken, expiresInS: ttls.accessTokenTtlS, scope };
  }

  const invalidGrant = (why: string) => new OAuthError("invalid_grant", why);

  const exchangeTxn = db.transaction((input: Parameters<SyncOAuthStore["exchangeCode"]>[0], tsMs: number): TokenSet | OAuthError => {
    const codeHash = hashSecret(input.code);
    const row = q.code.get(codeHash);
    if (!row || row.client_id !== input.clientId) throw invalidGrant("The authorization code is not valid.");
    // Withdrawn with the key that signed in (`revokeGrantsOfKey` marks codes used): not a replay.
    const accountId = q.app.get(row.app_id)?.account_id;
    if (row.used_ms != null && accountId !== undefined && standing(accountId, row.key_id) === "gone") {
      throw invalidGrant("The API key used to sign in was revoked or has expired.");
    }
    if (row.used_ms != null) {
      // A code presented twice may have been intercepted: withdraw what it bought (OAuth 2.1
      // section 4.1.3). Returned, not thrown, so the revocation commits.
      q.revokeAppTokens.run(tsMs, row.app_id);
      return invalidGrant("The authorization code was already used.");
    }
    if (row.expires_ms <= tsMs) throw invalidGrant("The authorization code has expired.");
    if (input.redirectUri !== null && input.redirectUri !== row.redirect_uri) throw invalidGrant("redirect_uri does not match the authorization request.");
    if (input.resource !== null && !sameResource(input.resource, row.resource)) {
      throw new OAuthError("invalid_target", "resource does not match the authorization request.");
    }
    if (!pkceMatches(input.codeVerifier, row.code_challenge)) throw invalidGrant("code_verifier does not match the code_challenge (PKCE S256).");
    q.useCode.run(tsMs, codeHash);
    const app = q.app.get(row.app_id);
    if (!app || app.revoked_ms != null) throw invalidGrant("The connected app was revoked.");
    const stands = standing(app.account_id, row.key_id);
    // Returned, not thrown, so the code stays used.
    if (stands === "gone") return invalidGrant("The API key used to sign in was revoked or has expired.");
    if (stands === "paused") return invalidGrant("API access for this account is suspended or blocked.");
    return issueTokensTx(app, row.client_id, row.scope, row.key_id, tsMs);
  });

  const refreshTxn = db.transaction((input: Parameters<SyncOAuthStore["refresh"]>[0], tsMs: number): TokenSet | OAuthError => {
    const tokenHash = hashSecret(input.refreshToken);
    const row = q.token.get(tokenHash);
    if (row?.kind !== "refresh" || row.client_id !== input.clientId) throw invalidGrant("The refresh token is not valid.");
    if (row.revoked_ms != null) {
      // Revoked with the key that signed in: not a replay, so the app's other grants stay.
      const accountId = q.app.get(row.app_id)?.account_id;
      if (accountId !== undefined && standing(accountId, row.key_id) === "gone") {
        throw invalidGrant("The API key used to sign in was revoked or has expired.");
      }
      // A rotated refresh token used again means two parties hold it: end the whole grant
      // (returned, not thrown, so the revocation commits).
      q.revokeAppTokens.run(tsMs, row.app_id);
      return invalidGrant("The refresh token was revoked.");
    }
    if (row.expires_ms <= tsMs) throw invalidGrant("The refresh token has expired.");
    const app = q.app.get(row.app_id);
    if (!app || app.revoked_ms != null) throw invalidGrant("The connected app was revoked.");
    const stands = standing(app.account_id, row.key_id);
    if (stands === "gone") {
      // The key that signed in is gone: so is everything it signed in (returned, so it commits).
      if (row.key_id !== null) revokeKeyGrantsTx(row.key_id, tsMs);
      q.revokeToken.run(tsMs, tokenHash);
      return invalidGrant("The API key used to sign in was revoked or has expired.");
    }
    // Suspension is reversible: refuse, and keep the grant for when the account is active again.
    if (stands === "paused") throw invalidGrant("API access for this account is suspended or blocked.");
    const scope = refreshedScope(input, row);
    q.revokeToken.run(tsMs, tokenHash);
    return issueTokensTx(app, row.client_id, scope, row.key_id, tsMs);
  });

  const store: SyncOAuthStore = {
    ttls,

    registerClient(reg) {
      const clientId = newSecret(SECRET_PREFIX.clientId, 16);
      const clientSecret = reg.authMethod === "none" ? null : newSecret(SECRET_PREFIX.clientSecret);
      const tsMs = now();
      db.transaction(() => {
        registry.makeRoom(tsMs);
        q.insertClient.run(
          clientId,
          clientSecret ? hashSecret(clientSecret) : null,
          reg.authMethod,
          reg.clientName,
          JSON.stringify(reg.redirectUris),
          JSON.stringify(reg.metadata),
          tsMs,
        );
      }).immediate();
      return { clientId, clientSecret, clientName: reg.clientName, redirectUris: reg.redirectUris, authMethod: reg.authMethod, metadata: reg.metadata, createdMs: tsMs };
    },

    getClient(clientId) {
      const row = liveClient(clientId, now());
      return row ? toClient(row) : null;
    },

    authenticateClient(clientId, secret, via) {
      const row = clientId ? liveClient(clientId, now()) : undefined;
      if (!row) throw new OAuthError("invalid_client", "Unknown client_id.", 401);
      if (row.auth_method === "none") {
        // A public client proves nothing here; PKCE and the bound redirect URI protect its codes.
        return toClient(row);
      }
      const expected = row.auth_method === "client_secret_basic" ? "basic" : "post";
      if (via !== expected || secret === null || !secretMatches(secret, row.secret_hash)) {
        throw new OAuthError("invalid_client", `Client authentication failed (registered method ${row.auth_method}).`, 401);
      }
      return toClient(row);
    },

    connectApp(input) {
      const tsMs = now();
      return db
        .transaction(() => {
          const existing = q.activeApp.get(input.accountId, input.clientId, input.resource);
          if (existing) return toApp(existing, tsMs);
          const client = q.client.get(input.clientId);
          const appId = SECRET_PREFIX.app + randomBytes(9).toString("base64url").replace(/[-_]/g, "0");
          q.insertApp.run(appId, input.accountId, input.clientId, client?.client_name ?? null, input.resource, input.scope, tsMs);
          return toApp(q.app.get(appId)!, tsMs);
        })
        .immediate();
    },

    issueCode(input) {
      const code = newSecret(SECRET_PREFIX.code);
      q.insertCode.run(
        hashSecret(code),
        input.appId,
        input.clientId,
        input.redirectUri,
        input.codeChallenge,
        input.resource,
        input.scope,
        now() + ttls.codeTtlS * 1000,
        input.keyId,
      );
      return code;
    },

    exchangeCode(input) {
      const r = exchangeTxn.immediate(input, now());
      if (r instanceof OAuthError) throw r;
      return r;
    },

    refresh(input) {
      const r = refreshTxn.immediate(input, now());
      if (r instanceof OAuthError) throw r;
      return r;
    },

    revokeToken(token, clientId) {
      const tsMs = now();
      db.transaction(() => {
        const tokenHash = hashSecret(token);
        const row = q.token.get(tokenHash);
        // RFC 7009 section 2.2: an unknown token, or another client's, is answered 200 all the same.
        if (!row || row.client_id !== clientId) return;
        q.revokeToken.run(tsMs, tokenHash);
        if (row.kind === "refresh") q.revokeAppAccessTokens.run(tsMs, row.app_id);
      }).immediate();
    },

    verifyAccessToken(token, expectedResource) {
      if (!token.startsWith(SECRET_PREFIX.accessToken)) return null;
      const tsMs = now();
      const row = q.token.get(hashSecret(token));
      if (row?.kind !== "access" || row.revoked_ms != null || row.expires_ms <= tsMs) return null;
      if (!sameResource(row.resource, expectedResource)) return null;
      const app = q.app.get(row.app_id);
      if (!app || app.revoked_ms != null) return null;
      if (app.last_used_ms == null || tsMs - app.last_used_ms >= LAST_USED_RESOLUTION_MS) {
        try {
          q.touchApp.run(tsMs, app.app_id);
        } catch {
          // Bookkeeping only: a busy store must not refuse a valid token.
        }
      }
      return {
        appId: app.app_id,
        accountId: app.account_id,
        keyId: row.key_id,
        clientId: row.client_id,
        resource: row.resource,
        scope: row.scope,
        expiresMs: row.expires_ms,
      };
    },

    listApps(filter = {}) {
      const tsMs = now();
      const rows = filter.accountId ? q.appsOf.all(filter.accountId) : q.appsAll.all();
      return rows.map((r) => toApp(r, tsMs));
    },

    revokeApp(appId) {
      const tsMs = now();
      return db
        .transaction(() => {
          const app = q.app.get(appId.trim());
          if (!app) return null;
          const changed = q.revokeApp.run(tsMs, app.app_id).changes;
          const tokensRevoked = q.revokeAppTokens.run(tsMs, app.app_id).changes;
          return { appId: app.app_id, accountId: app.account_id, alreadyRevoked: changed === 0, tokensRevoked };
        })
        .immediate();
    },

    revokeGrantsOfKey(keyId) {
      const tsMs = now();
      return db.transaction(() => revokeKeyGrantsTx(keyId, tsMs)).immediate();
    },
  };
  return store;
}
