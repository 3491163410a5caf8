import type { z } from "zod";
import { apiErrors } from "../errors";

/** Longest raw parameter value accepted (longer is `invalid_parameter`, never parsed). */
const MAX_PARAM_CHARS = 4096;

/** Issue text for the client; zod's own wording is only the fallback. */
function issueText(issue: z.core.$ZodIssue): string {
  const msg = issue.message ?? "";
  if (issue.code === "invalid_value" && "values" in issue && Array.isArray(issue.values)) {
    return `must be one of ${issue.values.map(String).join(", ")}.`;
  }
  return msg.startsWith("Invalid input") || msg.startsWith("Too ") ? "value not allowed." : msg;
}

/**
 * Validate a record of raw strings against an object schema, one field at a time, so every error
 * names its parameter: absent and required -> 400 `missing_parameter`; present and invalid (or
 * given twice) -> 400 `invalid_parameter` with what is allowed. Unknown names are ignored unless
 * `unknown` is `reject`. An empty value counts as absent.
 * @example validateParams(z.object({ metric: enumParam(["gamma", "vanna"], "gamma") }), new URLSearchParams("metric=vanna"))
 */
export function validateParams<S extends z.ZodObject>(schema: S, search: URLSearchParams | Record<string, string>, unknown: "ignore" | "reject" = "ignore"): z.output<S> {
  // Clients repeat the same query (a dashboard polling one heatmap): its answer is kept, and each
  // call gets its own shallow copy (a route's `check` may fill in defaults) over frozen values
  // (arrays of symbols, ...), so no call changes what the next receives. Failures are not kept.
  const key = `${unknown}|${search instanceof URLSearchParams ? search.toString() : JSON.stringify(search)}`;
  // Long queries are validated every time: the memo's memory stays bounded whatever callers send.
  if (key.length > MEMO_MAX_KEY_CHARS) return { ...deepFreeze(parseParams(schema, search, unknown)) };
  let memo = validated.get(schema);
  if (!memo) {
    memo = new Map();
    validated.set(schema, memo);
  }
  const hit = memo.get(key);
  if (hit) return { ...hit } as z.output<S>;
  const out = deepFreeze(parseParams(schema, search, unknown));
  if (memo.size >= VALIDATED_PER_SCHEMA) memo.delete(memo.keys().next().value!);
  memo.set(key, out);
  return { ...out };
}

/** Validated queries kept per schema (oldest dropped first), each at most this long: < 1 MB per schema. */
const VALIDATED_PER_SCHEMA = 256;
const MEMO_MAX_KEY_CHARS = 1024;
const validated = new WeakMap<z.ZodObject, Map<string, object>>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function parseParams<S extends z.ZodObject>(schema: S, search: URLSearchParams | Record<string, string>, unknown: "ignore" | "reject"): z.output<S> {
  const shape = schema.shape as Record<string, z.ZodType>;
  const raw = new Map<string, string>();
  const entries = search instanceof URLSearchParams ? [...search.entries()] : Object.entries(search);
  for (const [name, value] of entries) {
    // Own keys only: `in` would take `constructor`, `hasOwnProperty`, `__proto__` from Object.prototype as known.
    if (!Object.hasOwn(shape, name)) {
      if (unknown === "reject") {
        throw apiErrors.invalidParameter(name.slice(0, 64), "unknown parameter.");
      }
      continue;
    }
    if (raw.has(name)) throw apiErrors.invalidParameter(name, "given more than once.");
    if (value.length > MAX_PARAM_CHARS) throw apiErrors.invalidParameter(name, "value too long.");
    raw.set(name, value);
  }
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const value = raw.get(name);
    const input = value === undefined || value.trim() === "" ? undefined : value;
    const r = field.safeParse(input);
    if (r.success) {
      if (r.data !== undefined) out[name] = r.data;
      continue;
    }
    if (input === undefined) throw apiErrors.missingParameter(name);
    throw apiErrors.invalidParameter(name, issueText(r.error.issues[0]));
  }
  return out as z.output<S>;
}
