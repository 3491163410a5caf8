// GET /v1/flow/sector/{sector}: one GICS sector's flow, its top tickers and industries
// (flowseeker.yaml `getSectorFlow`). @see docs/methodology.md#flow-market-wide-screens
import { SectorFlowDataSchema, SectorFlowParamsSchema, SectorFlowQuerySchema } from "../../../../lib/api/flow-market";
import { directionalPremium, resolveSector, sectorFlow, SECTOR_ETFS } from "../../../../lib/flow";
import { ApiError } from "../../../errors";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { scanTickers, summariesOf } from "../sessions/session-summary";
import { flowUniverse, resolveFlowDate } from "../sessions/tape";

export const sectorFlowRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/sector/:sector",
  operationId: "getSectorFlow",
  cost: 3,
  params: SectorFlowParamsSchema,
  query: SectorFlowQuerySchema,
  data: SectorFlowDataSchema,
  summary: "Options flow of one sector",
  description:
    "The session's flow over every ticker of a GICS sector (the caller's plan's tickers; the sector ETF included): premium and volume " +
    "by right, FIR, put/call volume ratio, the top tickers by |net premium| and the industries by premium.",
  tags: ["Sector"],
  handler: async ({ query: q, params, state, nowMs, services, requestId, principal, signal }) => {
    const raw = params.sector; // decoded by the executor: "Health%20Care" reads as "Health Care"
    const sector = resolveSector(raw);
    if (!sector) {
      const etfs = SECTOR_ETFS.map((s) => s.etf).join(", ");
      throw new ApiError(404, "not_found", `Unknown \`sector\` "${raw.slice(0, 40)}": use a sector ETF (${etfs}) or a GICS sector name.`);
    }
    const date = resolveFlowDate(q.date, nowMs);
    const universe = await flowUniverse(state);
    const members = (await scanTickers(state, principal)).filter((t) => universe.get(t)?.sector === sector.sector);
    const summaries = await summariesOf(state, members, date, nowMs, signal);
    const flow = sectorFlow(
      summaries.map((s) => ({ ticker: s.ticker, industry: universe.get(s.ticker)?.industry ?? "", totals: s.row, ...directionalPremium(s.overviewTrades) })),
      q.top_n,
    );
    return { data: { sector: sector.sector, etf: sector.etf, date, ...flow }, meta: flowMeta(services, requestId) };
  },
});
