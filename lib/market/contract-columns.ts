// The per-contract columns of a board, allocated once for builders that fill them row by row
// (the file provider, the Cboe importer).
import type { ChainSnapshot } from "./market-data";

/** The per-contract columns of a `ChainSnapshot`. */
export type ContractColumns = Pick<ChainSnapshot, "strikeIndex" | "expIndex" | "right" | "oi" | "bid" | "ask" | "last" | "iv" | "volume">;

/** Zero-filled per-contract columns for a board of `n` rows. */
export function contractColumns(n: number): ContractColumns {
  return {
    strikeIndex: new Int32Array(n),
    expIndex: new Int32Array(n),
    right: new Uint8Array(n),
    oi: new Float64Array(n),
    bid: new Float64Array(n),
    ask: new Float64Array(n),
    last: new Float64Array(n),
    iv: new Float64Array(n),
    volume: new Float64Array(n),
  };
}
