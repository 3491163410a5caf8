// A daily store file SQLite cannot use: found at open (its header, then `PRAGMA quick_check`) or
// by a read or write (SQLITE_CORRUPT, SQLITE_NOTADB). The store is a cache of recomputable rows,
// so such a file is moved aside (with its -wal and -shm) for inspection and a fresh store takes its
// place. See docs/operations.md#corrupt-daily-store.
import { closeSync, existsSync, fstatSync, openSync, readSync, renameSync, statSync } from "node:fs";

/** The first 16 bytes of every SQLite database file. */
const SQLITE_MAGIC = Buffer.from("SQLite format 3\u0000", "latin1");
/** Length of the database header (docs: sqlite.org/fileformat.html#the_database_header). */
const HEADER_BYTES = 100;
/** A WAL file no longer than its header holds no frame. */
const WAL_HEADER_BYTES = 32;

/** Whether `error` is SQLite saying the file is not a database or is damaged (extended codes too). */
export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT" || code.startsWith("SQLITE_CORRUPT_"));
}

/** A corruption found by a check rather than thrown by SQLite (same code, so one test recognises both). */
export function corruptionError(message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code: "SQLITE_CORRUPT" });
}

/** The wal file of `path` holds frames (then the database file alone may lag its header). */
function walHasFrames(path: string): boolean {
  return (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) > WAL_HEADER_BYTES;
}

/**
 * What is wrong with the database header of the file at `path`, or null when it looks like a
 * database (an absent or empty file is a new store). Catches garbage and truncation without
 * reading the pages; `PRAGMA quick_check` reads them.
 */
export function headerProblem(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return null;
    const h = Buffer.alloc(HEADER_BYTES);
    if (readSync(fd, h, 0, HEADER_BYTES, 0) < HEADER_BYTES) return `${size} bytes, shorter than a database header`;
    if (!h.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return "not an SQLite database (no SQLite header)";
    const raw = h.readUInt16BE(16);
    const pageSize = raw === 1 ? 65_536 : raw;
    if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0) return `invalid page size ${raw}`;
    // The page count is valid when its "version-valid-for" equals the change counter.
    const pages = h.readUInt32BE(28);
    const countValid = h.readUInt32BE(92) === h.readUInt32BE(24);
    if (countValid && size < pages * pageSize && !walHasFrames(path)) return `truncated: ${size} bytes, the header counts ${pages} pages of ${pageSize}`;
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Rename the file at `path` and its -wal and -shm to `<path>.corrupt-<UTC time>` (+ suffix), a
 * name no other store uses; returns the new name of the database file.
 */
export function moveAside(path: string, nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, "").replace(".", "-");
  let target = `${path}.corrupt-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.corrupt-${stamp}-${n}`;
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      renameSync(`${path}${suffix}`, `${target}${suffix}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return target;
}
