import { POSITIONING_DEFAULTS as D } from "./defaults";
import { PositioningError } from "./errors";
import type { ExposureGridOptions, ExposureGridOptionsInput } from "./options-schema";
import { EXPOSURE_METRICS, type ExposureMetric } from "./types";

export type { ExposureGridOptions, ExposureGridOptionsInput } from "./options-schema";

/** The documented default sign model: calls +1, puts -1. */
export const DEFAULT_SIGN_MODEL = Object.freeze({ calls: 1, puts: -1 });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function fail(field: string, message: string): never {
  throw new PositioningError("invalid_parameter", `${field}: ${message}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An integer as zod's `.int()` takes it: a safe integer. */
function safeInt(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v);
}

function maxStrikes(v: unknown): number | "all" {
  if (v === undefined) return D.maxStrikes;
  if (v === "all") return v;
  if (!safeInt(v) || v > D.maxStrikesCap) fail("maxStrikes", `expected "all" or an integer <= ${D.maxStrikesCap}`);
  return Math.max(1, v);
}

function maxExpirations(v: unknown): number | "all" {
  if (v === undefined) return D.maxExpirations;
  if (v === "all") return v;
  if (!safeInt(v) || v < 1 || v > D.maxExpirationsCap) fail("maxExpirations", `expected "all" or an integer from 1 to ${D.maxExpirationsCap}`);
  return v;
}

function signModel(v: unknown): { calls: number; puts: number } {
  if (v === undefined) return { ...DEFAULT_SIGN_MODEL };
  if (!isRecord(v)) fail("signModel", "expected an object { calls, puts }");
  for (const k of ["calls", "puts"] as const) if (typeof v[k] !== "number" || !Number.isFinite(v[k])) fail(`signModel.${k}`, "expected a finite number");
  return { calls: v.calls as number, puts: v.puts as number };
}

/**
 * Validate options once at the library boundary, applying the defaults. Accepts and returns
 * exactly what `ExposureGridOptionsSchema` does (unknown keys dropped), without zod.
 *
 * @throws PositioningError `invalid_parameter` naming the first offending field
 * @example parseGridOptions({ maxStrikes: 0 }).maxStrikes // 1 (below 1 is treated as 1)
 * @see docs/methodology.md#window
 */
export function parseGridOptions(input: ExposureGridOptionsInput | undefined): ExposureGridOptions {
  const o: unknown = input ?? {};
  if (!isRecord(o)) fail("options", "expected an object");
  const metric = o.metric === undefined ? "gamma" : o.metric;
  if (!EXPOSURE_METRICS.includes(metric as ExposureMetric)) fail("metric", `expected one of ${EXPOSURE_METRICS.join(", ")}`);
  const strikes = maxStrikes(o.maxStrikes);
  const expirationCount = maxExpirations(o.maxExpirations);
  const includeEmpty = o.includeEmpty === undefined ? false : o.includeEmpty;
  if (typeof includeEmpty !== "boolean") fail("includeEmpty", "expected a boolean");
  const e = o.expirations;
  if (e !== undefined) {
    if (!Array.isArray(e) || e.length < 1) fail("expirations", "expected a non-empty array of YYYY-MM-DD dates");
    e.forEach((d, i) => {
      if (typeof d !== "string" || !ISO_DATE.test(d)) fail(`expirations.${i}`, "expected a YYYY-MM-DD date");
    });
  }
  const layout = o.layout === undefined ? "net" : o.layout;
  if (layout !== "net" && layout !== "matrix") fail("layout", 'expected "net" or "matrix"');
  // Keys in the schema's order, `expirations` only when the input has the key (as zod returns them).
  const out: ExposureGridOptions = { metric: metric as ExposureMetric, maxStrikes: strikes, maxExpirations: expirationCount, includeEmpty } as ExposureGridOptions;
  if ("expirations" in o) out.expirations = e === undefined ? undefined : [...(e as string[])];
  out.layout = layout;
  out.signModel = signModel(o.signModel);
  return out;
}
