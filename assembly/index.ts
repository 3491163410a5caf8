// The kernels module: numbers and pointers in, results written to linear memory.
// Memory is laid out by the loader (lib/kernels/_wasm-engine.ts) as a bump region that starts at
// heapBase(); nothing here allocates. Layouts: docs/methodology.md#memory-layout.

export { exposure, exposureScratchBytes } from "./exposure";
export { profile, profileScratchBytes } from "./profile";
export { greekExposure, greekExposureScratchBytes } from "./greek-exposure";
export { expBatch, logBatch } from "./vmath";

/** First byte of linear memory free for the loader's bump region (16-byte aligned). */
export function heapBase(): usize {
  return (__heap_base + 15) & ~<usize>15;
}
export { impliedVolBatch } from "./implied-vol";
export { vixStripSum } from "./vix-strip";
