/**
 * `OAuthStore` over PostgreSQL (migration 004): the rules of the SQLite store
 * (server/oauth/oauth-store.ts) on tables every instance shares. A code is exchanged once and a
 * refresh token rotated once across instances: each is read `FOR UPDATE` inside the transaction
 * that spends it, so a second instance waits and then sees it used (and treats it as a replay).
 * Driver failures become 503 `temporarily_unavailable`. See docs/operations.md#console-on-postgresql.
 */
import { randomBytes } from "node:crypto";
import { isApiError } from "../../errors";
import { DEFAULT_STORE_TIMEOUT_MS, withDeadline } from "../../store-deadline";
import { OAuthError, isOAuthError, storeUnavailableOAuth } from "../../oauth/oauth-error";
import { clientOf, connectedAppOf, type AppRow, type ClientRow, type CodeRow, type TokenRow } from "../../oauth/oauth-rows";
import {
  DEFAULT_OAUTH_TTLS,
  LAST_USED_RESOLUTION_MS,
  refreshedScope,
  sameResource,
  type AccessGrant,
  type ConnectedApp,
  type GrantStanding,
  type OAuthStore,
  type OAuthTtls,
  type TokenSet,
} from "../../oauth/oauth-store";
import { DEFAULT_REGISTRATION_LIMITS, type RegistrationLimits } from "../../oauth/registration-limits";
import { hashSecret, newSecret, pkceMatches, SECRET_PREFIX, secretMatches } from "../../oauth/secrets";
import type { Sql } from "./pg-connection";

export interface PgOAuthOptions extends Partial<OAuthTtls> {
  now?: () => number;
  /** How a grant stands against the key that signed it in (the accounts service's `principalForGrant`). */
  grantStanding?: (grant: { accountId: string; keyId: string | null }) => Promise<GrantStanding>;
  registration?: Partial<RegistrationLimits>;
  /** The deadline of one store call, ms (default DEFAULT_STORE_TIMEOUT_MS; docs/operations.md#store-deadline). */
  timeoutMs?: number;
}

const UNUSED = "NOT EXISTS (SELECT 1 FROM oauth_apps a WHERE a.client_id = oauth_clients.client_id)";
const invalidGrant = (why: string) => new OAuthError("invalid_grant", why);

/**
 * Run a store call; anything but an OAuth or API error, or no answer within `timeoutMs`, means the
 * store could not be used.
 */
async function guardedWithin<T>(timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await withDeadline(fn(), timeoutMs);
  } catch (error) {
    if (isOAuthError(error) || isApiError(error)) throw error;
    throw storeUnavailableOAuth();
  }
}

/** Commit the transaction, then throw an error it returned (its revocations stand). */
const settle = <T>(r: T | OAuthError): T => {
  if (r instanceof OAuthError) throw r;
  return r;
};

/**
 * The OAuth store of a PostgreSQL accounts service (every answer a promise).
 * @example const oauth = createPgOAuthStore(sql, { grantStanding }); await oauth.registerClient(reg);
 */
export function createPgOAuthStore(sql: Sql, options: PgOAuthOptions = {}): OAuthStore {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  const guarded = <T>(fn: () => Promise<T>) => guardedWithin(timeoutMs, fn);
  const ttls: OAuthTtls = {
    accessTokenTtlS: options.accessTokenTtlS ?? DEFAULT_OAUTH_TTLS.accessTokenTtlS,
    refreshTokenTtlS: options.refreshTokenTtlS ?? DEFAULT_OAUTH_TTLS.refreshTokenTtlS,
    codeTtlS: options.codeTtlS ?? DEFAULT_OAUTH_TTLS.codeTtlS,
  };
  const limits: RegistrationLimits = { ...DEFAULT_REGISTRATION_LIMITS, ...options.registration };
  const unusedTtlMs = limits.unusedClientTtlS * 1000;
  const batch = Math.max(1, Math.min(50, Math.floor(limits.maxUnusedClients / 10)));
  let sincePrune = Infinity;
  const standing = async (accountId: string, keyId: string | null): Promise<GrantStanding> => (await options.grantStanding?.({ accountId, keyId })) ?? "live";

  const toClient = clientOf;

  async function toApps(tx: Sql, rows: AppRow[], tsMs: number): Promise<ConnectedApp[]> {
    if (rows.length === 0) return [];
    const counts = await tx<{ app_id: string; n: number }[]>`
      SELECT app_id, count(*)::bigint AS n FROM oauth_tokens
       WHERE app_id = ANY(${rows.map((r) => r.app_id)}::text[]) AND kind = 'refresh' AND revoked_ms IS NULL AND expires_ms > ${tsMs}
       GROUP BY app_id`;
    const live = new Map(counts.map((c) => [c.app_id, c.n]));
    return rows.map((row) => connectedAppOf(row, live.get(row.app_id) ?? 0));
  }

  /** A stored client, unless it expired without ever signing in. */
  async function liveClient(clientId: string, tsMs: number): Promise<ClientRow | undefined> {
    const [row] = await sql<(ClientRow & { used: boolean })[]>`
      SELECT *, EXISTS (SELECT 1 FROM oauth_apps a WHERE a.client_id = oauth_clients.client_id) AS used
        FROM oauth_clients WHERE client_id = ${clientId}`;
    if (!row) return undefined;
    return row.created_ms <= tsMs - unusedTtlMs && !row.used ? undefined : row;
  }

  const revokeKeyGrantsTx = async (tx: Sql, keyId: string, tsMs: number): Promise<number> => {
    await tx`UPDATE oauth_codes SET used_ms = ${tsMs} WHERE key_id = ${keyId} AND used_ms IS NULL`;
    return (await tx`UPDATE oauth_tokens SET revoked_ms = ${tsMs} WHERE key_id = ${keyId} AND revoked_ms IS NULL`).count;
  };
  const revokeAppTokensTx = async (tx: Sql, appId: string, tsMs: number): Promise<number> =>
    (await tx`UPDATE oauth_tokens SET revoked_ms = ${tsMs} WHERE app_id = ${appId} AND revoked_ms IS NULL`).count;
  const appOf = async (tx: Sql, appId: string): Promise<AppRow | undefined> => (await tx<AppRow[]>`SELECT * FROM oauth_apps WHERE app_id = ${appId}`)[0];

  async function issueTokensTx(tx: Sql, app: AppRow, clientId: string, scope: string, keyId: string | null, tsMs: number): Promise<TokenSet> {
    // Rows long past expiry are of no use even for audit; dropping them keeps the tables small.
    const dayAgo = tsMs - 86_400_000;
    await tx`DELETE FROM oauth_codes WHERE expires_ms < ${dayAgo}`;
    await tx`DELETE FROM oauth_tokens WHERE expires_ms < ${dayAgo}`;
    const accessToken = newSecret(SECRET_PREFIX.accessToken);
    const refreshToken = newSecret(SECRET_PREFIX.refreshToken);
    await tx`INSERT INTO oauth_tokens (token_hash, kind, app_id, client_id, resource, scope, created_ms, expires_ms, key_id) VALUES
      (${hashSecret(accessToken)}, 'access', ${app.app_id}, ${clientId}, ${app.resource}, ${scope}, ${tsMs}, ${tsMs + ttls.accessTokenTtlS * 1000}, ${keyId}),
      (${hashSecret(refreshToken)}, 'refresh', ${app.app_id}, ${clientId}, ${app.resource}, ${scope}, ${tsMs}, ${tsMs + ttls.refreshTokenTtlS * 1000}, ${keyId})`;
    return { accessToken, refreshToken, expiresInS: ttls.accessTokenTtlS, scope };
  }

  const begin = <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => sql.begin((t) => fn(t as unknown as Sql)) as Promise<T>;

  return {
    ttls,

    registerClient: (reg) =>
      guarded(async () => {
        const clientId = newSecret(SECRET_PREFIX.clientId, 16);
        const clientSecret = reg.authMethod === "none" ? null : newSecret(SECRET_PREFIX.clientSecret);
        const tsMs = now();
        await begin(async (tx) => {
          // Registration bounds as in server/oauth/registration-limits.ts.
          await tx.unsafe(`DELETE FROM oauth_clients WHERE created_ms <= $1 AND ${UNUSED}`, [tsMs - unusedTtlMs]);
          if (++sincePrune >= batch) {
            sincePrune = 0;
            const [{ n }] = await tx.unsafe<{ n: number }[]>(`SELECT count(*)::bigint AS n FROM oauth_clients WHERE ${UNUSED}`);
            const over = n - (limits.maxUnusedClients - batch);
            if (over > 0) {
              await tx.unsafe(
                `DELETE FROM oauth_clients WHERE client_id IN (SELECT client_id FROM oauth_clients WHERE ${UNUSED} ORDER BY created_ms, client_id LIMIT $1)`,
                [over],
              );
            }
          }
          await tx`INSERT INTO oauth_clients (client_id, secret_hash, auth_method, client_name, redirect_uris, metadata, created_ms)
                   VALUES (${clientId}, ${clientSecret ? hashSecret(clientSecret) : null}, ${reg.authMethod}, ${reg.clientName},
                           ${JSON.stringify(reg.redirectUris)}, ${JSON.stringify(reg.metadata)}, ${tsMs})`;
        });
        return {
          clientId,
          clientSecret,
          clientName: reg.clientName,
          redirectUris: reg.redirectUris,
          authMethod: reg.authMethod,
          metadata: reg.metadata,
          createdMs: tsMs,
        };
      }),

    getClient: (clientId) =>
      guarded(async () => {
        const row = await liveClient(clientId, now());
        return row ? toClient(row) : null;
      }),

    authenticateClient: (clientId, secret, via) =>
      guarded(async () => {
        const row = clientId ? await liveClient(clientId, now()) : undefined;
        if (!row) throw new OAuthError("invalid_client", "Unknown client_id.", 401);
        // A public client proves nothing here; PKCE and the bound redirect URI protect its codes.
        if (row.auth_method === "none") return toClient(row);
        const expected = row.auth_method === "client_secret_basic" ? "basic" : "post";
        if (via !== expected || secret === null || !secretMatches(secret, row.secret_hash)) {
          throw new OAuthError("invalid_client", `Client authentication failed (registered method ${row.auth_method}).`, 401);
        }
        return toClient(row);
      }),

    connectApp: (input) =>
      guarded(async () => {
        const tsMs = now();
        return begin(async (tx) => {
          // One app per (account, client, resource) even when two instances connect at once.
          await tx`SELECT pg_advisory_xact_lock(hashtext(${`${input.accountId}|${input.clientId}|${input.resource}`}))`;
          const [existing] = await tx<AppRow[]>`
            SELECT * FROM oauth_apps WHERE account_id = ${input.accountId} AND client_id = ${input.clientId} AND resource = ${input.resource}
               AND revoked_ms IS NULL ORDER BY created_ms DESC LIMIT 1`;
          if (existing) return (await toApps(tx, [existing], tsMs))[0]!;
          const [client] = await tx<{ client_name: string | null }[]>`SELECT client_name FROM oauth_clients WHERE client_id = ${input.clientId}`;
          const appId = SECRET_PREFIX.app + randomBytes(9).toString("base64url").replace(/[-_]/g, "0");
          const [app] = await tx<AppRow[]>`
            INSERT INTO oauth_apps (app_id, account_id, client_id, client_name, resource, scope, created_ms)
            VALUES (${appId}, ${input.accountId}, ${input.clientId}, ${client?.client_name ?? null}, ${input.resource}, ${input.scope}, ${tsMs}) RETURNING *`;
          return (await toApps(tx, [app!], tsMs))[0]!;
        });
      }),

    issueCode: (input) =>
      guarded(async () => {
        const code = newSecret(SECRET_PREFIX.code);
        await sql`INSERT INTO oauth_codes (code_hash, app_id, client_id, redirect_uri, code_challenge, resource, scope, expires_ms, key_id)
                  VALUES (${hashSecret(code)}, ${input.appId}, ${input.clientId}, ${input.redirectUri}, ${input.codeChallenge},
                          ${input.resource}, ${input.scope}, ${now() + ttls.codeTtlS * 1000}, ${input.keyId})`;
        return code;
      }),

    exchangeCode: (input) =>
      guarded(async () => {
        const tsMs = now();
        const r = await begin(async (tx): Promise<TokenSet | OAuthError> => {
          const codeHash = hashSecret(input.code);
          const [row] = await tx<CodeRow[]>`SELECT * FROM oauth_codes WHERE code_hash = ${codeHash} FOR UPDATE`;
          if (!row || row.client_id !== input.clientId) throw invalidGrant("The authorization code is not valid.");
          const owner = (await appOf(tx, row.app_id))?.account_id;
          if (row.used_ms != null && owner !== undefined && (await standing(owner, row.key_id)) === "gone") {
            throw invalidGrant("The API key used to sign in was revoked or has expired.");
          }
          if (row.used_ms != null) {
            // A code presented twice may have been intercepted: withdraw what it bought (OAuth 2.1 section 4.1.3).
            await revokeAppTokensTx(tx, row.app_id, tsMs);
            return invalidGrant("The authorization code was already used.");
          }
          if (row.expires_ms <= tsMs) throw invalidGrant("The authorization code has expired.");
          if (input.redirectUri !== null && input.redirectUri !== row.redirect_uri) throw invalidGrant("redirect_uri does not match the authorization request.");
          if (input.resource !== null && !sameResource(input.resource, row.resource)) {
            throw new OAuthError("invalid_target", "resource does not match the authorization request.");
          }
          if (!pkceMatches(input.codeVerifier, row.code_challenge)) throw invalidGrant("code_verifier does not match the code_challenge (PKCE S256).");
          await tx`UPDATE oauth_codes SET used_ms = ${tsMs} WHERE code_hash = ${codeHash}`;
          const app = await appOf(tx, row.app_id);
          if (!app || app.revoked_ms != null) throw invalidGrant("The connected app was revoked.");
          const stands = await standing(app.account_id, row.key_id);
          // Returned, not thrown, so the code stays used.
          if (stands === "gone") return invalidGrant("The API key used to sign in was revoked or has expired.");
          if (stands === "paused") return invalidGrant("API access for this account is suspended or blocked.");
          return issueTokensTx(tx, app, row.client_id, row.scope, row.key_id, tsMs);
        });
        return settle(r);
      }),

    refresh: (input) =>
      guarded(async () => {
        const tsMs = now();
        const r = await begin(async (tx): Promise<TokenSet | OAuthError> => {
          const tokenHash = hashSecret(input.refreshToken);
          const [row] = await tx<TokenRow[]>`SELECT * FROM oauth_tokens WHERE token_hash = ${tokenHash} FOR UPDATE`;
          if (row?.kind !== "refresh" || row.client_id !== input.clientId) throw invalidGrant("The refresh token is not valid.");
          if (row.revoked_ms != null) {
            const owner = (await appOf(tx, row.app_id))?.account_id;
            if (owner !== undefined && (await standing(owner, row.key_id)) === "gone") {
              throw invalidGrant("The API key used to sign in was revoked or has expired.");
            }
            // A rotated refresh token used again means two parties hold it: end the whole grant.
            await revokeAppTokensTx(tx, row.app_id, tsMs);
            return invalidGrant("The refresh token was revoked.");
          }
          if (row.expires_ms <= tsMs) throw invalidGrant("The refresh token has expired.");
          const app = await appOf(tx, row.app_id);
          if (!app || app.revoked_ms != null) throw invalidGrant("The connected app was revoked.");
          const stands = await standing(app.account_id, row.key_id);
          if (stands === "gone") {
            if (row.key_id !== null) await revokeKeyGrantsTx(tx, row.key_id, tsMs);
            await tx`UPDATE oauth_tokens SET revoked_ms = ${tsMs} WHERE token_hash = ${tokenHash} AND revoked_ms IS NULL`;
            return invalidGrant("The API key used to sign in was revoked or has expired.");
          }
          // Suspension is reversible: refuse, and keep the grant for when the account is active again.
          if (stands === "paused") throw invalidGrant("API access for this account is suspended or blocked.");
          const scope = refreshedScope(input, row);
          await tx`UPDATE oauth_tokens SET revoked_ms = ${tsMs} WHERE token_hash = ${tokenHash}`;
          return issueTokensTx(tx, app, row.client_id, scope, row.key_id, tsMs);
        });
        return settle(r);
      }),

    revokeToken: (token, clientId) =>
      guarded(async () => {
        const tsMs = now();
        await begin(async (tx) => {
          const tokenHash = hashSecret(token);
          const [row] = await tx<TokenRow[]>`SELECT * FROM oauth_tokens WHERE token_hash = ${tokenHash}`;
          // RFC 7009 section 2.2: an unknown token, or another client's, is answered 200 all the same.
          if (!row || row.client_id !== clientId) return;
          await tx`UPDATE oauth_tokens SET revoked_ms = ${tsMs} WHERE token_hash = ${tokenHash} AND revoked_ms IS NULL`;
          if (row.kind === "refresh") {
            await tx`UPDATE oauth_tokens SET revoked_ms = ${tsMs} WHERE app_id = ${row.app_id} AND kind = 'access' AND revoked_ms IS NULL`;
          }
        });
      }),

    verifyAccessToken: (token, expectedResource) =>
      guarded(async (): Promise<AccessGrant | null> => {
        if (!token.startsWith(SECRET_PREFIX.accessToken)) return null;
        const tsMs = now();
        const [row] = await sql<(TokenRow & { account_id: string; app_revoked_ms: number | null; last_used_ms: number | null })[]>`
          SELECT t.*, a.account_id, a.revoked_ms AS app_revoked_ms, a.last_used_ms
            FROM oauth_tokens t JOIN oauth_apps a ON a.app_id = t.app_id WHERE t.token_hash = ${hashSecret(token)}`;
        if (row?.kind !== "access" || row.revoked_ms != null || row.expires_ms <= tsMs) return null;
        if (!sameResource(row.resource, expectedResource) || row.app_revoked_ms != null) return null;
        if (row.last_used_ms == null || tsMs - row.last_used_ms >= LAST_USED_RESOLUTION_MS) {
          // Bookkeeping only: a busy store must not refuse a valid token.
          sql`UPDATE oauth_apps SET last_used_ms = greatest(coalesce(last_used_ms, 0), ${tsMs}) WHERE app_id = ${row.app_id}`.then(
            () => {},
            () => {},
          );
        }
        return {
          appId: row.app_id,
          accountId: row.account_id,
          keyId: row.key_id,
          clientId: row.client_id,
          resource: row.resource,
          scope: row.scope,
          expiresMs: row.expires_ms,
        };
      }),

    listApps: (filter = {}) =>
      guarded(async () => {
        const tsMs = now();
        const rows = filter.accountId
          ? await sql<AppRow[]>`SELECT * FROM oauth_apps WHERE account_id = ${filter.accountId} ORDER BY created_ms, app_id`
          : await sql<AppRow[]>`SELECT * FROM oauth_apps ORDER BY created_ms, app_id`;
        return toApps(sql, rows, tsMs);
      }),

    revokeApp: (appId) =>
      guarded(async () => {
        const tsMs = now();
        return begin(async (tx) => {
          const app = await appOf(tx, appId.trim());
          if (!app) return null;
          const changed = (await tx`UPDATE oauth_apps SET revoked_ms = ${tsMs} WHERE app_id = ${app.app_id} AND revoked_ms IS NULL`).count;
          const tokensRevoked = await revokeAppTokensTx(tx, app.app_id, tsMs);
          return { appId: app.app_id, accountId: app.account_id, alreadyRevoked: changed === 0, tokensRevoked };
        });
      }),

    revokeGrantsOfKey: (keyId) => guarded(() => begin((tx) => revokeKeyGrantsTx(tx, keyId, now()))),
  };
}
