/**
 * An estimate of the heap a cached value holds, for the byte-bounded caches (`lru-cache.ts`).
 * Typed arrays count their `byteLength`; objects, arrays, maps and strings a fixed V8 overhead plus
 * their contents. Large collections are sampled (a few members spread over the collection, scaled
 * to its length; fewer at each level down), so the estimate's cost does not grow with the value's
 * size. Shared parts are counted
 * in every value that holds them (an over-estimate: a budget is then never exceeded through them).
 * @see docs/operations.md#cache-budget
 */

/** V8 overheads on 64-bit Node (pointer compression off), bytes. */
export const HEAP_BYTES = Object.freeze({
  /** A number, boolean or pointer slot (a field, an array element). */
  slot: 8,
  /** An object's header (map, properties, elements pointers). */
  object: 24,
  /** A string's header; its characters add one byte each (Latin-1) or two. */
  string: 16,
  /** A Map or Set entry (hash table slot, key and value pointers, chain). */
  mapEntry: 32,
  /** An ArrayBuffer view's header and its backing store's bookkeeping. */
  typedArray: 96,
});

/** Members measured per top-level collection before scaling to its length (halved per level, at least 4: nested samples multiply). */
const SAMPLE = 32;
/** Nesting below which values count as one slot (cached values are records of records, not deeper). */
const MAX_DEPTH = 6;

function isThenable(v: object): boolean {
  return typeof (v as { then?: unknown }).then === "function";
}

/** Members measured at `depth`. */
function sampleSize(depth: number): number {
  return Math.max(4, SAMPLE >> depth);
}

/** The indexes of a list's members to measure: all when few, else `sample` spread evenly. */
function sampleIndexes(length: number, sample: number): number[] {
  if (length <= sample) return Array.from({ length }, (_, i) => i);
  const step = length / sample;
  return Array.from({ length: sample }, (_, i) => Math.floor(i * step));
}

/** Bytes an object holds outside itself (e.g. its memoized JSON text in a WeakMap). */
export type ExtraBytes = (obj: object) => number;

function estimate(value: unknown, depth: number, seen: Set<object>, extra?: ExtraBytes): number {
  switch (typeof value) {
    case "string":
      return HEAP_BYTES.string + value.length;
    case "number":
    case "boolean":
    case "undefined":
    case "bigint":
    case "symbol":
      return HEAP_BYTES.slot;
    case "function":
      return HEAP_BYTES.object * 2;
  }
  if (value === null) return HEAP_BYTES.slot;
  const obj = value as object;
  if (ArrayBuffer.isView(obj)) return HEAP_BYTES.typedArray + obj.byteLength;
  if (obj instanceof ArrayBuffer) return HEAP_BYTES.typedArray + obj.byteLength;
  if (seen.has(obj) || depth >= MAX_DEPTH || isThenable(obj)) return HEAP_BYTES.slot;
  seen.add(obj);
  let bytes = extra ? extra(obj) : 0;
  const sample = sampleSize(depth);
  if (Array.isArray(obj)) {
    const idx = sampleIndexes(obj.length, sample);
    let sampled = 0;
    for (const i of idx) sampled += estimate(obj[i], depth + 1, seen, extra);
    bytes += HEAP_BYTES.object + obj.length * HEAP_BYTES.slot + (idx.length ? (sampled / idx.length) * obj.length : 0);
  } else if (obj instanceof Map || obj instanceof Set) {
    // Every size/sample-th entry, walked in order (a Map has no index).
    const every = Math.max(1, Math.floor(obj.size / sample));
    let i = 0;
    let measured = 0;
    let sampled = 0;
    for (const entry of obj instanceof Map ? obj.entries() : obj.values()) {
      if (i++ % every !== 0) continue;
      measured++;
      sampled +=
        obj instanceof Map
          ? estimate((entry as [unknown, unknown])[0], depth + 1, seen, extra) + estimate((entry as [unknown, unknown])[1], depth + 1, seen, extra)
          : estimate(entry, depth + 1, seen, extra);
      if (measured === sample) break;
    }
    bytes += HEAP_BYTES.object + obj.size * HEAP_BYTES.mapEntry + (measured ? (sampled / measured) * obj.size : 0);
  } else {
    // Property names live in the shared hidden class: each own property is one slot plus its value
    // (an object used as a dictionary is sampled like a map).
    const keys = Object.keys(obj);
    const idx = sampleIndexes(keys.length, sample);
    let sampled = 0;
    for (const i of idx) sampled += estimate((obj as Record<string, unknown>)[keys[i]], depth + 1, seen, extra);
    bytes += HEAP_BYTES.object + keys.length * HEAP_BYTES.slot + (idx.length ? (sampled / idx.length) * keys.length : 0);
  }
  seen.delete(obj);
  return bytes;
}

/**
 * Estimated heap bytes of `value` (a promise counts as one slot: size what it resolves to), plus
 * `extra(obj)` for every object walked.
 * @example estimateBytes(new Float64Array(1000)) // 8096
 */
export function estimateBytes(value: unknown, extra?: ExtraBytes): number {
  return Math.ceil(estimate(value, 0, new Set(), extra));
}
