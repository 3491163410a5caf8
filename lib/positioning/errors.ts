import { CodedError } from "../coded-error";

/** Stable codes of positioning errors; the server maps them to the spec's error codes. */
export type PositioningErrorCode = "invalid_parameter" | "expiration_not_found" | "no_data";

/**
 * The one error type of `lib/positioning`. `code` is stable and matches the API's lower-case codes.
 *
 * @example
 * try { exposureGrid(snap, { expirations: ["1999-01-01"] }, engine) }
 * catch (e) { if (e instanceof PositioningError && e.code === "expiration_not_found") {} }
 */
export class PositioningError extends CodedError {
  override readonly name = "PositioningError";
  declare readonly code: PositioningErrorCode;
  constructor(code: PositioningErrorCode, message: string) {
    super(code, message);
  }
}
