// Lazy loading of the WASM engine: nothing is decoded or instantiated until the first call.
import { base64, byteLength, sha256 } from "../../wasm/kernels.generated";
import { decodeBase64 } from "./_base64";
import { createWasmEngine } from "./_wasm-engine";
import { type KernelExports, kernelImports } from "./_wasm-exports";
import { KernelError } from "./errors";
import { jsKernels } from "./js-engine";
import type { KernelEngine, KernelsInfo, LoadKernelsOptions } from "./types";

// Memo of a pure function of the inline bytes (the engine resets its memory region per call).
let wasmEngine: KernelEngine | undefined;
let wasmPending: Promise<KernelEngine> | undefined;

function hasWebAssembly(): boolean {
  return typeof WebAssembly === "object" && typeof WebAssembly.Instance === "function";
}

function choose(options: LoadKernelsOptions | undefined): "wasm" | "js" | "auto" {
  const engine = options?.engine ?? "auto";
  if (engine !== "wasm" && engine !== "js" && engine !== "auto") {
    throw new KernelError("invalid_parameter", `engine must be "wasm", "js" or "auto", got ${String(engine)}`);
  }
  if (engine === "wasm" && !hasWebAssembly()) {
    throw new KernelError("engine_unavailable", "WebAssembly is not available in this runtime");
  }
  return engine;
}

/**
 * Loads the kernels: WASM by default, the JS engine when asked or when WebAssembly (with SIMD)
 * is missing. Async instantiation, cached after the first call. `engine.name` says which ran.
 *
 * @example
 * const engine = await loadKernels();            // { name: "wasm", ... } in Node and browsers
 * const js = await loadKernels({ engine: "js" });
 * @see docs/methodology.md#engines-and-loading
 */
export async function loadKernels(options?: LoadKernelsOptions): Promise<KernelEngine> {
  const engine = choose(options);
  if (engine === "js" || (engine === "auto" && !hasWebAssembly())) return jsKernels;
  if (wasmEngine) return wasmEngine;
  wasmPending ??= WebAssembly.instantiate(decodeBase64(base64) as BufferSource, kernelImports).then(({ instance }) => {
    wasmEngine = createWasmEngine(instance.exports as unknown as KernelExports);
    return wasmEngine;
  });
  try {
    return await wasmPending;
  } catch (err) {
    wasmPending = undefined;
    if (engine === "auto") return jsKernels;
    throw new KernelError("engine_unavailable", `WebAssembly kernels failed to load: ${(err as Error).message}`);
  }
}

/**
 * Synchronous variant of loadKernels (compiles with `new WebAssembly.Module`): for Node, workers
 * and small inputs; a browser's main thread may refuse synchronous compilation, and then "auto"
 * falls back to the JS engine (prefer loadKernels there).
 *
 * @example
 * const engine = loadKernelsSync();
 * engine.exposure(columns, { spot: 5800, nStrikes, nExp });
 * @see docs/methodology.md#engines-and-loading
 */
export function loadKernelsSync(options?: LoadKernelsOptions): KernelEngine {
  const engine = choose(options);
  if (engine === "js" || (engine === "auto" && !hasWebAssembly())) return jsKernels;
  if (wasmEngine) return wasmEngine;
  try {
    const module = new WebAssembly.Module(decodeBase64(base64) as BufferSource);
    const instance = new WebAssembly.Instance(module, kernelImports);
    wasmEngine = createWasmEngine(instance.exports as unknown as KernelExports);
    return wasmEngine;
  } catch (err) {
    if (engine === "auto") return jsKernels;
    throw new KernelError("engine_unavailable", `WebAssembly kernels failed to load: ${(err as Error).message}`);
  }
}

/**
 * Which engine is loaded and what WASM ships with the library.
 * @example kernelsInfo().wasmInstantiated // false until the first WASM load
 */
export function kernelsInfo(): KernelsInfo {
  return {
    wasmInstantiated: wasmEngine !== undefined,
    webAssembly: hasWebAssembly(),
    wasmSha256: sha256,
    wasmByteLength: byteLength,
  };
}
