import { CodedError } from "../coded-error";

/**
 * The one error type of lib/math: thrown for inputs outside a formula's domain (non-finite
 * numbers, non-positive spot or strike, negative time or volatility, unknown right).
 *
 * @example
 * try { bsmPrice({ ...input, spot: -1 }) } catch (e) { if (e instanceof MathInputError) e.code }
 */
export class MathInputError extends CodedError {
  /** Stable machine-readable code. */
  declare readonly code: "invalid_input";
  /** The offending field. */
  readonly field: string;

  constructor(field: string, message: string) {
    super("invalid_input", `${field}: ${message}`, { field });
    this.name = "MathInputError";
    this.field = field;
  }
}
