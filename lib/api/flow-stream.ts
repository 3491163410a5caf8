/**
 * Request schema of `/v1/flow/stream` (the reference's streamFlow: the live-feed filter vocabulary,
 * `show_calls`/`show_puts` and `min_size`/`max_size`, not the feed's `option_type`/`min_contracts`).
 * See docs/api.md#flow-stream.
 */
import * as z from "zod";
import { FLOW_LIST_MAX } from "./flow";
import { boolParam, numberParam, optionalIntParam, symbolsParam } from "./params";
import { lastEventIdParam } from "./streams";

/** Premium percentile bands of `min_percentile` (reference enum). */
const FLOW_STREAM_PERCENTILES = [0, 50, 75, 90, 95, 99] as const;

/** Concurrent flow streams per account (reference: "5 concurrent streams per account"). */
export const FLOW_STREAMS_PER_ACCOUNT = 5;

const percentileParam = z
  .preprocess(
    (v) => (typeof v === "string" && /^\d{1,3}$/.test(v) ? Number(v) : v),
    z.union(FLOW_STREAM_PERCENTILES.map((p) => z.literal(p)) as unknown as [z.ZodLiteral<0>, z.ZodLiteral<50>], {
      error: `must be one of ${FLOW_STREAM_PERCENTILES.join(", ")}.`,
    }),
  )
  .optional()
  .meta({ description: "Minimum premium percentile band of the ticker (0, 50, 75, 90, 95, 99); trades without a band are excluded once set." });

/** `limit` is refused on the stream (reference: 400 rather than silently ignored). */
const refusedLimit = z
  .unknown()
  .refine((v) => v === undefined, { error: "is not valid on the stream (it replays no history); load a backlog from /v1/flow/{ticker} instead." })
  .optional()
  .meta({ description: "Not accepted: the stream carries live trades only (400)." });

const scoreParam = (description: string) => optionalIntParam({ min: -100, max: 100, description });

export const FlowStreamQuerySchema = z.object({
  ticker: symbolsParam(FLOW_LIST_MAX, `Comma-separated tickers to include (at most ${FLOW_LIST_MAX}); omit for every ticker.`).optional(),
  exclude_ticker: symbolsParam(FLOW_LIST_MAX, "Comma-separated tickers to exclude.").optional(),
  min_premium: numberParam({ min: 0, description: "Minimum premium per trade, USD." }),
  max_premium: numberParam({ min: 0, description: "Maximum premium per trade, USD." }),
  min_size: optionalIntParam({ min: 0, description: "Minimum contracts per trade." }),
  max_size: optionalIntParam({ min: 0, description: "Maximum contracts per trade." }),
  show_calls: boolParam(true, "Include calls."),
  show_puts: boolParam(true, "Include puts."),
  show_below_bid: boolParam(true, "Include prints below the bid (BB)."),
  show_bid: boolParam(true, "Include prints at the bid (B)."),
  show_mid: boolParam(true, "Include prints between bid and ask (AB, M, BA)."),
  show_ask: boolParam(true, "Include prints at the ask (A)."),
  show_above_ask: boolParam(true, "Include prints above the ask (AA)."),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
  only_0dte: boolParam(false, "Only contracts expiring today."),
  min_oi: optionalIntParam({ min: 0, description: "Minimum open interest (trades with unknown OI are excluded once set)." }),
  max_oi: optionalIntParam({ min: 0, description: "Maximum open interest (trades with unknown OI are excluded once set)." }),
  min_vol_oi: numberParam({ min: 0, description: "Minimum volume / open interest (trades without a ratio are excluded once set)." }),
  max_vol_oi: numberParam({ min: 0, description: "Maximum volume / open interest (trades without a ratio are excluded once set)." }),
  min_iv: numberParam({ min: 0, description: "Minimum implied volatility, decimal (trades without IV are excluded once set)." }),
  max_iv: numberParam({ min: 0, description: "Maximum implied volatility, decimal (trades without IV are excluded once set)." }),
  only_sweeps: boolParam(false, "Only multi-exchange sweeps."),
  only_crosses: boolParam(false, "Only pre-negotiated crosses."),
  only_multi_leg: boolParam(false, "Only legs of multi-leg strategies."),
  exclude_multi_leg: boolParam(false, "Exclude multi-leg legs."),
  min_flow_score: scoreParam("Minimum Flow Score (-100..100)."),
  max_flow_score: scoreParam("Maximum Flow Score (-100..100)."),
  abs_min_flow_score: optionalIntParam({ min: 0, max: 100, description: "Minimum absolute Flow Score (0..100)." }),
  min_percentile: percentileParam,
  show_stocks: boolParam(true, "Include single-stock underlyings."),
  show_etf: boolParam(true, "Include ETF underlyings."),
  show_indices: boolParam(true, "Include index underlyings."),
  limit: refusedLimit,
  lastEventId: lastEventIdParam,
});

export type FlowStreamQuery = z.output<typeof FlowStreamQuerySchema>;

/** `data` of `/v1/flow/stream` (an SSE body, described for the OpenAPI document). */
export const FlowStreamEventsSchema = z
  .string()
  .meta({ description: "text/event-stream: connected, trade, lagged, credits, resumed, reconnect, closed; `: ping` comments." });

/** Body of `/v1/flow/stream/ws`: a WebSocket upgrade. */
export const FlowStreamWebSocketSchema = z.string().meta({ description: "WebSocket upgrade; then one JSON message {id, event, data} per event, as on /v1/flow/stream." });
