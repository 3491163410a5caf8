/**
 * Who is calling the tool endpoint: an API key (the same one REST takes) or an OAuth access token
 * issued by this server for this resource. Without credentials the answer is the spec's 401 with
 * an OAuth body and a `WWW-Authenticate` challenge naming the protected-resource metadata
 * (RFC 9728 section 5.1). See docs/api.md#mcp-tool-server.
 */
import { keyFromAuthorization } from "../accounts/keys";
import type { AccountAuth, AccountService, Principal } from "../accounts/types";
import { ApiError, isApiError } from "../errors";
import { jsonResponse } from "../oauth/oauth-error";
import type { AccessGrant, OAuthStore } from "../oauth/oauth-store";
import { SECRET_PREFIX } from "../oauth/secrets";

/** A resolved caller, or the response that refuses the request. */
export type ToolCaller =
  | { ok: true; principal: Principal; via: "api_key" | "oauth"; grant: AccessGrant | null }
  | { ok: false; status: number; body: Record<string, unknown>; headers: Record<string, string> };

/** The RFC 6750 / RFC 9728 challenge; `error` only when a token was sent and refused. */
function bearerChallenge(resourceMetadataUrl: string, error?: { code: string; description: string }): string {
  const q = (s: string) => s.replace(/["\\]/g, "");
  const parts = [`resource_metadata="${q(resourceMetadataUrl)}"`];
  if (error) parts.unshift(`error="${q(error.code)}"`, `error_description="${q(error.description)}"`);
  return `Bearer ${parts.join(", ")}`;
}

/**
 * The principal of an OAuth grant: the account's current plan, limits and status (a suspended
 * account's tokens stop working at once), while the API key that signed in stands (a revoked or
 * expired key ends its grants: null, so the token is refused). `keyId` is the connected app's
 * id, so the app has its own rate-limit bucket, as a key would.
 * @throws ApiError 403 `account_suspended` / `account_blocked`, 503 `credit_check_failed`
 */
async function principalForGrant(accounts: AccountAuth, grant: AccessGrant): Promise<Principal | null> {
  if (grant.keyId === null) return null; // issued before keys were recorded: sign in again
  try {
    return await accounts.principalForGrant({ accountId: grant.accountId, keyId: grant.keyId, bucketId: grant.appId });
  } catch (error) {
    if (isApiError(error) && error.code === "forbidden") return null;
    if (isApiError(error)) throw error;
    throw new ApiError(503, "credit_check_failed", "The account could not be read; nothing was charged. Retry shortly.", {
      headers: { "Retry-After": "1" },
    });
  }
}

/**
 * Resolve the caller of one MCP HTTP request. API-key failures keep their REST codes and
 * statuses (403 `forbidden`, `account_suspended`, ...); a refused OAuth token is 401
 * `invalid_token` with a challenge, so the client signs in again.
 */
export async function resolveToolCaller(
  request: Request,
  ctx: { accounts: AccountService; oauth: OAuthStore | null; resource: string; resourceMetadataUrl: string },
): Promise<ToolCaller> {
  const header = request.headers.get("authorization");
  const credential = keyFromAuthorization(header);
  if (credential === null) {
    return {
      ok: false,
      status: 401,
      body: {
        error: "unauthorized",
        error_description: "Missing Authorization header: send `Authorization: Bearer <API_KEY>`, or sign in with OAuth (see the resource metadata in WWW-Authenticate).",
      },
      headers: { "WWW-Authenticate": bearerChallenge(ctx.resourceMetadataUrl) },
    };
  }
  const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}): ToolCaller => ({
    ok: false,
    status,
    body: { error: { code, message } },
    headers,
  });
  try {
    if (credential.startsWith(SECRET_PREFIX.accessToken)) {
      const grant = (await ctx.oauth?.verifyAccessToken(credential, ctx.resource)) ?? null;
      const principal = grant ? await principalForGrant(ctx.accounts, grant) : null;
      if (!grant || !principal) {
        const description = "The access token is unknown, expired, revoked or issued for another resource.";
        return {
          ok: false,
          status: 401,
          body: { error: "invalid_token", error_description: description },
          headers: { "WWW-Authenticate": bearerChallenge(ctx.resourceMetadataUrl, { code: "invalid_token", description }) },
        };
      }
      return { ok: true, principal, via: "oauth", grant };
    }
    return { ok: true, principal: await ctx.accounts.authenticate(header), via: "api_key", grant: null };
  } catch (error) {
    if (isApiError(error)) return refuse(error.status, error.code, error.message, error.headers);
    return refuse(503, "credit_check_failed", "Credentials could not be verified; retry shortly.", { "Retry-After": "1" });
  }
}

/** The refusal as a response (OAuth body for 401s, the REST envelope otherwise). */
export function refusalResponse(c: Extract<ToolCaller, { ok: false }>, extraHeaders: Headers): Response {
  const headers: Record<string, string> = { ...c.headers };
  extraHeaders.forEach((v, k) => {
    headers[k] = v;
  });
  return jsonResponse(c.body, c.status, headers);
}
