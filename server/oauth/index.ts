// Authorization server (endpoints and metadata)
export {
  authorizationServerMetadata,
  createAuthorizationServer,
  MCP_PATH,
  OAUTH_BASE_PATH,
  oauthUrls,
  protectedResourceMetadata,
  REGISTRATIONS_PER_MINUTE,
  SCOPES_SUPPORTED,
  type AuthorizationServer,
  type AuthorizationServerOptions,
  type OAuthUrls,
} from "./authorization-server";
// Store (clients, connected apps, codes, tokens)
export {
  CLIENT_AUTH_METHODS,
  DEFAULT_OAUTH_TTLS,
  openOAuthStore,
  sameResource,
  type AccessGrant,
  type ClientAuthMethod,
  type ClientRegistration,
  type ConnectedApp,
  type OAuthStore,
  type OAuthStoreOptions,
  type OAuthTtls,
  type RegisteredClient,
  type TokenSet,
} from "./oauth-store";
export { migrateOAuth } from "./oauth-schema";
export { DEFAULT_REGISTRATION_LIMITS, registrationLimits, type RegistrationLimits } from "./registration-limits";
// Errors and secrets
export { isOAuthError, jsonResponse, OAuthError, oauthErrorResponse, type OAuthErrorCode } from "./oauth-error";
export { hashSecret, newSecret, pkceMatches, s256Challenge, SECRET_PREFIX } from "./secrets";
