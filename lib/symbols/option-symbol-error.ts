import { CodedError } from "../coded-error";

/**
 * Why an option symbol (or contract) was refused:
 * `malformed` (shape, separator, length or root), `bad_date` (expiry not a real YYMMDD date),
 * `bad_strike` (not 8 digits, zero, or not a multiple of 0.001 up to 99999.999), `bad_right` (not C/P).
 */
export type OptionSymbolErrorCode = "malformed" | "bad_date" | "bad_strike" | "bad_right";

/**
 * The one error type of `lib/symbols`; `code` is stable, `message` names the offending part.
 *
 * @example
 * try { parseOptionSymbol("SPXW__250620X05800000"); } catch (e) { (e as OptionSymbolError).code; } // "bad_right"
 * @see docs/methodology.md#option-symbols
 */
export class OptionSymbolError extends CodedError {
  /** Stable machine-readable reason. */
  declare readonly code: OptionSymbolErrorCode;

  constructor(code: OptionSymbolErrorCode, message: string) {
    super(code, message);
    this.name = "OptionSymbolError";
  }
}
