import { ExpiryBucketsDataSchema, ExpiryBucketsQuerySchema } from "../../../lib/api/positioning";
import { gridRoute } from "./grid-route";
import { knownSymbols, perSymbol } from "./service";
import { boardShape } from "./shape-runner";
import { freshnessMeta } from "../freshness-meta";

/** `GET /v1/gex/buckets`: dealer exposure by days-to-expiry bucket. 1 credit per call, like the levels. */
export const expiryBucketsRoute = gridRoute({
  path: "/v1/gex/buckets",
  operationId: "getExpiryBuckets",
  cost: 1,
  entitlement: "positioning",
  query: ExpiryBucketsQuerySchema,
  data: ExpiryBucketsDataSchema,
  cacheControl: "private, max-age=5",
  summary: "Dealer exposure by days-to-expiry bucket (0DTE, 1-7, 8-30, 31-90, beyond)",
  description:
    "The live board's dealer exposure (gamma by default; any heatmap metric) over every listed strike and unexpired " +
    "expiration (narrow with maxStrikes, maxExpirations or expirations), summed per expiration and grouped by calendar " +
    "days to expiry from the board's ET date. The buckets add up to total. Unknown symbols are left out; 404 " +
    "symbol_not_found only when none is known.",
  handler: async ({ query, state, nowMs, signal, principal }) => {
    const symbols = await knownSymbols(state, query.symbols);
    const options = {
      metric: query.metric,
      maxStrikes: query.maxStrikes,
      maxExpirations: query.maxExpirations,
      ...(query.expirations ? { expirations: query.expirations } : {}),
    };
    const tenant = principal?.accountId ?? "";
    const entries = await perSymbol(symbols, (s) => boardShape(state, { kind: "buckets", symbol: s, nowMs, options }, signal, tenant));
    const m = entries[0].meta;
    return {
      data: {
        symbols: entries.map((e) => ({ symbol: e.symbol, asOf: e.asOf, spot: e.spot, sessionDate: e.sessionDate, buckets: e.buckets, total: e.total })),
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
        unit: m.unit,
      },
    };
  },
});
