/**
 * Revokes the OAuth grants of an API key the accounts store has already revoked, retrying in the
 * background when the OAuth store fails, so a key revocation is never left half done while the
 * process runs. Why and how long: docs/operations.md#key-revocation-and-its-oauth-grants.
 */
import type { OAuthStore } from "../oauth/oauth-store";

/** Waits between attempts after a failed one (ms), then give up: docs/methodology.md#store-outage-thresholds. */
const GRANT_REVOCATION_RETRY_MS: readonly number[] = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000, ...Array<number>(28).fill(60_000)];

/** The outcome of one revocation: the tokens revoked now, or a failure that is being retried. */
export type GrantRevocation = { done: true; tokensRevoked: number } | { done: false };

export interface GrantRevokerOptions {
  retryMs?: readonly number[];
  /** Told of every failed attempt and of giving up (the server logs them). */
  onFailure?: (event: { keyId: string; attempt: number; gaveUp: boolean; error: unknown }) => void;
}

/**
 * @example const revoker = createGrantRevoker(oauth); await revoker.revoke("key_abc") // { done: true, tokensRevoked: 2 }
 */
export function createGrantRevoker(oauth: OAuthStore, options: GrantRevokerOptions = {}) {
  const retryMs = options.retryMs ?? GRANT_REVOCATION_RETRY_MS;
  /** Keys whose grants still need revoking, with their next attempt's timer (null: an attempt is running). */
  const pending = new Map<string, ReturnType<typeof setTimeout> | null>();

  const tell = (keyId: string, attempt: number, gaveUp: boolean, error: unknown) => {
    try {
      options.onFailure?.({ keyId, attempt, gaveUp, error });
    } catch {
      // a failing log sink never changes the outcome
    }
  };

  /** Attempt `attempt` (0: the request's own); on failure, schedule the next one. */
  async function attempt(keyId: string, n: number): Promise<GrantRevocation> {
    const timer = pending.get(keyId);
    if (timer) clearTimeout(timer);
    const wasPending = pending.has(keyId);
    // Still pending while the attempt runs: the grants are revoked only once it has succeeded.
    if (wasPending) pending.set(keyId, null);
    try {
      const tokensRevoked = await oauth.revokeGrantsOfKey(keyId);
      pending.delete(keyId);
      return { done: true, tokensRevoked };
    } catch (error) {
      const gaveUp = n >= retryMs.length;
      tell(keyId, n, gaveUp, error);
      if (gaveUp) pending.delete(keyId);
      else {
        const next = setTimeout(() => void attempt(keyId, n + 1), retryMs[n]);
        next.unref?.();
        pending.set(keyId, next);
      }
      return { done: false };
    }
  }

  return {
    /** Revoke now; a key already pending is attempted now too, and its schedule starts over. */
    revoke: (keyId: string) => attempt(keyId, 0),
    /** Keys whose grants are still to be revoked. */
    pending: () => [...pending.keys()],
    /** Stop retrying (shutdown); what is pending stays to be done by revoking the key again. */
    close() {
      for (const timer of pending.values()) if (timer) clearTimeout(timer);
      pending.clear();
    },
  };
}
