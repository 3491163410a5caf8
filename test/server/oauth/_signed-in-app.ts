// A connected OAuth app whose user signed in with an API key: one authorization code (PKCE)
// exchanged for one access and one refresh token. For tests of what revoking that key's grants does.
import { createHash } from "node:crypto";
import type { OAuthStore } from "../../../server/oauth/oauth-store";

const REDIRECT = "https://c.example/cb";

/** Connects an app for `accountId` in `oauth`, signed in with `keyId`; returns the app id. */
export async function signedInApp(oauth: OAuthStore, o: { accountId: string; keyId: string; resource: string }): Promise<string> {
  const client = await oauth.registerClient({ clientName: "t", redirectUris: [REDIRECT], authMethod: "none", metadata: {} });
  const app = await oauth.connectApp({ accountId: o.accountId, clientId: client.clientId, resource: o.resource, scope: "mcp" });
  const verifier = "v".repeat(43);
  const code = await oauth.issueCode({
    appId: app.appId,
    keyId: o.keyId,
    clientId: client.clientId,
    redirectUri: REDIRECT,
    codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
    resource: o.resource,
    scope: "mcp",
  });
  await oauth.exchangeCode({ code, clientId: client.clientId, redirectUri: REDIRECT, codeVerifier: verifier, resource: o.resource });
  return app.appId;
}
