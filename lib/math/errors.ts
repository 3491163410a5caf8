/**
 * The one error type of lib/math: thrown for inputs outside a formula's domain (non-finite
 * numbers, non-positive spot or strike, negative time or volatility, unknown right).
 *
 * @example
 * try { bsmPrice({ ...input, spot: -1 }) } catch (e) { if (e instanceof MathInputError) e.code }
 */
export class MathInputError extends Error {
  /** Stable machine-readable code. */
  readonly code = "invalid_input" as const;
  /** The offending field. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = "MathInputError";
    this.field = field;
  }
}
