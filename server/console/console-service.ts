/**
 * What a signed-in customer may do, as plain functions of the session's account: the account
 * overview, usage, keys, connected apps, invite codes and the monthly cap; and the three ways in
 * (password, one-time setup link, invite code). The account id always comes from the session,
 * never from the request, so one customer can never name another's keys or apps.
 * Transport-free: the HTTP side is `console-app.ts`. See docs/operations.md#developer-console.
 */
import { ApiError } from "../errors";
import type { AccountAdmin } from "../accounts/admin-types";
import type { ConsoleKey, ConsoleStore } from "../accounts/console-types";
import { dummyPasswordHash, hashPassword, passwordProblem, SCRYPT_COST, verifyPassword, type ScryptCost } from "../accounts/password-hash";
import { planDefinition } from "../accounts/plans";
import type { AccountRecord, AccountService } from "../accounts/types";
import type { UsageReport } from "../accounts/usage-report";
import { storeUnavailable } from "../accounts/account-errors";
import { isOAuthError } from "../oauth/oauth-error";
import type { ConnectedApp, OAuthStore } from "../oauth/oauth-store";
import { createGrantRevoker, type GrantRevocation, type GrantRevokerOptions } from "./grant-revoker";
import { createSignInLimiter, type SignInLimiter, type SignInLimits } from "./sign-in-limiter";

/** The accounts service parts the console uses (either store's service satisfies it). */
type ConsoleAccounts = Pick<AccountService, "accountView" | "openOAuthStore" | "openConsoleStore"> & Pick<AccountAdmin, "createKey" | "revokeKey">;

export interface ConsoleServiceOptions {
  accounts: ConsoleAccounts;
  /** Defaults to the accounts' own (`accounts.openConsoleStore`). */
  store?: ConsoleStore;
  /** Defaults to the accounts' own; null: no connected apps (a store that keeps no OAuth grants). */
  oauth?: OAuthStore | null;
  signInLimits?: SignInLimits;
  /** A built limiter (the shared one on Redis); default in memory with `signInLimits`. */
  signInLimiter?: SignInLimiter;
  /** scrypt cost of new passwords (default `SCRYPT_COST`; tests lower it). */
  passwordCost?: ScryptCost;
  now?: () => number;
  /** Waits between retries of a key's OAuth grant revocation (default `GRANT_REVOCATION_RETRY_MS`). */
  grantRevocationRetryMs?: readonly number[];
  /** Told of each failed attempt to revoke a revoked key's OAuth grants. */
  onGrantRevocationFailure?: GrantRevokerOptions["onFailure"];
}

/** The answer to a key revocation: the key is revoked in every case; its OAuth grants now, or later. */
export type RevokedKey =
  | { keyId: string; alreadyRevoked: boolean; oauthTokensRevoked: number; oauthGrants: "revoked" }
  | { keyId: string; alreadyRevoked: boolean; oauthTokensRevoked: null; oauthGrants: "retrying"; note: string };

const GRANTS_RETRYING_NOTE =
  "The key is revoked: it no longer authenticates, and the tool endpoint refuses OAuth tokens signed in with it. " +
  "Recording the revocation of those tokens failed (the OAuth store could not be reached) and is retried in the background; " +
  "revoke the key again to retry now.";

/** A session just opened: the cookie value and the page's CSRF token. */
export interface OpenedSession {
  accountId: string;
  sessionId: string;
  csrfToken: string;
  expiresMs: number;
}

/** Largest monthly cap a customer may set (credits); far above any plan's use, below float trouble. */
const MAX_MONTHLY_CAP_CREDITS = 1_000_000_000_000;
/** Days the usage tab covers at most. */
const MAX_USAGE_DAYS = 90;

const badParameter = (name: string, message: string) => new ApiError(400, "invalid_parameter", `${name}: ${message}`, { details: { parameter: name } });

function requireString(value: unknown, name: string, maxChars = 512): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > maxChars) {
    throw badParameter(name, `a non-empty string of at most ${maxChars} characters is required.`);
  }
  return value.trim();
}

function requirePassword(value: unknown): string {
  const problem = passwordProblem(value);
  if (problem) throw badParameter("password", problem);
  return value as string;
}

const tooManyAttempts = (retryAfterS: number) =>
  new ApiError(429, "sign_in_rate_limited", `Too many failed sign-in attempts; retry after ${retryAfterS} seconds.`, {
    headers: { "Retry-After": String(retryAfterS) },
    details: { retry_after: retryAfterS },
  });

/**
 * The console answers in the REST envelope: an OAuth store that cannot be reached (its 503
 * `temporarily_unavailable`, meant for OAuth clients) is the console's 503 `store_unavailable`,
 * `Retry-After` included, like every other console call during an outage.
 */
async function oauthCall<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isOAuthError(error) && error.status === 503) throw storeUnavailable();
    throw error;
  }
}

export function createConsoleService(options: ConsoleServiceOptions) {
  const { accounts } = options;
  const now = options.now ?? Date.now;
  const store = options.store ?? accounts.openConsoleStore?.({ now });
  if (!store) throw new Error("createConsoleService: the accounts store keeps no console tables; pass `store`.");
  const oauth = options.oauth === undefined ? (accounts.openOAuthStore?.() ?? null) : options.oauth;
  const revoker = oauth ? createGrantRevoker(oauth, { retryMs: options.grantRevocationRetryMs, onFailure: options.onGrantRevocationFailure }) : null;
  const limiter: SignInLimiter = options.signInLimiter ?? createSignInLimiter(options.signInLimits);
  const cost = options.passwordCost ?? SCRYPT_COST;
  const dummyHash = dummyPasswordHash(cost);

  /** Refuse before any password work while the account or the address is over its limit. */
  async function guardAttempt(accountId: string | null, ip: string): Promise<void> {
    const waitS = await limiter.blockedForS(accountId, ip, now());
    if (waitS > 0) throw tooManyAttempts(waitS);
  }

  async function open(accountId: string): Promise<OpenedSession> {
    return { accountId, ...(await store!.createSession(accountId)) };
  }

  return {
    store,

    /** The session of a cookie value, or null. */
    session: async (sessionId: string | null) => (sessionId ? await store.session(sessionId) : null),

    endSession: async (sessionId: string) => await store.endSession(sessionId),

    /** Password sign-in. 401 `invalid_credentials` for any wrong account/password pair (same body). */
    async signIn(input: { accountId?: unknown; password?: unknown }, ip: string): Promise<OpenedSession> {
      const accountId = requireString(input.accountId, "accountId", 64);
      const password = typeof input.password === "string" && input.password.length <= 1024 ? input.password : "";
      await guardAttempt(accountId, ip);
      const stored = await store.passwordHash(accountId);
      // An unknown account or one without a password costs the same scrypt work as a real one.
      const ok = (await verifyPassword(password, stored ?? dummyHash)) && stored !== null;
      if (!ok) {
        await limiter.recordFailure(accountId, ip, now());
        throw new ApiError(401, "invalid_credentials", "The account id or the password is wrong.");
      }
      await limiter.recordSuccess(accountId);
      return open(accountId);
    },

    /** Set the password through a one-time link from `optionscope console link`, and sign in. */
    async setUp(input: { token?: unknown; password?: unknown }, ip: string): Promise<OpenedSession> {
      const token = requireString(input.token, "token", 128);
      const password = requirePassword(input.password);
      await guardAttempt(null, ip);
      const hash = await hashPassword(password, cost);
      // One transaction: a store failure spends nothing, so the link works again (docs/operations.md#console-failures).
      const opened = await store.setUpWithLink(token, hash);
      if (!opened) {
        await limiter.recordFailure(null, ip, now());
        throw new ApiError(404, "link_not_found", "This sign-in link is unknown, already used or expired; ask for a new one.");
      }
      return opened;
    },

    /**
     * Open an account with an invite code (the account is created now, on the code's plan), set
     * its password and sign in. Its first key is returned here, once.
     */
    async signUp(input: { inviteCode?: unknown; password?: unknown }, ip: string): Promise<OpenedSession & { key: string; keyId: string }> {
      const code = requireString(input.inviteCode, "inviteCode", 128);
      const password = requirePassword(input.password);
      await guardAttempt(null, ip);
      const hash = await hashPassword(password, cost);
      // One transaction: a store failure leaves the code open and no account (docs/operations.md#console-failures).
      const created = await store.signUpWithInvite(code, hash);
      if (!created) {
        await limiter.recordFailure(null, ip, now());
        throw new ApiError(404, "invite_not_found", "That invite code is unknown, already redeemed or expired.");
      }
      return { accountId: created.accountId, ...created.session, key: created.key, keyId: created.keyId };
    },

    /** The overview tab: the account record (`GET /v1/account`'s data) and the key limit. */
    async overview(accountId: string): Promise<AccountRecord & { activeKeys: number }> {
      const plan = await store.accountPlan(accountId);
      if (!plan) throw new ApiError(404, "account_not_found", "The account no longer exists.");
      const def = planDefinition(plan);
      // accountView reads the account by id; the principal's other fields are not used there.
      const view = await accounts.accountView({ accountId, keyId: "console", plan, limits: def.limits });
      const activeKeys = (await store.keysOf(accountId)).filter((k) => k.state === "active").length;
      return { ...view, activeKeys };
    },

    async usage(accountId: string, daysRaw: unknown): Promise<UsageReport> {
      const days = daysRaw === undefined || daysRaw === null || daysRaw === "" ? 30 : Number(daysRaw);
      if (!Number.isInteger(days) || days < 1 || days > MAX_USAGE_DAYS) throw badParameter("days", `an integer from 1 to ${MAX_USAGE_DAYS}.`);
      return store.usageReport(accountId, now(), days);
    },

    async keys(accountId: string): Promise<{ keys: ConsoleKey[]; activeKeyLimit: number }> {
      const plan = await store.accountPlan(accountId);
      return { keys: await store.keysOf(accountId), activeKeyLimit: plan ? planDefinition(plan).limits.activeKeys : 0 };
    },

    /** A new key, shown once; 409 `key_limit_reached` at the plan's active-key limit. */
    createKey: async (accountId: string) => await accounts.createKey(accountId),

    /**
     * Revoke one of the account's own keys, then the OAuth grants signed in with it. The key's
     * revocation stands even when the grants' fails: the answer says so, and the grants are
     * retried in the background (docs/operations.md#key-revocation-and-its-oauth-grants).
     */
    async revokeKey(accountId: string, keyIdRaw: unknown): Promise<RevokedKey> {
      const keyId = requireString(keyIdRaw, "keyId", 64);
      // Another account's key is answered exactly like a key that does not exist.
      if (!(await store.keysOf(accountId)).some((k) => k.keyId === keyId)) throw new ApiError(404, "key_not_found", "No key with that id on this account.");
      const r = await accounts.revokeKey(keyId);
      const grants: GrantRevocation = revoker ? await revoker.revoke(r.keyId) : { done: true, tokensRevoked: 0 };
      if (grants.done) return { keyId: r.keyId, alreadyRevoked: r.alreadyRevoked, oauthTokensRevoked: grants.tokensRevoked, oauthGrants: "revoked" };
      return { keyId: r.keyId, alreadyRevoked: r.alreadyRevoked, oauthTokensRevoked: null, oauthGrants: "retrying", note: GRANTS_RETRYING_NOTE };
    },

    /** Keys whose OAuth grants are still being revoked in the background. */
    pendingGrantRevocations: () => revoker?.pending() ?? [],

    /** Stop background work (the grant revocation retries). */
    close: () => revoker?.close(),

    apps: async (accountId: string): Promise<ConnectedApp[]> => (oauth ? await oauthCall(() => oauth.listApps({ accountId })) : []),

    async revokeApp(accountId: string, appIdRaw: unknown) {
      const appId = requireString(appIdRaw, "appId", 64);
      if (!oauth || !(await oauthCall(() => oauth.listApps({ accountId }))).some((a) => a.appId === appId)) {
        throw new ApiError(404, "app_not_found", "No connected app with that id on this account.");
      }
      const r = (await oauthCall(() => oauth.revokeApp(appId)))!;
      return { appId: r.appId, alreadyRevoked: r.alreadyRevoked, tokensRevoked: r.tokensRevoked };
    },

    /** Redeem an invite code on a signed-in account; failures count against the address like sign-ins. */
    async redeemInvite(accountId: string, codeRaw: unknown, ip: string) {
      const code = requireString(codeRaw, "inviteCode", 128);
      await guardAttempt(null, ip);
      try {
        return await store.applyInvite(accountId, code);
      } catch (error) {
        if (error instanceof ApiError && error.code === "invite_not_found") await limiter.recordFailure(null, ip, now());
        throw error;
      }
    },

    /** Set, raise, lower or (null) remove the account's monthly spend cap, in credits. */
    async setMonthlyCap(accountId: string, value: unknown): Promise<{ monthlyCapCredits: number | null }> {
      if (value !== null && !(Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_MONTHLY_CAP_CREDITS)) {
        throw badParameter("monthlyCapCredits", `an integer from 0 to ${MAX_MONTHLY_CAP_CREDITS}, or null for no cap.`);
      }
      const cap = await store.setMonthlyCap(accountId, value as number | null);
      if (cap === undefined) throw new ApiError(404, "account_not_found", "The account no longer exists.");
      return { monthlyCapCredits: cap };
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
