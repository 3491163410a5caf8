// Query parameters and trade filters shared by the per-ticker flow endpoints (feed, sweeps, tide):
// the reference's names (flowseeker.yaml), our bounds and messages.
import { z } from "zod";
import { FlowScoreWeightsSchema, MONEYNESS_CATEGORIES, RATIO_TIMEFRAMES, type FlowScoreWeights, type ScoredTrade } from "../../../lib/flow";
import { apiErrors } from "../../errors";
import { dateParam, enumParam, numberParam, optionalIntParam } from "../params";

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
export const moneynessParam = () =>
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
        ctx.addIssue({ code: "custom", message: "must be a JSON object of weights, for example {\"size\":0.3,\"sweep\":0.2,...}." });
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

/** Parsed contract filters. */
export interface ContractFilter {
  min_premium?: number;
  max_premium?: number;
  option_type: "call" | "put" | "all";
  moneyness: ReadonlySet<string> | null;
  min_dte?: number;
  max_dte?: number;
  min_strike?: number;
  max_strike?: number;
  expiration?: string;
}

/** 400 when a `min_` bound is above its `max_` (the names of both in the message). */
export function checkBounds(q: Record<string, unknown>, pairs: ReadonlyArray<[string, string]>): void {
  for (const [lo, hi] of pairs) {
    const a = q[lo];
    const b = q[hi];
    if (typeof a === "number" && typeof b === "number" && a > b) throw apiErrors.invalidParameter(lo, `must not exceed \`${hi}\` (${a} > ${b}).`);
  }
}

/** The bound pairs of `contractFilterShape`. */
export const CONTRACT_FILTER_BOUNDS: ReadonlyArray<[string, string]> = [
  ["min_premium", "max_premium"],
  ["min_dte", "max_dte"],
  ["min_strike", "max_strike"],
];

/** True when a scored trade passes the contract filters (every bound inclusive). */
export function matchesContractFilter(t: ScoredTrade, f: ContractFilter): boolean {
  return (
    (f.min_premium === undefined || t.premiumUsd >= f.min_premium) &&
    (f.max_premium === undefined || t.premiumUsd <= f.max_premium) &&
    (f.option_type === "all" || (f.option_type === "call") === (t.right === "C")) &&
    (f.moneyness === null || f.moneyness.has(t.moneyness)) &&
    (f.min_dte === undefined || t.dte >= f.min_dte) &&
    (f.max_dte === undefined || t.dte <= f.max_dte) &&
    (f.min_strike === undefined || t.strike >= f.min_strike) &&
    (f.max_strike === undefined || t.strike <= f.max_strike) &&
    (f.expiration === undefined || t.expiry === f.expiration)
  );
}
