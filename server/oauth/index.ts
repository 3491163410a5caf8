// Store (clients, connected apps, codes, tokens)
export { openOAuthStore, sameResource } from "./oauth-store";
// Errors and secrets
export { pkceMatches, s256Challenge } from "./secrets";
