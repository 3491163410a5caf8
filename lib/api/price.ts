/**
 * Request and response schemas of the price module on {atlas_url} (spec "Price endpoints";
 * atlas.yaml names and bounds). The server's route files and the typed client (lib/client) import
 * these same objects.
 */
import * as z from "zod";
import { normalizeResolution, RESOLUTIONS } from "../price";
import { boolParam, intParam, symbolsParam, TICKER_RE } from "./params";
import { lastEventIdParam } from "./streams";

// --- parameters ---

const INT_RE = /^[+-]?\d{1,15}$/;

/** A required Unix-seconds integer (`from`, `to`). */
export function unixSecondsParam(description: string) {
  const error = "must be an integer (Unix seconds).";
  return z.preprocess((v) => (typeof v === "string" && INT_RE.test(v) ? Number(v) : v), z.number({ error }).int({ error })).meta({ description });
}

/** `countback`: an optional integer of at least 1. */
const countbackParam = z
  .preprocess(
    (v) => (typeof v === "string" && INT_RE.test(v) ? Number(v) : v),
    z.number({ error: "must be an integer of at least 1." }).int({ error: "must be an integer of at least 1." }).min(1, { error: "must be an integer of at least 1." }),
  )
  .optional()
  .meta({ description: "Return exactly this many bars ending at `to` (fewer only when history runs out); overrides `from`." });

/** `resolution`: one of the spec's values; `1D`/`1W` (as charting clients send them) mean `D`/`W`. */
export const resolutionParam = z
  .preprocess((v) => (typeof v === "string" ? (normalizeResolution(v) ?? v) : v), z.enum(RESOLUTIONS, { error: `must be one of ${RESOLUTIONS.join(", ")}.` }))
  .meta({ description: "Bar size: minutes (`1` `2` `3` `5` `15` `30` `60` `240` `480`), `D` or `W` (`1D`/`1W` accepted)." });

/** A ticker, trimmed and upper-cased, checked against the ticker grammar (history). */
export const tickerParam = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.string().regex(TICKER_RE, { error: "expected a ticker such as SPY." }))
  .meta({ description: "Ticker, e.g. `SPY`." });

/** A ticker as given, trimmed and upper-cased; malformed ones are answered by the handler (`/v1/symbols`). */
const rawSymbolParam = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .meta({ description: "Ticker, e.g. `SPY`." });

/** `extended`: pre- and post-market bars too. */
const extendedParam = boolParam(false, "Add pre-market (04:00-09:30 ET) and post-market (16:00-20:00 ET) bars. Intraday only.");

/** `limit` of `/v1/search`. */
const searchLimitParam = intParam({ min: 1, max: 500, default: 25, description: "Most results (1-500)." });

// --- queries ---

/** Query of `/v1/history`. */
export const HistoryQuerySchema = z.object({
  symbol: tickerParam,
  resolution: resolutionParam,
  from: unixSecondsParam("Window start, Unix seconds (UTC), inclusive. Ignored when `countback` is set."),
  to: unixSecondsParam("Window end, Unix seconds (UTC), exclusive: the window is [from, to)."),
  countback: countbackParam,
  extended: extendedParam,
});

/** Query of `/v1/symbols` on {atlas_url}. */
export const PriceSymbolQuerySchema = z.object({ symbol: rawSymbolParam });

/** Query of `/v1/search`. */
export const SearchQuerySchema = z.object({
  query: z.string().max(64, { error: "at most 64 characters." }).meta({ description: "Search text: ticker or name fragment." }),
  limit: searchLimitParam,
  type: z.enum(["stock", "etf", "index"], { error: "must be one of stock, etf, index." }).optional().meta({ description: "Only this symbol type." }),
  exchange: z.string().max(16).optional().meta({ description: "Only this exchange (NASDAQ, NYSE, ARCA, CBOE)." }),
});

/** Symbols per bar stream (reference: at most 10). */
export const MAX_BAR_STREAM_SYMBOLS = 10;

const STREAM_RESOLUTIONS = ["1", "2", "3", "5", "15", "30"] as const;

/** Query of `/v1/stream/bars`. */
export const BarStreamQuerySchema = z.object({
  symbols: symbolsParam(MAX_BAR_STREAM_SYMBOLS, "Comma-separated symbols (at most 10), as /v1/search returns them."),
  resolution: z
    .enum(STREAM_RESOLUTIONS, { error: `must be one of ${STREAM_RESOLUTIONS.join(", ")}.` })
    .default("1")
    .meta({ description: "Bar size in minutes (the 1-minute tier of /v1/history)." }),
  lastEventId: lastEventIdParam,
});

// --- responses ---

/** The UDF datafeed configuration (`/v1/config`). */
export const DatafeedConfigSchema = z.object({
  supports_search: z.boolean(),
  supports_group_request: z.boolean(),
  supports_marks: z.boolean(),
  supports_timescale_marks: z.boolean(),
  supports_time: z.boolean(),
  supported_resolutions: z.array(z.enum(RESOLUTIONS)),
  max_fetch_trading_days: z
    .record(z.string(), z.number().int())
    .meta({ description: "Trading days one /v1/history request may span, per resolution (the limits the server enforces)." }),
  intraday_multipliers: z.array(z.string()),
  exchanges: z.array(z.object({ value: z.string(), name: z.string(), desc: z.string() })),
  symbols_types: z.array(z.object({ name: z.string(), value: z.string() })),
  simulated: z.boolean(),
});

/** The UDF history body: bars, or `no_data` (with `nextTime`). */
const num = z.array(z.number());

export const HistoryBodySchema = z.union([
  z.object({
    s: z.literal("ok"),
    t: z.array(z.number().int()).meta({ description: "Bar open times, Unix seconds, oldest first." }),
    o: num,
    h: num,
    l: num,
    c: num,
    v: num,
    bv: num.optional().meta({ description: "Buyer-initiated volume (equities)." }),
    sv: num.optional().meta({ description: "Seller-initiated volume (equities)." }),
    uv: num.optional().meta({ description: "Unclassified volume (equities)." }),
  }),
  z.object({
    s: z.literal("no_data"),
    nextTime: z.number().int().optional().meta({ description: "Unix seconds of the nearest earlier bar, when one exists." }),
  }),
]);

/** One `/v1/search` result. */
const SearchResultSchema = z.object({
  symbol: z.string().meta({ description: "Identifier to pass to /v1/symbols and /v1/history." }),
  ticker: z.string(),
  description: z.string(),
  exchange: z.string(),
  type: z.enum(["index", "etf", "stock"]),
  kind: z.literal("index").optional(),
});

/** Body of `/v1/search`. */
export const SearchResultsSchema = z.array(SearchResultSchema);

/** The UDF symbol info record (spec, "Price-module records"). */
export const UdfSymbolInfoSchema = z.object({
  ticker: z.string(),
  name: z.string(),
  description: z.string().meta({ description: "Name; says `simulated market data` when the data is simulated." }),
  type: z.enum(["index", "etf", "stock"]),
  session: z.string(),
  timezone: z.string(),
  exchange: z.string(),
  listed_exchange: z.string(),
  minmov: z.number().int(),
  pricescale: z.number().int(),
  has_intraday: z.boolean(),
  has_daily: z.boolean(),
  has_weekly_and_monthly: z.boolean(),
  has_seconds: z.literal(false).meta({ description: "Always false: the finest bar is one minute." }),
  seconds_multipliers: z.array(z.string()).meta({ description: "Always empty: no second bars." }),
  has_ticks: z.literal(false).meta({ description: "Always false: no tick charts." }),
  intraday_multipliers: z.array(z.string()),
  supported_resolutions: z.array(z.enum(RESOLUTIONS)),
  volume_precision: z.number().int(),
  data_status: z.string().meta({ description: "`simulated` for the embedded simulator, else `streaming`." }),
  format: z.literal("price"),
  simulated: z.boolean(),
});

/** Body of `/v1/time`: Unix seconds. */
export const ServerTimeSchema = z.number().int().meta({ description: "Unix seconds, as a bare number in a text/plain body." });

/** Body of `/v1/stream/bars`: an event stream (read it with lib/stream-client). */
export const BarEventStreamSchema = z
  .string()
  .meta({ description: "text/event-stream: connected, bar, symbol_unavailable, credits, reconnect, closed; `: ping` comments." });
