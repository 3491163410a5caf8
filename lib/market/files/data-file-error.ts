/**
 * The one error of the file provider: a file, a line and a field that are wrong, and why.
 * @see docs/data.md#errors
 */

/** Stable codes: a bad value, a bad header, a file that cannot be read, a cross-row conflict. */
export type DataFileErrorCode = "bad_value" | "bad_header" | "missing_file" | "conflict";

/**
 * Thrown when a data file cannot be loaded. `line` is 1-based (the header is line 1; 0 when the
 * problem is the file as a whole); `field` is the column name, or null when no column is at fault.
 * @example
 * new DataFileError("bad_value", "chains.csv", 17, "strike", 'expected a positive number, got "abc"').message;
 * // 'chains.csv:17: field "strike": expected a positive number, got "abc"'
 */
export class DataFileError extends Error {
  readonly code: DataFileErrorCode;
  readonly file: string;
  readonly line: number;
  readonly field: string | null;
  readonly reason: string;

  constructor(code: DataFileErrorCode, file: string, line: number, field: string | null, reason: string) {
    const where = line > 0 ? `${file}:${line}` : file;
    super(field ? `${where}: field "${field}": ${reason}` : `${where}: ${reason}`);
    this.name = "DataFileError";
    this.code = code;
    this.file = file;
    this.line = line;
    this.field = field;
    this.reason = reason;
  }
}

/** True for a `DataFileError`. */
export function isDataFileError(error: unknown): error is DataFileError {
  return error instanceof DataFileError;
}
