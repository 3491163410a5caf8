import { CodedError } from "../coded-error";

/**
 * Why a kernel refused its input.
 *
 * - `invalid_columns`: a column is missing, has the wrong typed-array type or the wrong length.
 * - `invalid_index`: a strikeIndex / expIndex lies outside the grid.
 * - `invalid_parameter`: a scalar parameter (spot, rate, grid size, spots) is not usable.
 * - `engine_unavailable`: the requested engine cannot run here (no WebAssembly).
 */
export type KernelErrorCode = "invalid_columns" | "invalid_index" | "invalid_parameter" | "engine_unavailable";

/**
 * The one error type of `lib/kernels`; `code` is stable, `message` names the offending input.
 *
 * @example
 * try { jsKernels.exposure(cols, { spot: -1, nStrikes: 1, nExp: 1 }); }
 * catch (e) { (e as KernelError).code; } // "invalid_parameter"
 * @see docs/methodology.md#input-rules
 */
export class KernelError extends CodedError {
  override readonly name = "KernelError";
  declare readonly code: KernelErrorCode;
  constructor(code: KernelErrorCode, message: string) {
    super(code, message);
  }
}
