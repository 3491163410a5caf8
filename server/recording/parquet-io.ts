/**
 * Parquet bytes in and out of the store of record (hyparquet-writer writes, hyparquet reads;
 * docs/data.md#store-of-record says why these two), and the durable file primitives: a file is
 * written beside its final name, fsynced, renamed over it and its folder fsynced, so a reader (or a
 * process killed at any instant) sees the old file or the new one, never a part of one.
 */
import { closeSync, fstatSync, fsyncSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { parquetMetadata, parquetRead, type AsyncBuffer, type FileMetaData } from "hyparquet";
import { ByteWriter, ParquetWriter, parquetWrite, schemaFromColumnData } from "hyparquet-writer";

/** Column codec of every file: gzip level 1 (docs/data.md#store-of-record: size against CPU). */
const CODEC = "GZIP" as const;

/** hyparquet-writer has Snappy built in; gzip (the Parquet GZIP codec, RFC 1952) comes from node:zlib. */
const compressors = { GZIP: (input: Uint8Array): Uint8Array => gzipSync(input, { level: 1 }) };
const decompressors = { GZIP: (input: Uint8Array): Uint8Array => gunzipSync(input) };

/** A column to write (hyparquet-writer's `ColumnSource`, the parts used here). */
export interface ColumnIn {
  name: string;
  data: ArrayLike<unknown>;
  type: "INT32" | "DOUBLE" | "STRING";
  nullable: boolean;
  encoding?: "DELTA_BINARY_PACKED" | "BYTE_STREAM_SPLIT" | "PLAIN";
}

const asSource = (c: ColumnIn) => ({
  name: c.name,
  data: c.data as unknown as number[],
  type: c.type,
  nullable: c.nullable,
  ...(c.encoding ? { encoding: c.encoding } : {}),
});

/**
 * Data page size of board columns, in bytes of values before encoding: about 2,000 doubles or
 * 4,000 integers a page, so a read of a board's first rows (a window's nearest expirations)
 * decodes those pages only and stops (docs/data.md#windowed-reads).
 */
export const BOARD_PAGE_BYTES = 16 * 1024;

/** One row group's bytes as a whole file, with key-value metadata (one page per column unless `pageSize`). */
export function parquetBytes(columns: readonly ColumnIn[], kv: Record<string, string> = {}, pageSize?: number): Uint8Array {
  const writer = new ByteWriter();
  parquetWrite({
    writer,
    columnData: columns.map(asSource),
    codec: CODEC,
    compressors,
    statistics: false,
    rowGroupSize: Math.max(1, columns[0]?.data.length ?? 1),
    kvMetadata: Object.entries(kv).map(([key, value]) => ({ key, value })),
    createdBy: "optionscope recorder",
    ...(pageSize ? { pageSize } : {}),
  });
  return new Uint8Array(writer.getBuffer());
}

/**
 * A file of several row groups written one after another (the compacted session files): the
 * schema is that of `template`; every group must give the same column names.
 */
export function multiGroupWriter(
  template: readonly ColumnIn[],
  pageSize?: number,
): { add(columns: readonly ColumnIn[]): void; finish(kv: Record<string, string>): Uint8Array } {
  const writer = new ByteWriter();
  const schema = schemaFromColumnData({ columnData: template.map(asSource) });
  let pq: ParquetWriter | null = null;
  const kvHolder: { key: string; value: string }[] = [];
  return {
    add(columns) {
      pq ??= new ParquetWriter({ writer, schema, codec: CODEC, compressors, statistics: false, kvMetadata: kvHolder, createdBy: "optionscope recorder" });
      const n = columns[0]?.data.length ?? 0;
      if (n === 0) return;
      void pq.write({
        columnData: columns.map((c) => ({ name: c.name, data: c.data as unknown as number[], nullable: c.nullable, ...(c.encoding ? { encoding: c.encoding } : {}) })),
        rowGroupSize: n,
        ...(pageSize ? { pageSize } : {}),
      });
    },
    finish(kv) {
      for (const [key, value] of Object.entries(kv)) kvHolder.push({ key, value });
      pq ??= new ParquetWriter({ writer, schema, codec: CODEC, compressors, statistics: false, kvMetadata: kvHolder, createdBy: "optionscope recorder" });
      pq.finish();
      return new Uint8Array(writer.getBuffer());
    },
  };
}

/**
 * Writes `bytes` to `path` atomically (temp file, rename) and, with `sync` (the default),
 * durably (fsync of the file before the rename and of the folder after it).
 */
export function writeFileDurable(path: string, bytes: Uint8Array | string, sync = true): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w");
  try {
    const buf = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (sync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  if (sync) fsyncDir(dirname(path));
}

/** fsync of a folder, so a rename or a new file in it survives a crash. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Removes a file, ignoring one already gone. */
export function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** An open Parquet file: its metadata, read once, and reads of row ranges by column. */
export interface ParquetFile {
  readonly path: string;
  readonly metadata: FileMetaData;
  readonly bytes: number;
  /** The file's key-value metadata. */
  kv(key: string): string | undefined;
  /** Columns (all when `columns` is absent) of rows `[rowStart, rowEnd)`. */
  read(rowStart: number, rowEnd: number, columns?: readonly string[]): Promise<Record<string, ArrayLike<unknown>>>;
  /**
   * Columns of row group `index` alone (its first `rowEnd` rows when given): hyparquet is handed a
   * footer holding that group only, so a read costs the group's pages (those before `rowEnd`), not
   * a plan over every group of the file.
   */
  readGroup(index: number, columns?: readonly string[], rowEnd?: number): Promise<Record<string, ArrayLike<unknown>>>;
  close(): void;
}

/** Bytes read from store files by this thread since it started (a count the windowed-read tests bound). */
let storeBytesRead = 0;

/** Bytes this thread has read from Parquet files of the store (footers and pages). docs/data.md#windowed-reads */
export function parquetBytesRead(): number {
  return storeBytesRead;
}

/** A synchronous slice reader over an open file descriptor. */
function fdBuffer(fd: number, size: number): AsyncBuffer {
  return {
    byteLength: size,
    slice(start: number, end?: number) {
      const stop = end ?? size;
      const buf = Buffer.allocUnsafe(stop - start);
      let off = 0;
      while (off < buf.length) {
        const r = readSync(fd, buf, off, buf.length - off, start + off);
        if (r === 0) break;
        off += r;
      }
      storeBytesRead += off;
      return buf.buffer.slice(buf.byteOffset, buf.byteOffset + off);
    },
  };
}

/**
 * Opens a Parquet file for reading (its footer parsed once).
 * @example const f = openParquet(path); const cols = await f.read(0, 100, ["iv"]); f.close();
 */
export function openParquet(path: string): ParquetFile {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const file = fdBuffer(fd, size);
    // The footer: its length sits in the last 8 bytes.
    const tail = new DataView(file.slice(size - 8) as ArrayBuffer);
    const metaLength = tail.getUint32(0, true);
    const footer = file.slice(Math.max(0, size - metaLength - 8)) as ArrayBuffer;
    const metadata = parquetMetadata(footer);
    const kvMap = new Map((metadata.key_value_metadata ?? []).map((e) => [e.key, e.value ?? ""]));
    return {
      path,
      metadata,
      bytes: size,
      kv: (key) => kvMap.get(key),
      read: (rowStart, rowEnd, columns) => readRows(file, metadata, rowStart, rowEnd, columns),
      readGroup: (index, columns, rowEnd) => {
        const group = metadata.row_groups[index];
        const one: FileMetaData = { ...metadata, row_groups: [group], num_rows: group.num_rows };
        return readRows(file, one, 0, Math.min(Number(group.num_rows), rowEnd ?? Number.POSITIVE_INFINITY), columns);
      },
      close: () => closeSync(fd),
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Reads rows `[rowStart, rowEnd)` column by column. */
async function readRows(
  file: AsyncBuffer,
  metadata: FileMetaData,
  rowStart: number,
  rowEnd: number,
  columns?: readonly string[],
): Promise<Record<string, ArrayLike<unknown>>> {
  const out: Record<string, ArrayLike<unknown>> = {};
  if (rowEnd <= rowStart) return out;
  const parts = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>();
  await parquetRead({
    file,
    metadata,
    columns: columns ? [...columns] : undefined,
    rowStart,
    rowEnd,
    // A read of a board's first rows fetches the pages holding them only (the writer's offset
    // index locates each page), not the whole column chunks: docs/data.md#windowed-reads.
    useOffsetIndex: true,
    compressors: decompressors,
    onChunk: (chunk) => {
      const list = parts.get(chunk.columnName) ?? [];
      list.push({ rowStart: chunk.rowStart, data: chunk.columnData });
      parts.set(chunk.columnName, list);
    },
    // No onComplete: hyparquet then skips assembling rows (columns are all that is used here).
  });
  for (const [name, list] of parts) {
    list.sort((a, b) => a.rowStart - b.rowStart);
    if (list.length === 1 && list[0].rowStart === rowStart && list[0].data.length === rowEnd - rowStart) {
      out[name] = list[0].data;
      continue;
    }
    // Pages of one typed column (a board's are several: BOARD_PAGE_BYTES) join into one typed array.
    const typed = typedConcat(list, rowStart, rowEnd);
    if (typed) {
      out[name] = typed;
      continue;
    }
    const merged: unknown[] = new Array(rowEnd - rowStart);
    for (const p of list) {
      for (let i = 0; i < p.data.length; i++) {
        const row = p.rowStart + i;
        if (row >= rowStart && row < rowEnd) merged[row - rowStart] = p.data[i];
      }
    }
    out[name] = merged;
  }
  return out;
}

type TypedColumn = Float64Array | Int32Array;

/** Chunks of one typed array kind, sorted by row, as one array of rows `[rowStart, rowEnd)`; null when they are not all of one such kind. */
function typedConcat(list: readonly { rowStart: number; data: ArrayLike<unknown> }[], rowStart: number, rowEnd: number): TypedColumn | null {
  const first = list[0].data;
  const Kind = first instanceof Float64Array ? Float64Array : first instanceof Int32Array ? Int32Array : null;
  if (!Kind || !list.every((p) => p.data instanceof Kind)) return null;
  const out = new Kind(rowEnd - rowStart);
  for (const p of list) {
    const data = p.data as TypedColumn;
    const from = Math.max(rowStart, p.rowStart);
    const to = Math.min(rowEnd, p.rowStart + data.length);
    if (to > from) out.set(data.subarray(from - p.rowStart, to - p.rowStart), from - rowStart);
  }
  return out;
}
