// Trade filters shared by the per-ticker flow endpoints (feed, sweeps, tide): the parsed form of
// `contractFilterShape` and the checks between bounds. The parameter schemas live in lib/api/flow-params.ts.
import type { ScoredTrade } from "../../../../lib/flow";
import { apiErrors } from "../../../errors";

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
