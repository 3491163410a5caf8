// GET /v1/underlying/{ticker}/chain: one expiration's strikes with the day's volume and premium,
// open interest, IV, last prices and max pain (spec "Flow endpoints", `/v1/underlying/{ticker}/chain`
// parameters; record "Chain snapshot").
import { FlowTickerParamsSchema, UnderlyingChainQuerySchema } from "../../../../lib/api/flow";
import { expirationChain, ExpirationChainSchema } from "../../../../lib/flow";
import { lastListingInstantsMs } from "../../../../lib/market/board-instant";
import type { ChainSnapshot, MarketData } from "../../../../lib/market/market-data";
import { ApiError } from "../../../errors";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { resolveFlowDate, resolveFlowTicker, sessionTape, sessionUptoMs, tapeTrades } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

/**
 * The board an expiration's columns (open interest, IV, last prices) come from: the board at the
 * instant, or, for an expiration that settled by then (a past session's 0DTE, gone from the
 * closing board), the last board that listed it.
 */
async function listingBoard(market: MarketData, ticker: string, latest: ChainSnapshot | null, expiration: string, date: string): Promise<ChainSnapshot | null> {
  if (!latest || latest.expirations.includes(expiration) || expiration > date) return latest;
  for (const t of lastListingInstantsMs(expiration)) {
    const b = await market.chain(ticker, t);
    if (b?.expirations.includes(expiration)) return b;
  }
  return latest;
}

export const underlyingChainRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/chain",
  operationId: "getUnderlyingChain",
  cost: 3,
  query: UnderlyingChainQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: ExpirationChainSchema,
  summary: "Option chain snapshot for one expiration",
  description:
    "Every strike of the expiration with call and put volume, premium, open interest, IV and last price for the session (so far), " +
    "the underlying price, the OI totals and max pain (the settlement price that minimises the intrinsic value paid to holders).",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    // The board at the request instant, the same rule as every module (docs/methodology.md#the-board-at-an-instant).
    const [tape, board] = await Promise.all([sessionTape(state, ticker, date, nowMs), services.market.chain(ticker, sessionUptoMs(date, nowMs))]);
    const latest = board && board.sessionDate === date ? board : tape.board;
    const listing = await listingBoard(services.market, ticker, latest, q.expiration, date);
    const data = expirationChain(tapeTrades(tape), listing, { ticker, expiration: q.expiration, minVolume: q.min_volume });
    const listed = listing?.expirations.includes(q.expiration) ?? false;
    if (!listed && data.strikes.length === 0) {
      throw new ApiError(404, "expiration_not_found", `No expiration ${q.expiration} for ${ticker} on ${date} (parameter \`expiration\`).`);
    }
    if (latest) data.underlyingPrice = latest.spot;
    else if (!Number.isFinite(data.underlyingPrice)) data.underlyingPrice = 0;
    return { data, meta: flowMeta(services, requestId) };
  },
});
