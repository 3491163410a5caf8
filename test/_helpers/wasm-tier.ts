// The AssemblyScript compiler runs on Binaryen, itself a large WebAssembly module. V8 compiles it
// with its baseline tier (Liftoff) and then recompiles every hot function with its optimising tier
// (TurboFan); for the one or two compiles a test file makes, that recompilation costs more CPU than
// the compiles themselves (measured on the first compileKernels() of a process: 8.5 s of CPU by
// default, 3.4-3.9 s with Liftoff only; later compiles ~1.7 s either way). WebAssembly arithmetic
// is exact in either tier, so the compiler's output is the same bytes (test/kernels/wasm-module.test.ts
// compares them with the shipped module's sha256).
import { setFlagsFromString } from "node:v8";

/** Runs `fn` with V8's WebAssembly tier-up off (baseline code only), then turns it back on. */
export async function withoutWasmTierUp<T>(fn: () => Promise<T>): Promise<T> {
  setFlagsFromString("--liftoff-only");
  try {
    return await fn();
  } finally {
    setFlagsFromString("--no-liftoff-only");
  }
}
