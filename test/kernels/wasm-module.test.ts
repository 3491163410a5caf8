// The shipped module: size budget, imports, staleness against assembly/, and the inline bytes.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { base64, byteLength, sha256 } from "../../wasm/kernels.generated";
import { decodeBase64 } from "../../lib/kernels/_base64";
// @ts-expect-error: plain .mjs build script without type declarations
import { compileKernels } from "../../scripts/build-wasm.mjs";
import { withoutWasmTierUp } from "../_helpers/wasm-tier";

const hex = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("wasm/kernels.generated.ts", () => {
  const bytes = decodeBase64(base64);

  it("carries bytes whose size and sha256 match its own header", () => {
    expect(bytes.length).toBe(byteLength);
    expect(hex(bytes)).toBe(sha256);
    expect(Array.from(bytes.subarray(0, 4))).toEqual([0, 0x61, 0x73, 0x6d]); // "\0asm"
  });

  it("stays within the 64 KiB size budget", () => {
    expect(byteLength).toBeLessThanOrEqual(64 * 1024);
  });

  it("matches wasm/kernels.wasm on disk", () => {
    expect(hex(readFileSync(new URL("../../wasm/kernels.wasm", import.meta.url)))).toBe(sha256);
  });

  it("imports nothing but env.abort and exports the kernels and its memory", () => {
    const module = new WebAssembly.Module(bytes as BufferSource);
    for (const imp of WebAssembly.Module.imports(module)) expect(`${imp.module}.${imp.name}`).toBe("env.abort");
    const names = WebAssembly.Module.exports(module).map((e) => e.name);
    const kernels = ["exposure", "exposureScratchBytes", "greekExposure", "greekExposureScratchBytes", "profile", "profileScratchBytes", "impliedVolBatch"];
    for (const name of ["memory", "heapBase", ...kernels]) {
      expect(names).toContain(name);
    }
  });

  it("is not stale: rebuilding assembly/ gives the same bytes (run `npm run build:wasm` if this fails)", async () => {
    const rebuilt: Uint8Array = await withoutWasmTierUp(() => compileKernels());
    expect(hex(rebuilt)).toBe(sha256);
  }, 60_000);

  it("decodes base64 without atob too (runtimes without it)", () => {
    const atob = globalThis.atob;
    try {
      // @ts-expect-error: simulate a runtime without atob
      delete globalThis.atob;
      expect(hex(decodeBase64(base64))).toBe(sha256);
      expect(Array.from(decodeBase64("AGFzbQ=="))).toEqual([0, 97, 115, 109]);
      expect(Array.from(decodeBase64("YQ"))).toEqual([97]);
    } finally {
      globalThis.atob = atob;
    }
  });
});
