/**
 * The plan checks of `AccountAuth.assertEntitled`, shared by every store: entitlement, the OPRA
 * agreement, and the plan's symbol list. See docs/api.md#accounts-and-keys.
 */
import { ApiError } from "../errors";
import { OPRA_ENTITLEMENTS, planDefinition } from "./plans";
import type { Entitlement, Principal } from "./types";

/**
 * Throw 403 `not_entitled` / `opra_agreement_required` unless `p`'s plan covers `entitlement` and
 * `symbols`. `opraSigned` is read only for OPRA data (a function: the store may have to look it up).
 * Symbols the market does not know (`isKnownSymbol` false) are left to the route (dropped, or 404).
 */
export function assertPlanEntitled(
  p: Principal,
  entitlement: Entitlement,
  symbols: readonly string[] | undefined,
  opraSigned: boolean | (() => boolean),
  isKnownSymbol?: (symbol: string) => boolean,
): void {
  if (entitlement === "none") return;
  const def = planDefinition(p.plan);
  if (!def.entitlements.has(entitlement)) {
    throw new ApiError(403, "not_entitled", `The ${p.plan} plan does not include ${entitlement} data.`);
  }
  if (OPRA_ENTITLEMENTS.has(entitlement)) {
    const signed = typeof opraSigned === "function" ? opraSigned() : opraSigned;
    if (!signed) {
      throw new ApiError(403, "opra_agreement_required", "This data requires a signed OPRA subscriber agreement on the account.");
    }
  }
  if (def.symbols && symbols && symbols.length > 0) {
    const outside = symbols.filter((s) => {
      const sym = s.trim().toUpperCase();
      return !def.symbols!.has(sym) && (!isKnownSymbol || isKnownSymbol(sym));
    });
    if (outside.length > 0) {
      const shown = outside.slice(0, 10).join(", ") + (outside.length > 10 ? ", ..." : "");
      throw new ApiError(403, "not_entitled", `The ${p.plan} plan does not include these symbols: ${shown}.`, {
        details: { symbols: outside },
      });
    }
  }
}
