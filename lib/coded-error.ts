/**
 * The base of every library error: a stable machine-readable `code` and optional structured
 * `details` (for example the numbers a client needs to page). The server maps codes to HTTP
 * statuses in one table (`server/errors.ts`); library code never knows about HTTP.
 * @example
 * try { planHistory(req, nowMs) } catch (e) { if (e instanceof CodedError) e.code; }
 */
export class CodedError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** True for any library error carrying a stable code. */
export function isCodedError(error: unknown): error is CodedError {
  return error instanceof CodedError;
}
