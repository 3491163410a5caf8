import * as z from "zod";

/**
 * Query-parameter schemas. Each takes the raw string (or `undefined` when absent) and outputs the
 * typed value; `z.toJSONSchema(schema, { io: "input" })` gives the OpenAPI parameter schema.
 * Messages are written to follow "Invalid value for `name`: ..." (see server/http/validate.ts).
 */

const INT_RE = /^[+-]?\d{1,15}$/;
const toInt = (v: unknown): unknown => (typeof v === "string" && INT_RE.test(v) ? Number(v) : v);
/** A decimal number as text (sign, fraction and exponent allowed). */
export const NUM_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const toNum = (v: unknown): unknown => (typeof v === "string" && NUM_RE.test(v) ? Number(v) : v);
const toBool = (v: unknown): unknown => (v === "true" ? true : v === "false" ? false : v);

/** Ticker grammar after upper-casing: letters, digits, `.`, `-`, `_`, 1-12 characters. */
export const TICKER_RE = /^[A-Z0-9][A-Z0-9._-]{0,11}$/;

function intSchema(o: { min?: number; max?: number }) {
  const range =
    o.min !== undefined && o.max !== undefined
      ? `an integer from ${o.min} to ${o.max}`
      : o.min !== undefined
        ? `an integer of at least ${o.min}`
        : o.max !== undefined
          ? `an integer of at most ${o.max}`
          : "an integer";
  let inner = z.number({ error: `must be ${range}.` }).int({ error: `must be ${range}.` });
  if (o.min !== undefined) inner = inner.min(o.min, { error: `must be ${range}.` });
  if (o.max !== undefined) inner = inner.max(o.max, { error: `must be ${range}.` });
  return z.preprocess(toInt, inner);
}

/** An integer in `[min, max]` with a default. @example intParam({ min: 1, max: 500, default: 100 }) */
export function intParam(o: { min?: number; max?: number; default: number; description?: string }) {
  const d = intSchema(o).default(o.default);
  return o.description ? d.meta({ description: o.description }) : d;
}

/** An optional integer in `[min, max]` (absent -> undefined). */
export function optionalIntParam(o: { min?: number; max?: number; description?: string } = {}) {
  const d = intSchema(o).optional();
  return o.description ? d.meta({ description: o.description }) : d;
}

/** A finite number in `[min, max]`. */
export function numberParam(o: { min?: number; max?: number; description?: string } = {}) {
  let inner = z.number({ error: "must be a number." });
  if (o.min !== undefined) inner = inner.min(o.min, { error: `must be at least ${o.min}.` });
  if (o.max !== undefined) inner = inner.max(o.max, { error: `must be at most ${o.max}.` });
  const s = z.preprocess(toNum, inner).optional();
  return o.description ? s.meta({ description: o.description }) : s;
}

/** One of a fixed set with a default; the error lists the allowed values. @example enumParam(["gamma", "vanna"], "gamma") */
export function enumParam<const T extends readonly [string, ...string[]]>(values: T, def: T[number], description?: string) {
  const s = z.enum(values, { error: `must be one of ${values.join(", ")}.` }).default(def as never);
  return description ? s.meta({ description }) : s;
}

/** One of a fixed set, optional (absent -> undefined). */
export function optionalEnumParam<const T extends readonly [string, ...string[]]>(values: T, description?: string) {
  const s = z.enum(values, { error: `must be one of ${values.join(", ")}.` }).optional();
  return description ? s.meta({ description }) : s;
}

/** `true` or `false`. */
export function boolParam(def: boolean, description?: string) {
  const s = z.preprocess(toBool, z.boolean({ error: "must be true or false." })).default(def);
  return description ? s.meta({ description }) : s;
}

/** An integer in `[min, max]` or the word `all` (reference `maxStrikes`, `maxExpirations`). */
export function intOrAllParam(o: { min: number; max: number; default: number | "all"; description?: string }) {
  const error = `must be an integer from ${o.min} to ${o.max}, or all.`;
  const s = z.union([z.literal("all"), z.preprocess(toInt, z.number().int().min(o.min).max(o.max))], { error }).default(o.default);
  return o.description ? s.meta({ description: o.description }) : s;
}

/** A calendar date `YYYY-MM-DD`. */
export function dateParam(description?: string) {
  const s = requiredDateParam().optional();
  return description ? s.meta({ description }) : s;
}

/** A required calendar date `YYYY-MM-DD`. */
export function requiredDateParam(description?: string) {
  const s = z.iso.date({ error: "must be a date YYYY-MM-DD." });
  return description ? s.meta({ description }) : s;
}

/** An RFC 3339 instant with `Z` or an offset, output as epoch milliseconds. */
export function instantParam(description?: string) {
  const s = z.iso.datetime({ offset: true, error: "must be an RFC 3339 instant such as 2024-03-05T15:01:00Z." }).transform((v) => Date.parse(v));
  return description ? s.meta({ description }) : s;
}

/**
 * A comma-separated ticker list: trimmed, upper-cased, de-duplicated in order; at most `max`
 * distinct symbols (more is an error, never truncated).
 * @example symbolsParam(10).parse("spy, QQQ,spy") // ["SPY", "QQQ"]
 */
export function symbolsParam(max: number, description?: string) {
  const s = z.string().transform((raw, ctx) => {
    const out: string[] = [];
    for (const part of raw.split(",")) {
      const sym = part.trim().toUpperCase();
      if (sym === "") continue;
      if (!TICKER_RE.test(sym)) {
        ctx.addIssue({ code: "custom", message: `"${sym.slice(0, 24)}" is not a ticker.` });
        return z.NEVER;
      }
      if (!out.includes(sym)) out.push(sym);
    }
    if (out.length === 0) {
      ctx.addIssue({ code: "custom", message: "give at least one ticker." });
      return z.NEVER;
    }
    if (out.length > max) {
      ctx.addIssue({ code: "custom", message: `at most ${max} symbols per call (got ${out.length}).` });
      return z.NEVER;
    }
    return out;
  });
  return description ? s.meta({ description, examples: ["SPXW,SPY,QQQ"] }) : s;
}

/** A comma-separated list of dates `YYYY-MM-DD` (reference `expirations`). */
export function dateListParam(description?: string) {
  const s = z
    .string()
    .transform((raw, ctx) => {
      const out: string[] = [];
      for (const part of raw.split(",")) {
        const d = part.trim();
        if (d === "") continue;
        if (!z.iso.date().safeParse(d).success) {
          ctx.addIssue({ code: "custom", message: `"${d.slice(0, 24)}" is not a date YYYY-MM-DD.` });
          return z.NEVER;
        }
        if (!out.includes(d)) out.push(d);
      }
      if (out.length === 0) {
        ctx.addIssue({ code: "custom", message: "give at least one date." });
        return z.NEVER;
      }
      return out;
    })
    .optional();
  return description ? s.meta({ description }) : s;
}
