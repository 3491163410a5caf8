import { HistoricalQuerySchema } from "../../../lib/api/positioning";
import { SLOT_HISTORICAL } from "../../accounts/types";
import { apiErrors } from "../../errors";
import { heatmapResponse, replayEntry } from "./frames";
import { FIRST_HISTORY_DATE, FIRST_HISTORY_MS, gridRoute, HeatmapDataSchema } from "./grid-route";

/** Seconds a client is told to wait when its replay slots are full. */
export const HISTORICAL_RETRY_AFTER_S = 1;

/** `GET /v1/historical`: the board at or before `at`, no velocity. 5 credits per call. */
export const historicalRoute = gridRoute({
  path: "/v1/historical",
  operationId: "getHistoricalHeatmap",
  cost: 5,
  entitlement: "replay",
  query: HistoricalQuerySchema,
  check: (q, { nowMs }) => {
    if (q.at < FIRST_HISTORY_MS) throw apiErrors.invalidParameter("at", `history begins on ${FIRST_HISTORY_DATE}.`);
    if (q.at > nowMs) throw apiErrors.invalidParameter("at", "must not be in the future.");
  },
  concurrency: { kind: SLOT_HISTORICAL, max: (p) => p.limits.historicalInFlight, retryAfterS: HISTORICAL_RETRY_AFTER_S },
  data: HeatmapDataSchema,
  cacheControl: "private, max-age=3600",
  summary: "Replay: the heatmap at a past instant (one or more symbols)",
  description:
    "The one-minute board at or before `at` for each symbol, the same shape as the live heatmap without velocityPct. " +
    "Replays in flight are limited per account (limits.historicalInFlight); over it is 429 too_many_concurrent_requests.",
  handler: ({ query, state }) => heatmapResponse(state, query, "historical", (s) => replayEntry(state, s, query, query.at)),
});
