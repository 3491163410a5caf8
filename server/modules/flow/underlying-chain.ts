// GET /v1/underlying/{ticker}/chain: one expiration's strikes with the day's volume and premium,
// open interest, IV, last prices and max pain (spec "Flow endpoints", `/v1/underlying/{ticker}/chain`
// parameters; record "Chain snapshot").
import { FlowTickerParamsSchema, UnderlyingChainQuerySchema } from "../../../lib/api/flow";
import { expirationChain, ExpirationChainSchema } from "../../../lib/flow";
import { ApiError } from "../../errors";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "./flow-route";
import { resolveFlowDate, resolveFlowTicker, sessionTape, sessionUptoMs, tapeTrades } from "./tape";

export const underlyingChainRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/chain",
  operationId: "getUnderlyingChain",
  cost: 3,
  query: UnderlyingChainQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: (_q, p) => [p.ticker.toUpperCase()],
  data: ExpirationChainSchema,
  summary: "Option chain snapshot for one expiration",
  description:
    "Every strike of the expiration with call and put volume, premium, open interest, IV and last price for the session (so far), " +
    "the underlying price, the OI totals and max pain (the settlement price that minimises the intrinsic value paid to holders).",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    const [tape, board] = await Promise.all([
      sessionTape(state, ticker, date, nowMs),
      services.market.chain(ticker, sessionUptoMs(date, nowMs) - 1),
    ]);
    const latest = board && board.sessionDate === date ? board : tape.board;
    const data = expirationChain(tapeTrades(tape), latest, { ticker, expiration: q.expiration, minVolume: q.min_volume });
    const listed = latest?.expirations.includes(q.expiration) ?? false;
    if (!listed && data.strikes.length === 0) {
      throw new ApiError(404, "expiration_not_found", `No expiration ${q.expiration} for ${ticker} on ${date} (parameter \`expiration\`).`);
    }
    if (data.underlyingPrice === 0 || !Number.isFinite(data.underlyingPrice)) data.underlyingPrice = latest?.spot ?? 0;
    return { data, meta: flowMeta(services, requestId) };
  },
});
