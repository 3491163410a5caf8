/**
 * Query- and path-parameter builders of the flow routes: the reference's names (flowseeker.yaml),
 * our bounds and messages. The schemas built from them live in `./flow`.
 */
import * as z from "zod";
import { FlowScoreWeightsSchema, type MONEYNESS_CATEGORIES, RATIO_TIMEFRAMES, type FlowScoreWeights } from "../flow";
import { parseIsoInstantNs, tsNsToMs } from "../market/prints/ts-ns";
import { dateParam, enumParam, numberParam, optionalIntParam } from "./params";

// --- per-ticker flow endpoints (feed, sweeps, tide) ---

/** `option_type`: `call`, `put` or `all` (default). */
export const optionTypeParam = () => enumParam(["call", "put", "all"], "all", "Calls, puts or both.");

/** `timeframe`: the trailing window of the session so far (`5m` to `1d`). */
export const timeframeParam = (def: (typeof RATIO_TIMEFRAMES)[number]) =>
  enumParam(RATIO_TIMEFRAMES, def, "Trailing window ending now (or at the close of a past session); `1d` is the whole session.");

/** `date`: a session date, default the current trading date. */
export const sessionDateParam = () => dateParam("Trading date YYYY-MM-DD; default the current trading date.");

const MONEYNESS_TOKENS = ["deep_itm", "itm", "atm", "otm", "deep_otm", "all"] as const;

/**
 * A comma-separated list of allowed tokens (`all` alone or among others means no filter), output
 * as the set of tokens or null for "all".
 */
function tokenListParam<const T extends readonly string[]>(tokens: T, description: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return null;
      const out = new Set<T[number]>();
      for (const part of raw.split(",")) {
        const t = part.trim().toLowerCase();
        if (t === "") continue;
        if (!(tokens as readonly string[]).includes(t)) {
          ctx.addIssue({ code: "custom", message: `must be one or more of ${tokens.join(", ")} (comma-separated), not "${t.slice(0, 24)}".` });
          return z.NEVER;
        }
        out.add(t as T[number]);
      }
      return out.size === 0 || out.has("all") ? null : out;
    })
    .meta({ description });
}

/** `moneyness`: comma-separated categories; output as the library's upper-case names, or null. */
const moneynessParam = () =>
  tokenListParam(MONEYNESS_TOKENS, "Comma-separated moneyness categories (deep_itm, itm, atm, otm, deep_otm) or all.").transform((s) =>
    s === null ? null : new Set([...s].map((t) => t.toUpperCase() as (typeof MONEYNESS_CATEGORIES)[number])),
  );

/** `trade_type`: `sweep`, `multi_leg` (comma-separated) or `all`. */
export const tradeTypeParam = () => tokenListParam(["sweep", "multi_leg", "all"] as const, "Comma-separated trade types (sweep, multi_leg) or all.");

/**
 * An instant as RFC 3339 or Unix seconds, output as epoch ms.
 * @example instantOrSecondsParam("...").parse("1709737200") // 1709737200000
 */
export function instantOrSecondsParam(description: string) {
  return z.string().optional().transform(parseInstantOrSeconds).meta({ description });
}

/** `instantOrSecondsParam`, required. */
export function requiredInstantOrSecondsParam(description: string) {
  return z
    .string({ error: "is required: an RFC 3339 instant or Unix seconds." })
    .transform((raw, ctx) => parseInstantOrSeconds(raw, ctx) as number)
    .meta({ description });
}

function parseInstantOrSeconds(raw: string | undefined, ctx: z.RefinementCtx): number | undefined {
  if (raw === undefined) return undefined;
  if (/^\d{1,12}(\.\d+)?$/.test(raw)) return Math.floor(Number(raw) * 1000);
  if (!z.iso.datetime({ offset: true }).safeParse(raw).success) {
    ctx.addIssue({ code: "custom", message: "must be an RFC 3339 instant (2024-03-05T15:01:00Z) or Unix seconds." });
    return z.NEVER;
  }
  return Date.parse(raw);
}

/** `conviction_weights`: a JSON object of Flow Score weights, validated by the library's schema. */
export const convictionWeightsParam = () =>
  z
    .string()
    .max(1000)
    .optional()
    .transform((raw, ctx): FlowScoreWeights | undefined => {
      if (raw === undefined) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: "custom", message: 'must be a JSON object of weights, for example {"size":0.3,"sweep":0.2,...}.' });
        return z.NEVER;
      }
      const r = FlowScoreWeightsSchema.safeParse(json);
      if (!r.success) {
        ctx.addIssue({ code: "custom", message: r.error.issues[0]?.message ?? "weights are not valid." });
        return z.NEVER;
      }
      return r.data;
    })
    .meta({ description: "JSON object overriding the Flow Score conviction weights (non-negative, summing to 0.95-1.05)." });

/** The contract filters the feed, sweeps and tide share (reference names). */
export const contractFilterShape = {
  min_premium: numberParam({ min: 0, description: "Minimum premium per trade, USD." }),
  max_premium: numberParam({ min: 0, description: "Maximum premium per trade, USD." }),
  option_type: optionTypeParam(),
  moneyness: moneynessParam(),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
  min_strike: numberParam({ min: 0, description: "Minimum strike (inclusive)." }),
  max_strike: numberParam({ min: 0, description: "Maximum strike (inclusive)." }),
  expiration: dateParam("Only this expiration (YYYY-MM-DD)."),
};

// --- dark-pool routes: comma lists, HH:MM, instants given as ISO-8601 or epoch nanoseconds ---

/** A comma-separated list of names (sectors, industries): trimmed, lower-cased, as a set. */
export function nameSetParam(description: string) {
  return z
    .string()
    .transform((raw, ctx) => {
      const names = raw
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s !== "");
      if (names.length === 0) {
        ctx.addIssue({ code: "custom", message: "give at least one name." });
        return z.NEVER;
      }
      return new Set(names);
    })
    .optional()
    .meta({ description });
}

/** `HH:MM` (00:00 to 23:59) as minutes after midnight. */
export function clockTimeParam(description: string) {
  return z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "must be a time HH:MM (00:00 to 23:59)." })
    .transform((v) => Number(v.slice(0, 2)) * 60 + Number(v.slice(3, 5)))
    .optional()
    .meta({ description, examples: ["09:30"] });
}

/** Instants accepted by `after`/`before`: 2000-01-01 to 2100-01-01 UTC (the calendar covers them). */
const INSTANT_MIN_MS = Date.UTC(2000, 0, 1);
const INSTANT_MAX_MS = Date.UTC(2100, 0, 1);

/** An instant as ISO-8601 with a zone or as epoch nanoseconds, output as `{tsMs, tsNs}`. */
export function instantNsParam(description: string) {
  return z
    .string()
    .transform((raw, ctx) => {
      let parsed: { tsMs: number; tsNs: string } | null = null;
      if (/^\d{1,20}$/.test(raw)) {
        const tsNs = raw.replace(/^0+(?=\d)/, "");
        parsed = { tsMs: tsNsToMs(tsNs), tsNs };
      } else parsed = parseIsoInstantNs(raw);
      if (parsed && parsed.tsMs >= INSTANT_MIN_MS && parsed.tsMs < INSTANT_MAX_MS) return parsed;
      ctx.addIssue({
        code: "custom",
        message: "must be an ISO-8601 instant with a zone (2024-03-06T14:30:00Z) or epoch nanoseconds, from 2000 to 2099.",
      });
      return z.NEVER;
    })
    .optional()
    .meta({ description, examples: ["2024-03-06T14:30:00Z"] });
}
