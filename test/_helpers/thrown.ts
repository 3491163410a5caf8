// What a call throws, checked to be the typed error the library promises. Shared by the tests of
// every area whose errors carry a stable `code` (lib/time, lib/symbols, lib/kernels, lib/price,
// the server's ApiError).
import { expect } from "vitest";

/** A class of errors (constructor signature left open: each error type has its own). */
type ErrorClass<E> = abstract new (...args: never[]) => E;

/**
 * The error `fn` throws, asserted to be a `type`; fails the test when `fn` returns.
 * @example expect(caught(ApiError, () => svc.authenticate(null)).status).toBe(401)
 */
export function caught<E>(type: ErrorClass<E>, fn: () => unknown): E {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}

/**
 * The `code` of the `type` error `fn` throws, or "no error" when `fn` returns (so a failing
 * assertion shows what happened instead of stopping at the throw).
 * @example expect(codeOf(CalendarError, () => isTradingDay("2024-02-30"))).toBe("invalid_date")
 */
export function codeOf<E extends { code: string }>(type: ErrorClass<E>, fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return (error as E).code;
  }
  return "no error";
}
