// Kernels: one API, two engines (WASM by default, plain JS as oracle and fallback).

// Engines and loading
export { loadKernels, loadKernelsSync, kernelsInfo } from "./load";
export { jsKernels } from "./js-engine";

// Errors
export { KernelError, type KernelErrorCode } from "./errors";

// Types
export type {
  ChainColumns,
  ExposureParams,
  ExposureResult,
  GreekExposureResult,
  GreekMetric,
  GridParams,
  ImpliedVolBatchInput,
  ImpliedVolBatchResult,
  ImpliedVolInput,
  ImpliedVolResult,
  KernelEngine,
  KernelEngineChoice,
  KernelEngineName,
  KernelsInfo,
  LoadKernelsOptions,
  ProfileColumns,
  ProfileMetric,
  VixStripColumns,
} from "./types";
