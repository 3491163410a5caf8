import { EmptyQuerySchema } from "../../../lib/api/common";
import { SymbolCatalogDataSchema } from "../../../lib/api/positioning";
import { etDateOf } from "../../../lib/time";
import { FIRST_HISTORY_DATE } from "./grid-route";
import { positioningRoute } from "./positioning-route";

/** `GET /v1/symbols`: every positioning symbol (option roots and tickers). Free. */
export const symbolsRoute = positioningRoute({
  host: "base",
  module: "positioning",
  method: "GET",
  path: "/v1/symbols",
  operationId: "listSymbols",
  cost: 0,
  entitlement: "none",
  query: EmptyQuerySchema,
  data: SymbolCatalogDataSchema,
  cacheControl: "private, max-age=300",
  summary: "Symbol catalog",
  description:
    "Every symbol the positioning endpoints serve, one entry per option root (SPXW and SPX are separate boards), with " +
    "its underlying, kind, plan tiers, metrics and the ET dates its history covers. Free.",
  tags: ["Meta"],
  handler: async ({ state, nowMs }) => {
    const catalog = await state.catalog();
    const today = etDateOf(nowMs);
    const symbols = [...catalog.entries()].map(([symbol, info]) => ({
      symbol,
      isIndex: info.type === "index",
      name: info.name,
      type: info.type,
      underlying: info.underlying,
      previousNames: [] as string[],
      metrics: ["gamma", "vanna"] as ("gamma" | "vanna")[],
      tiers: info.tiers,
      simulated: info.simulated,
      history: { from: FIRST_HISTORY_DATE, to: today },
    }));
    return { data: { symbols }, meta: {} };
  },
});
