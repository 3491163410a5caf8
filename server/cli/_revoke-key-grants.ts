/**
 * The second step of `optionscope key revoke`: revoking the OAuth grants signed in with a key the
 * accounts store has just revoked. A short outage of the OAuth store is ridden out with a few
 * quick retries; a longer one is reported, never hidden (the key's own revocation stands either
 * way). Why and how long: docs/operations.md#key-revocation-and-its-oauth-grants.
 */
import type { OAuthStore } from "../oauth/oauth-store";

/** Waits before each retry after a failed attempt (ms): docs/methodology.md#store-outage-thresholds. */
const CLI_GRANT_RETRY_MS: readonly number[] = [500, 1_000, 2_000];

/** The tokens revoked, or the last failure after every attempt failed. */
export type KeyGrantsOutcome = { done: true; tokensRevoked: number; attempts: number } | { done: false; error: unknown; attempts: number };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Revoke `keyId`'s grants, retrying after each wait in `retryMs`; never throws.
 * @example await revokeKeyGrants(oauth, "key_abc") // { done: true, tokensRevoked: 2, attempts: 1 }
 */
export async function revokeKeyGrants(oauth: OAuthStore, keyId: string, retryMs: readonly number[] = CLI_GRANT_RETRY_MS): Promise<KeyGrantsOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { done: true, tokensRevoked: await oauth.revokeGrantsOfKey(keyId), attempts: attempt };
    } catch (error) {
      if (attempt > retryMs.length) return { done: false, error, attempts: attempt };
      await sleep(retryMs[attempt - 1]!);
    }
  }
}
