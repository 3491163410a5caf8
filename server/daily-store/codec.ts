// How a stored value is written: V8's structured-clone serializer (exact for numbers, NaN, -0
// and infinities included, typed arrays, null, Maps), after one transform that makes the large
// values small: an array of records with the same keys (a summary's per-contract rows) is stored
// by column, numbers as one Float64Array per field and repeated strings through a dictionary;
// then the bytes are deflated. Decoding rebuilds the same records, so a read equals what was
// written. See docs/architecture.md#persisted-daily-store (sizes and timings there).
import { deserialize, serialize } from "node:v8";
import { promisify } from "node:util";
import { deflateRaw, deflateRawSync, inflateRawSync } from "node:zlib";

/** Tag of a column-encoded array (a key no record of ours has). */
const COLS = "\u0000cols";
/** Arrays shorter than this are stored as they are (columns only pay off on many rows). */
const MIN_ROWS = 8;
/** Deflate level: 1 is several times faster than the default for about the same size on these rows. */
const DEFLATE_LEVEL = 1;

type Column = Float64Array | { dict: string[]; idx: Uint16Array | Uint32Array } | unknown[];

function isRecord(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v) || ArrayBuffer.isView(v) || v instanceof Map || v instanceof Set) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function sameKeys(rows: readonly unknown[]): string[] | null {
  if (rows.length < MIN_ROWS || !isRecord(rows[0])) return null;
  const keys = Object.keys(rows[0]);
  // A "__proto__" key would set the prototype in the generated object literal: keep such rows as they are.
  if (keys.includes("__proto__")) return null;
  for (const r of rows) {
    if (!isRecord(r)) return null;
    const k = Object.keys(r);
    if (k.length !== keys.length) return null;
    for (let i = 0; i < k.length; i++) if (k[i] !== keys[i]) return null;
  }
  return keys;
}

function column(rows: readonly Record<string, unknown>[], key: string): Column {
  const values = rows.map((r) => r[key]);
  if (values.every((v) => typeof v === "number")) return Float64Array.from(values as number[]);
  if (values.every((v) => typeof v === "string")) {
    const dict: string[] = [];
    const at = new Map<string, number>();
    const idx = new Uint32Array(values.length);
    values.forEach((v, i) => {
      let j = at.get(v as string);
      if (j === undefined) {
        j = dict.length;
        dict.push(v as string);
        at.set(v as string, j);
      }
      idx[i] = j;
    });
    return { dict, idx: dict.length <= 65_536 ? Uint16Array.from(idx) : idx };
  }
  return values.map(toStored);
}

function toStored(v: unknown): unknown {
  if (Array.isArray(v)) {
    const keys = sameKeys(v);
    if (keys) return { [COLS]: keys, n: v.length, c: keys.map((k) => column(v as Record<string, unknown>[], k)) };
    return v.map(toStored);
  }
  if (isRecord(v)) return mapRecord(v, toStored);
  return v;
}

/** A copy of `v` with `f` applied to each value (`defineProperty`: a "__proto__" key stays a key). */
function mapRecord(v: Record<string, unknown>, f: (x: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = Object.getPrototypeOf(v) === null ? Object.create(null) : {};
  for (const k of Object.keys(v)) {
    if (k === "__proto__") Object.defineProperty(out, k, { value: f(v[k]), enumerable: true, writable: true, configurable: true });
    else out[k] = f(v[k]);
  }
  return out;
}

/** A column's values as a plain array (numbers, dictionary strings or decoded values). */
function columnValues(c: Column): ArrayLike<unknown> {
  if (c instanceof Float64Array) return c;
  if (Array.isArray(c)) return c.map(fromStored);
  const out = new Array<string>(c.idx.length);
  for (let i = 0; i < out.length; i++) out[i] = c.dict[c.idx[i]];
  return out;
}

const ROW_BUILDERS = new Map<string, (cols: ArrayLike<unknown>[], n: number) => Record<string, unknown>[]>();

/**
 * A function building `n` records of `keys` from columns: generated once per key list so every
 * record is one object literal of one shape (keys assigned one by one were 10x slower).
 */
function rowBuilder(keys: readonly string[]): (cols: ArrayLike<unknown>[], n: number) => Record<string, unknown>[] {
  const id = JSON.stringify(keys);
  let f = ROW_BUILDERS.get(id);
  if (!f) {
    const fields = keys.map((k, j) => `${JSON.stringify(k)}: c${j}[i]`).join(", ");
    const locals = keys.map((_, j) => `const c${j} = cols[${j}];`).join(" ");
    f = new Function("cols", "n", `${locals} const out = new Array(n); for (let i = 0; i < n; i++) out[i] = { ${fields} }; return out;`) as (
      cols: ArrayLike<unknown>[],
      n: number,
    ) => Record<string, unknown>[];
    ROW_BUILDERS.set(id, f);
  }
  return f;
}

function fromStored(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromStored);
  if (isRecord(v)) {
    if (COLS in v) {
      const keys = v[COLS] as string[];
      return rowBuilder(keys)((v.c as Column[]).map(columnValues), v.n as number);
    }
    return mapRecord(v, fromStored);
  }
  return v;
}

/** The bytes stored for `value` (throws on what cannot be cloned: functions, symbols). */
export function encodeDaily(value: unknown): Buffer {
  return deflateRawSync(serialize(toStored(value)), { level: DEFLATE_LEVEL });
}

const deflateRawAsync = promisify(deflateRaw);

/**
 * `encodeDaily`'s format, deflated on libuv's thread pool: the caller's thread only serialises.
 * A market-wide table deflates for ~100 ms, which a request loop must not hold. `decodeDaily`
 * reads it back to the same value (the deflate stream's blocks may differ from the synchronous
 * call's, so the bytes are not always identical).
 */
export function encodeDailyOffThread(value: unknown): Promise<Buffer> {
  return deflateRawAsync(serialize(toStored(value)), { level: DEFLATE_LEVEL });
}

/** The value `encodeDaily` wrote. */
export function decodeDaily<T>(bytes: Uint8Array): T {
  return fromStored(deserialize(inflateRawSync(bytes))) as T;
}
