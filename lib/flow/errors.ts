import { CodedError } from "../coded-error";

/** Stable codes of flow errors (lower-case; the server's renderer upper-cases them on the flow module). */
export type FlowErrorCode = "invalid_parameter" | "no_data";

/**
 * The one error type of `lib/flow`. `code` is stable and maps through the server's error table
 * (`invalid_parameter` is a 400); `parameter` (also in `details`) names the parameter at fault.
 *
 * @example
 * try { rvolSessions("2024-03-15", "0D") } catch (e) { if (e instanceof FlowError) e.parameter; } // "interval"
 */
export class FlowError extends CodedError {
  override readonly name = "FlowError";
  declare readonly code: FlowErrorCode;
  /** The parameter at fault, when one is. */
  readonly parameter: string | undefined;
  constructor(code: FlowErrorCode, message: string, parameter?: string) {
    super(code, message, parameter === undefined ? {} : { parameter });
    this.parameter = parameter;
  }
}
