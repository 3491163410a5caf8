import { SPOT_CURVE_MAX_POINTS, SpotCurveDataSchema, SpotCurveQuerySchema } from "../../../lib/api/positioning";
import { EXPOSURE_UNITS, ZERO_GAMMA_PROFILE } from "../../../lib/positioning";
import { apiErrors } from "../../errors";
import { gridRoute } from "./grid-route";
import { knownSymbols, perSymbol } from "./service";
import { boardShape } from "./shape-runner";
import { freshnessMeta } from "../freshness-meta";

/** `GET /v1/gex/profile`: the dealer exposure curve over a spot grid. 1 credit per call, like the levels. */
export const spotCurveRoute = gridRoute({
  path: "/v1/gex/profile",
  operationId: "getSpotProfile",
  cost: 1,
  entitlement: "positioning",
  query: SpotCurveQuerySchema,
  check: (q) => {
    const points = 2 * Math.round((q.rangePct ?? ZERO_GAMMA_PROFILE.rangePct) / (q.stepPct ?? ZERO_GAMMA_PROFILE.stepPct)) + 1;
    if (points > SPOT_CURVE_MAX_POINTS) {
      throw apiErrors.invalidParameter("stepPct", `rangePct / stepPct gives ${points} points; at most ${SPOT_CURVE_MAX_POINTS} (widen stepPct or narrow rangePct).`);
    }
  },
  data: SpotCurveDataSchema,
  cacheControl: "private, max-age=5",
  summary: "Dealer exposure over a spot grid (the curve behind zero gamma)",
  description:
    "Total dealer gamma (or vanna) exposure of the live board's selected expirations, every listed strike, recomputed " +
    "at hypothetical spots over +-rangePct in stepPct steps (default +-10% in 0.1% steps) with IVs and times held. With " +
    "the defaults, its zero crossing nearest spot is /v1/gex/levels' zeroGamma level. Unknown symbols are left out.",
  handler: async ({ query, state, nowMs, signal, principal }) => {
    const symbols = await knownSymbols(state, query.symbols);
    const options = {
      metric: query.metric,
      maxExpirations: query.maxExpirations,
      ...(query.expirations ? { expirations: query.expirations } : {}),
      ...(query.rangePct !== undefined ? { rangePct: query.rangePct } : {}),
      ...(query.stepPct !== undefined ? { stepPct: query.stepPct } : {}),
    };
    const tenant = principal?.accountId ?? "";
    const entries = await perSymbol(symbols, (s) => boardShape(state, { kind: "curve", symbol: s, nowMs, options }, signal, tenant));
    const m = entries[0].meta;
    return {
      data: {
        symbols: entries.map((e) => ({ symbol: e.symbol, asOf: e.asOf, spot: e.spot, rangePct: e.rangePct, stepPct: e.stepPct, points: e.points, zero: e.zero })),
      },
      meta: {
        metric: query.metric,
        resolution: "1m",
        mode: "live",
        // How old the oldest board is, by the one staleness rule (docs/methodology.md#staleness).
        ...freshnessMeta(state.services, Math.min(...entries.map((e) => Date.parse(e.asOf))), nowMs),
        cached: false,
        engine: m.engine,
        simulated: entries.some((e) => e.meta.simulated),
        signModel: m.signModel,
        unit: EXPOSURE_UNITS[query.metric],
      },
    };
  },
});
