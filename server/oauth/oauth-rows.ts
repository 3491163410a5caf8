// The OAuth tables' rows as both stores read them (SQLite: server/oauth/oauth-schema.ts;
// PostgreSQL: migration 004, the same columns), and the records the `OAuthStore` answers with.
import type { ClientAuthMethod, ConnectedApp, RegisteredClient } from "./oauth-store";

export interface ClientRow {
  client_id: string;
  secret_hash: string | null;
  auth_method: ClientAuthMethod;
  client_name: string | null;
  redirect_uris: string;
  metadata: string;
  created_ms: number;
}

export interface AppRow {
  app_id: string;
  account_id: string;
  client_id: string;
  client_name: string | null;
  resource: string;
  scope: string;
  created_ms: number;
  last_used_ms: number | null;
  revoked_ms: number | null;
}

export interface TokenRow {
  token_hash: string;
  kind: "access" | "refresh";
  app_id: string;
  client_id: string;
  resource: string;
  scope: string;
  expires_ms: number;
  revoked_ms: number | null;
  key_id: string | null;
}

export interface CodeRow {
  code_hash: string;
  app_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  expires_ms: number;
  used_ms: number | null;
  key_id: string | null;
}

const isoOrNull = (ms: number | null): string | null => (ms == null ? null : new Date(ms).toISOString());

export const clientOf = (row: ClientRow): RegisteredClient => ({
  clientId: row.client_id,
  clientName: row.client_name,
  redirectUris: JSON.parse(row.redirect_uris) as string[],
  authMethod: row.auth_method,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  createdMs: row.created_ms,
});

/** A connected app with its count of live refresh tokens (each store counts them its own way). */
export const connectedAppOf = (row: AppRow, activeRefreshTokens: number): ConnectedApp => ({
  appId: row.app_id,
  accountId: row.account_id,
  clientId: row.client_id,
  clientName: row.client_name,
  resource: row.resource,
  scope: row.scope,
  createdAt: isoOrNull(row.created_ms)!,
  lastUsedAt: isoOrNull(row.last_used_ms),
  revokedAt: isoOrNull(row.revoked_ms),
  activeRefreshTokens,
});
