// `GET /v1/board`: one symbol's raw option board at a minute, columnar, for clients that compute
// the exposure themselves (the heatmap page runs the library's kernels in the browser on it).
import { BoardDataSchema, BoardMetaSchema, BoardQuerySchema } from "../../../lib/api/board";
import { SLOT_HISTORICAL } from "../../accounts/types";
import { apiErrors } from "../../errors";
import { cacheShareBytes } from "../../cache/cache-budget";
import { memoBoardColumns } from "../../web/heatmap/board-memo";
import { attribution, FIRST_HISTORY_DATE, FIRST_HISTORY_MS } from "./grid-route";
import { HISTORICAL_RETRY_AFTER_S } from "./historical";
import { positioningRoute } from "./positioning-route";
import { knownSymbols, noData } from "./service";

/** Credits per call: a board feeds any number of heatmaps, so it is priced like one replay. */
export const BOARD_COST = 5;

/** `GET /v1/board`: the board at or before `at` (default: now), one symbol. */
export const boardRoute = positioningRoute({
  host: "base",
  module: "positioning",
  method: "GET",
  path: "/v1/board",
  operationId: "getBoard",
  cost: BOARD_COST,
  entitlement: "replay",
  query: BoardQuerySchema,
  symbolsOf: (q) => q.symbol,
  check: (q, { nowMs }) => {
    if (q.at === undefined) return;
    if (q.at < FIRST_HISTORY_MS) throw apiErrors.invalidParameter("at", `history begins on ${FIRST_HISTORY_DATE}.`);
    if (q.at > nowMs) throw apiErrors.invalidParameter("at", "must not be in the future.");
  },
  concurrency: { kind: SLOT_HISTORICAL, max: (p) => p.limits.historicalInFlight, retryAfterS: HISTORICAL_RETRY_AFTER_S },
  data: BoardDataSchema,
  meta: BoardMetaSchema,
  cacheControl: "private, max-age=60",
  tags: ["Heatmap"],
  summary: "The raw option board at a minute (columnar), for computing exposure client-side",
  description:
    "One symbol's one-minute board at or before `at` (default: the market clock's now) as columns: strikes, expirations " +
    "with their settlement instants, and per contract (open interest > 0) strike row, expiration, right, open interest, bid, " +
    "ask and implied volatility. `exposureGrid` of the library over it gives the numbers `/v1/historical` serves for the same " +
    "minute. Counts against limits.historicalInFlight. 5 credits.",
  handler: async ({ query, state, nowMs }) => {
    const [symbol] = await knownSymbols(state, query.symbol);
    const at = query.at ?? nowMs;
    const chain = await state.services.market.chain(symbol, at);
    if (!chain) throw noData(symbol, at);
    const data = memoBoardColumns(state.services.market, chain, cacheShareBytes(state.services.cacheBytes, "heatmapBoards"));
    return {
      data,
      meta: { simulated: chain.simulated, contracts: data.contracts.oi.length, attribution: attribution(chain.simulated) },
      cacheControl: query.at === undefined ? "private, no-cache" : "private, max-age=3600",
    };
  },
});
