/**
 * The accounts store's errors and argument checks, shared by its auth, ledger and admin parts.
 * See docs/api.md#accounts-and-keys.
 */
import { ApiError, apiErrors } from "../errors";
import type { AccountStatus } from "./types";

/** The one body for unknown, invalid, revoked and expired keys (spec: identical 403s). */
export function forbidden(): ApiError {
  return new ApiError(403, "forbidden", "The API key is not valid.");
}

/** 403 for a suspended or blocked account; null when it is active. */
export function statusError(status: AccountStatus): ApiError | null {
  if (status === "suspended") {
    return new ApiError(403, "account_suspended", "API access for this account is suspended.");
  }
  if (status === "blocked") {
    return new ApiError(403, "account_blocked", "API access for this account is blocked.");
  }
  return null;
}

/** 503 when the store cannot be read or written: nothing was charged. */
export function storeFailure(): ApiError {
  return new ApiError(503, "credit_check_failed", "The credit balance could not be verified; nothing was charged. Retry shortly.", {
    headers: { "Retry-After": "1" },
    details: { retry_after: 1 },
  });
}

export function assertCredits(name: string, value: number, allowZero: boolean): void {
  if (!Number.isSafeInteger(value) || value < 0 || (!allowZero && value === 0)) {
    throw new ApiError(400, "invalid_parameter", `${name} must be a ${allowZero ? "non-negative" : "positive"} integer number of credits.`);
  }
}

export function assertRpm(value: number | null | undefined): void {
  if (value != null && (!Number.isSafeInteger(value) || value <= 0)) {
    throw new ApiError(400, "invalid_parameter", "requests per minute must be a positive integer.");
  }
}

export function assertCap(name: string, value: number | null | undefined): void {
  if (value != null) assertCredits(name, value, true);
}

/** 503 when the console's store cannot be read or written (nothing changed). Retry shortly. */
export function storeUnavailable(): ApiError {
  return apiErrors.storeUnavailable("The accounts store could not be reached; nothing was changed. Retry shortly.");
}
