// A bump region over the module's linear memory: reset before each kernel call, grown (never
// shrunk) when a call needs more. Views must be made after `reserve`, since growing detaches
// the old ArrayBuffer.
import type { KernelExports } from "./_wasm-exports";

const PAGE_BYTES = 65536;

/** Allocation cursor over linear memory, starting at the module's heap base. */
export class WasmRegion {
  private readonly base: number;
  private cursor: number;

  constructor(private readonly exports: KernelExports) {
    this.base = exports.heapBase();
    this.cursor = this.base;
  }

  /** Forgets every previous allocation and makes sure `bytes` (plus alignment slack) fit. */
  reserve(bytes: number): void {
    this.cursor = this.base;
    const need = this.base + bytes + 16 * 16;
    const memory = this.exports.memory;
    const have = memory.buffer.byteLength;
    if (need > have) memory.grow(Math.ceil((need - have) / PAGE_BYTES));
  }

  /** Next 16-byte-aligned block of `bytes`; returns its byte offset. */
  alloc(bytes: number): number {
    const at = this.cursor;
    this.cursor = (at + bytes + 15) & ~15;
    return at;
  }

  /** The current buffer (re-read after any grow). */
  get buffer(): ArrayBuffer {
    return this.exports.memory.buffer;
  }
}

/** Bytes a block of `bytes` takes in the region, alignment included. */
export function aligned(bytes: number): number {
  return (bytes + 15) & ~15;
}
