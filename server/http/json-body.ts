/**
 * Response-body JSON with memoized parts: a value passed to `memoizeJson` is serialised once and
 * its text reused wherever it appears in later bodies (a cached heatmap entry is the same object
 * for 5 seconds, so thousands of responses would otherwise re-serialise identical data).
 * `toJson(v)` equals `JSON.stringify(v)` for every JSON-able value. See bench/README.md#performance.
 */

const memo = new WeakMap<object, string>();

/** How deep `toJson` looks for memoized parts before handing a subtree to `JSON.stringify`. */
const MAX_DEPTH = 4;

/**
 * Serialise `value` now and reuse the text in every later `toJson`. The value must not be mutated
 * afterwards (memoize only cached, immutable results).
 * @example const entry = memoizeJson({ symbol: "SPXW", strikes: [...] });
 */
export function memoizeJson<T extends object>(value: T): T {
  memo.set(value, JSON.stringify(value));
  return value;
}

/**
 * Like `memoizeJson`, with the text given: `text` must be JSON of `value` (the API descriptions are
 * sent indented for people to read, docs/api.md#openapi-documents).
 * @example memoizeJsonText(doc, JSON.stringify(doc, null, 2))
 */
export function memoizeJsonText<T extends object>(value: T, text: string): T {
  memo.set(value, text);
  return value;
}

/** Bytes of the text memoized for `value` (0 when none): what a cache of memoized values holds besides them. */
export function memoizedJsonBytes(value: object): number {
  const text = memo.get(value);
  return text === undefined ? 0 : 16 + text.length;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const skipped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

/**
 * `JSON.stringify(value)`, splicing in the memoized text of any part registered with
 * `memoizeJson` (plain objects and arrays are walked to a small depth; anything else, and
 * anything deeper, goes to `JSON.stringify` whole).
 * @example toJson({ data: { symbols: [entry] }, meta }) === JSON.stringify({ data: { symbols: [entry] }, meta }) // true
 */
export function toJson(value: unknown, depth = MAX_DEPTH): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const hit = memo.get(value);
  if (hit !== undefined) return hit;
  if (depth <= 0 || typeof (value as { toJSON?: unknown }).toJSON === "function") return JSON.stringify(value);
  if (Array.isArray(value)) {
    // Columns of numbers (UDF history: 35,000 values) cannot hold memoized parts: one native call.
    if (value.length === 0 || value[0] === null || typeof value[0] !== "object") return JSON.stringify(value);
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      const v: unknown = value[i];
      out += skipped(v) ? "null" : toJson(v, depth - 1);
    }
    return out + "]";
  }
  if (!isPlainObject(value)) return JSON.stringify(value);
  let out = "{";
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (skipped(v)) continue;
    out += (first ? "" : ",") + JSON.stringify(key) + ":" + toJson(v, depth - 1);
    first = false;
  }
  return out + "}";
}

/** Envelope bytes per memoized `data` object, with the `meta` text they were made with. */
const envelopes = new WeakMap<object, { metaText: string; bytes: Buffer }>();

/**
 * The success envelope `{ data, meta }` as `toJson` writes it. When `data` itself is memoized
 * (a cached answer reused for seconds), the encoded bytes are kept with it and reused while
 * `meta` serialises the same: no UTF-8 encoding of the same kilobytes per response.
 * @example envelopeJson(memoizeJson({ symbols: [entry] }), { cached: true }) // the same Buffer on every call
 */
export function envelopeJson(data: unknown, meta: unknown): string | Buffer {
  const dataText = data !== null && typeof data === "object" ? memo.get(data) : undefined;
  if (dataText === undefined) return toJson({ data, meta });
  const metaText = toJson(meta);
  const kept = envelopes.get(data as object);
  if (kept && kept.metaText === metaText) return kept.bytes;
  const bytes = Buffer.from(`{"data":${dataText},"meta":${metaText}}`);
  envelopes.set(data as object, { metaText, bytes });
  return bytes;
}
