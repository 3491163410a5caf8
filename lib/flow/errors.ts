/** Stable codes of flow errors; the server maps them to the spec's upper-case flow codes. */
export type FlowErrorCode = "INVALID_PARAMETER" | "NO_DATA";

/**
 * The one error type of `lib/flow`. `code` is stable and already in the flow module's upper-case form.
 *
 * @example
 * try { parseRvolPeriod("0D", "D") } catch (e) { if (e instanceof FlowError) e.code; } // "INVALID_PARAMETER"
 */
export class FlowError extends Error {
  override readonly name = "FlowError";
  constructor(
    readonly code: FlowErrorCode,
    message: string,
    /** The parameter at fault, when one is. */
    readonly parameter?: string,
  ) {
    super(message);
  }
}
