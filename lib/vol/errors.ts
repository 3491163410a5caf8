/** Stable codes of volatility-module errors; the server maps them to the spec's error codes. */
export type VolErrorCode = "invalid_parameter" | "no_data";

/**
 * The one error type of `lib/vol`. `code` is stable and matches the API's lower-case codes.
 *
 * @example
 * try { sigma(input) } catch (e) { if (e instanceof VolError && e.code === "invalid_parameter") {} }
 */
export class VolError extends Error {
  override readonly name = "VolError";
  constructor(
    readonly code: VolErrorCode,
    message: string,
  ) {
    super(message);
  }
}
