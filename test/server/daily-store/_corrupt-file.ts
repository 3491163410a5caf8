// Damage a daily store file the ways disks and crashes do: garbage in place of the file, a
// truncated file, and pages overwritten in the middle of a file another connection has open.
import { closeSync, openSync, statSync, truncateSync, writeSync } from "node:fs";
import { openSqlite } from "../../../server/sqlite";

/** Deterministic noise (xorshift32): the same bytes on every run. */
export function noise(length: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Move every committed page into the database file itself (from a connection of its own). */
function checkpoint(path: string): void {
  const db = openSqlite(path);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/**
 * Overwrite every page after the first (the header and schema stay) with noise, then commit a
 * header-only change from another connection so that an open connection drops its page cache and
 * reads the damaged pages from disk, as it would after any write by the fill worker.
 */
export function corruptPages(path: string): { pages: number } {
  checkpoint(path);
  const pageSize = 4096;
  const size = statSync(path).size;
  const pages = Math.floor(size / pageSize);
  if (pages < 3) throw new Error(`${path}: only ${pages} pages, too small to damage in the middle`);
  const fd = openSync(path, "r+");
  try {
    writeSync(fd, noise(size - pageSize), 0, size - pageSize, pageSize);
  } finally {
    closeSync(fd);
  }
  const db = openSqlite(path);
  try {
    db.pragma("user_version = 7");
  } finally {
    db.close();
  }
  return { pages: pages - 1 };
}

/** Cut the (closed, checkpointed) file to `fraction` of its size. */
export function truncateFile(path: string, fraction: number): void {
  truncateSync(path, Math.floor(statSync(path).size * fraction));
}
