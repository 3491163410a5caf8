// The kernels module's exports as the loader sees them (see assembly/index.ts).

/** Exports of wasm/kernels.wasm. Pointers are byte offsets into `memory`. */
export interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  exposure(
    n: number,
    strikePtr: number,
    tPtr: number,
    ivPtr: number,
    oiPtr: number,
    rightPtr: number,
    expIdxPtr: number,
    strikeIdxPtr: number,
    spot: number,
    rate: number,
    q: number,
    callSign: number,
    putSign: number,
    nStrikes: number,
    nExp: number,
    gammaGridPtr: number,
    vannaGridPtr: number,
    gammaByStrikePtr: number,
    vannaByStrikePtr: number,
    totalsPtr: number,
    scratchPtr: number,
  ): number;
  exposureScratchBytes(n: number): number;
  greekExposure(
    n: number,
    strikePtr: number,
    tPtr: number,
    ivPtr: number,
    oiPtr: number,
    rightPtr: number,
    expIdxPtr: number,
    strikeIdxPtr: number,
    spot: number,
    rate: number,
    q: number,
    callSign: number,
    putSign: number,
    metric: number,
    nStrikes: number,
    nExp: number,
    gridPtr: number,
    byStrikePtr: number,
    totalPtr: number,
    scratchPtr: number,
  ): number;
  greekExposureScratchBytes(n: number): number;
  profile(
    n: number,
    strikePtr: number,
    tPtr: number,
    ivPtr: number,
    oiPtr: number,
    rightPtr: number,
    spot: number,
    rate: number,
    q: number,
    callSign: number,
    putSign: number,
    metric: number,
    nSpots: number,
    spotsPtr: number,
    outPtr: number,
    scratchPtr: number,
  ): number;
  profileScratchBytes(n: number, nSpots: number): number;
  expBatch(n: number, inPtr: number, outPtr: number): void;
  logBatch(n: number, inPtr: number, outPtr: number): void;
  /** Present once assembly/implied-vol.ts is part of the build. */
  impliedVolBatch?(
    n: number,
    pricePtr: number,
    spot: number,
    strikePtr: number,
    tPtr: number,
    rate: number,
    q: number,
    rightPtr: number,
    outPtr: number,
    iterPtr: number,
    evalPtr?: number,
  ): number;
  /** Present once assembly/vix-strip.ts is part of the build. */
  vixStripSum?(n: number, strikePtr: number, dKPtr: number, qPtr: number, growth: number, contributionPtr: number): number;
}

/** Imports the module may ask for: only env.abort (unreachable with --noAssert, kept for safety). */
export const kernelImports: WebAssembly.Imports = {
  env: {
    abort(): never {
      throw new Error("kernels.wasm aborted");
    },
  },
};
