/**
 * Request and response schemas of the positioning routes (spec "Positioning endpoints"). The
 * server's route files and the typed client (lib/client) import these same objects, so the two
 * cannot drift; the route files add handlers, costs and checks.
 */
import * as z from "zod";
import { POSITIONING_DEFAULTS as D } from "../positioning/defaults";
import {
  DailyStatSchema,
  EXPOSURE_METRICS,
  EXPIRY_BUCKETS,
  HeatmapCellSchema,
  HeatmapFrameSchema,
  KeyLevelsEntrySchema,
  LevelSchema,
  LevelsSummarySchema,
  ZERO_GAMMA_PROFILE,
} from "../positioning";
import { boolParam, dateListParam, dateParam, enumParam, instantParam, intOrAllParam, numberParam, requiredDateParam, symbolsParam } from "./params";
import { lastEventIdParam } from "./streams";

/** First session date with history (spec: replay and statistics go back to 2023-03-28). */
export const FIRST_HISTORY_DATE = "2023-03-28";
/**
 * Midnight ET starting that date, ms: 04:00Z (EDT), written out so that importing the library asks
 * the tz database nothing (test/positioning/first-history.test.ts checks it against `etInstant`).
 */
export const FIRST_HISTORY_MS = Date.UTC(2023, 2, 28, 4);
/** Hard ceiling of symbols per positioning call (spec: at most 10). */
export const MAX_POSITIONING_SYMBOLS = 10;
/** Hard ceiling of symbols per stream connection (spec: up to 10). */
export const MAX_STREAM_SYMBOLS = 10;
/** Reference limits of `/v1/historical/range`: a 15-minute window, 5 symbols. */
export const RANGE_LIMITS = Object.freeze({ windowMs: 15 * 60_000, symbols: 5 });
/** Spec limits of `/v1/stats/daily`. */
export const STATS_LIMITS = Object.freeze({ symbols: 50, calendarDays: 31, symbolSessions: 400 });

// --- queries ---

/** Query parameters shared by heatmap, replay and levels (reference names and defaults). */
export const gridQueryShape = {
  symbols: symbolsParam(
    MAX_POSITIONING_SYMBOLS,
    "One ticker or option root, or a comma-separated list (at most limits.symbolsPerHeatmapCall, never more than 10). " +
      "SPXW is every daily and weekly S&P 500 expiration; SPX only the AM-settled monthlies.",
  ),
  metric: enumParam(
    EXPOSURE_METRICS,
    "gamma",
    "Which dealer exposure each strike carries: gamma and vanna (the spec's), or delta (DEX), charm or vomma (docs/methodology.md#exposure).",
  ),
  maxStrikes: intOrAllParam({
    min: 1,
    max: D.maxStrikesCap,
    default: D.maxStrikes,
    description: "How many strikes nearest spot to return (1-1000), or all.",
  }),
  maxExpirations: intOrAllParam({
    min: 1,
    max: D.maxExpirationsCap,
    default: D.maxExpirations,
    description: "How many of the nearest unexpired expirations to net into each strike (1-60), or all. Ignored with expirations.",
  }),
  expirations: dateListParam(
    "Net each strike over exactly these expirations (comma-separated YYYY-MM-DD). Dates the board lacks are ignored; none matching is 404 expiration_not_found.",
  ),
  includeEmpty: boolParam(false, "Keep interior strikes whose every cell is below $50 in absolute value."),
  layout: enumParam(["net", "matrix"], "net", "net: one value per strike; matrix: also the strike x expiration grid."),
};

/** The board query (the grid query shape, validated). */
export const GridQuerySchema = z.object(gridQueryShape);

/**
 * `extended` of the board routes (heatmap, replay, stream): boards of the extended session too.
 * The reference takes it on `/v1/stats/daily` only; the board routes accept it so every
 * extended statistics frame can be replayed on its own (docs/api.md#extended-hours).
 */
const boardExtendedParam = boolParam(
  false,
  "Serve extended-session boards too (04:00-20:00 ET; 17:00 on early closes): option quotes carried from the session's board, repriced at the extended-hours spot. Default false: regular-session boards only (09:30-16:00 ET), the last close outside it.",
);

/**
 * `oi` of the live board routes (heatmap, levels, stream): which open interest weights each
 * contract. `flow` is the session's estimate from the tape (docs/methodology.md#flow-open-interest).
 */
const oiParam = enumParam(
  ["exchange", "flow"],
  "exchange",
  "exchange: the exchange's open interest as of the session's start (the previous night's). flow: the session's open interest estimated from the morning's exchange open interest and the day's prints so far (opening and closing volume by days to expiry, distance from spot, side and size; an estimate, docs/methodology.md#flow-open-interest).",
);

/** Query of `/v1/heatmap`: the board query plus `extended` and `oi`. */
export const HeatmapQuerySchema = z.object({ ...gridQueryShape, extended: boardExtendedParam, oi: oiParam });

/** Query of `/v1/historical`: the board query plus the instant to replay. */
export const HistoricalQuerySchema = z.object({
  ...gridQueryShape,
  extended: boardExtendedParam,
  at: instantParam(`RFC 3339 instant to replay; the board at or before it is returned. Not before ${FIRST_HISTORY_DATE}.`),
});

const { layout: _rangeLayout, includeEmpty: _rangeIncludeEmpty, symbols: _rangeSymbols, ...rangeBoardShape } = gridQueryShape;

/** Query of `/v1/historical/range`. */
export const HistoricalRangeQuerySchema = z.object({
  symbols: symbolsParam(RANGE_LIMITS.symbols, "One ticker or option root, or a comma-separated list of up to 5."),
  from: instantParam(`RFC 3339 start of the window (inclusive), not before ${FIRST_HISTORY_DATE}.`),
  to: instantParam("RFC 3339 end of the window (inclusive): at most 15 minutes after from, not in the future."),
  ...rangeBoardShape,
});

const { layout: _levelsLayout, ...levelsShape } = gridQueryShape;

/** Query of `/v1/gex/levels`: the board query without `layout`, plus `oi`. */
export const LevelsQuerySchema = z.object({ ...levelsShape, oi: oiParam });

/** Query of `/v1/stats/daily`. */
export const StatsDailyQuerySchema = z.object({
  symbols: symbolsParam(STATS_LIMITS.symbols, "Comma-separated tickers, up to 50."),
  from: requiredDateParam(`First ET session date, not before ${FIRST_HISTORY_DATE}.`),
  to: dateParam("Last ET session date, inclusive; default today (ET); at most 31 calendar days after from."),
  extended: boolParam(false, "Cover 04:00-20:00 ET (960 frames; 780 on early closes) instead of the regular 09:30-16:00 ET session."),
  metric: enumParam(["gamma", "vanna"], "gamma", "Which dealer exposure the cells hold."),
});

/** Most hypothetical spots a `/v1/gex/profile` curve may have: 2 * rangePct / stepPct + 1. */
export const SPOT_CURVE_MAX_POINTS = 2001;

/** Query of `/v1/gex/buckets`: the symbols, metric and selection; every strike and expiration by default. */
export const ExpiryBucketsQuerySchema = z.object({
  symbols: gridQueryShape.symbols,
  metric: gridQueryShape.metric,
  maxStrikes: intOrAllParam({
    min: 1,
    max: D.maxStrikesCap,
    default: "all",
    description: "How many strikes nearest spot to sum (1-1000), or all (default).",
  }),
  maxExpirations: intOrAllParam({
    min: 1,
    max: D.maxExpirationsCap,
    default: "all",
    description: "How many of the nearest unexpired expirations to bucket (1-60), or all (default). Ignored with expirations.",
  }),
  expirations: gridQueryShape.expirations,
});

/** Query of `/v1/gex/profile`: the symbols, gamma or vanna, the expirations and the spot grid. */
export const SpotCurveQuerySchema = z.object({
  symbols: gridQueryShape.symbols,
  metric: enumParam(["gamma", "vanna"], "gamma", "Which dealer exposure the curve sums (the profile kernel's two)."),
  maxExpirations: gridQueryShape.maxExpirations,
  expirations: gridQueryShape.expirations,
  rangePct: numberParam({
    min: 0.5,
    max: 50,
    description: `Half-width of the spot grid, percent of spot (0.5-50; default ${ZERO_GAMMA_PROFILE.rangePct}, the zero-gamma profile's).`,
  }),
  stepPct: numberParam({
    min: 0.01,
    max: 5,
    description: `Step of the spot grid, percent of spot (0.01-5; default ${ZERO_GAMMA_PROFILE.stepPct}); at most ${SPOT_CURVE_MAX_POINTS} points.`,
  }),
});

/** Query of `/v1/stream` and `/v1/stream/ws`: the heatmap's board options plus a resume cursor. */
export const StreamQuerySchema = z.object({
  ...gridQueryShape,
  extended: boardExtendedParam,
  symbols: symbolsParam(
    MAX_STREAM_SYMBOLS,
    "Comma-separated tickers or option roots, at most limits.symbolsPerStream (never more than 10); more is 400 invalid_parameter.",
  ),
  oi: oiParam,
  lastEventId: lastEventIdParam,
});

/** The reference's single-symbol (v1) stream: at most this many strikes, never `all`. */
export const V1_STREAM_MAX_STRIKES = 400;

/**
 * Query of `/v1/stream` (SSE): the stream query, plus the reference's legacy single-symbol form.
 * `symbol=` selects the v1 wire format unless `format=v2`; one of `symbols` and `symbol` is
 * required, not both (the route checks; docs/api.md#v1-stream-format).
 */
export const HeatmapStreamQuerySchema = StreamQuerySchema.extend({
  symbols: StreamQuerySchema.shape.symbols.optional().meta({
    description:
      "Comma-separated tickers or option roots, at most limits.symbolsPerStream (never more than 10); more is 400 invalid_parameter. Required unless symbol= is sent.",
  }),
  symbol: symbolsParam(1, "One ticker: the legacy v1 wire format unless format=v2. Send symbol or symbols, not both.").optional(),
  format: z
    .enum(["v1", "v2"], { error: "must be one of v1, v2." })
    .optional()
    .meta({ description: "Wire format: v2 by default with symbols=, v1 by default with symbol=. v1 is single-symbol only." }),
});

// --- responses ---

/** A heatmap strike as the API documents it: the library's cell. */
const StrikeNodeSchema = HeatmapCellSchema.extend({
  value: HeatmapCellSchema.shape.value.meta({ description: "Net dealer exposure at this strike over the returned expirations, dollars." }),
  velocityPct: HeatmapCellSchema.shape.velocityPct.meta({
    description: "Live heatmap only: percent change against the same strike 5 frames earlier.",
  }),
});

const { symbol, asOf, spot, ...frameRest } = HeatmapFrameSchema.shape;

/**
 * A heatmap entry: the library's frame plus the previous close and the change against it,
 * placed after `spot` as the responses place them.
 */
export const HeatmapEntrySchema = z.object({
  symbol,
  asOf: asOf.meta({ description: "ISO-8601 UTC instant of the board." }),
  spot,
  previousClose: z.number().optional(),
  priceChange: z.number().optional(),
  priceChangePercent: z.number().optional(),
  ...frameRest,
  strikes: z.array(StrikeNodeSchema),
});

/** `data` of `/v1/heatmap` and `/v1/historical`. */
export const HeatmapDataSchema = z.object({ symbols: z.array(HeatmapEntrySchema) });

/** `meta` of the board routes. */
export const PositioningMetaSchema = z.object({
  metric: z.enum(EXPOSURE_METRICS),
  resolution: z.string(),
  mode: z.enum(["live", "historical"]),
  asOf: z.string().optional().meta({ description: "Live answers: ISO-8601 UTC instant of the oldest board behind the answer." }),
  ageS: z.number().optional().meta({ description: "Live answers: seconds from `asOf` to now." }),
  stale: z
    .boolean()
    .optional()
    .meta({ description: "Live answers: true when the board is more than the server's limit (default 20 minutes) behind the newest board that should exist." }),
  cached: z.boolean(),
  engine: z.string().optional(),
  simulated: z.boolean().optional(),
  signModel: z.object({ calls: z.number(), puts: z.number() }).optional(),
  unit: z.string().optional(),
  delayed: z.boolean().optional(),
  delayMinutes: z.number().optional(),
  extended: z.boolean().optional().meta({ description: "Whether extended-session boards were asked for (heatmap, replay)." }),
  oi: z
    .enum(["exchange", "flow"])
    .optional()
    .meta({ description: "Which open interest weighted the contracts (heatmap, levels): exchange, or flow (the session's estimate from the tape)." }),
  attribution: z.object({}).loose().optional(),
  flipMethod: z.string().optional().meta({ description: "How `summary.flip` was found (key levels only)." }),
  zeroGammaMethod: z.string().optional().meta({ description: "How `summary.zeroGamma` was found (key levels only)." }),
});

const AxisSchema = z.object({
  id: z.number().int(),
  strikes: z.array(z.number()).meta({ description: "Visible strikes, ascending." }),
  expirations: z.array(z.string()).meta({ description: "Expirations (YYYY-MM-DD) netted into each value." }),
});

const RangeFrameSchema = z.object({
  asOf: z.string().meta({ description: "Snapshot instant (millisecond precision)." }),
  axis: z.number().int().meta({ description: "Id of the axis in `axes` these values are aligned to." }),
  spot: z.number(),
  previousClose: z.number().nullable().meta({ description: "The previous session's close; null when the market has none." }),
  values: z.array(z.number()).meta({ description: "Net exposure per strike, aligned with the axis's `strikes`." }),
});

/** One symbol's frames in a `/v1/historical/range` window, axes listed once. */
export const SymbolRangeSchema = z.object({
  symbol: z.string(),
  axes: z.array(AxisSchema),
  frames: z.array(RangeFrameSchema).meta({ description: "Snapshots in the window, oldest first." }),
});

/** `data` of `/v1/historical/range`. */
export const HistoricalRangeDataSchema = z.object({ from: z.string(), to: z.string(), symbols: z.array(SymbolRangeSchema) });

/** The library's level, its sign convention documented. */
const LevelDocSchema = LevelSchema.extend({
  distancePct: LevelSchema.shape.distancePct.meta({ description: "Percent distance from spot (negative = below)." }),
});

/** A `/v1/gex/levels` entry: the library's, with the documented level in every place one stands. */
const LevelsEntrySchema = KeyLevelsEntrySchema.extend({
  previousClose: z.number().nullable().meta({ description: "The underlying's close of the session before the board's, as on the heatmap; null when unknown." }),
  kingNode: LevelDocSchema.nullable(),
  levels: z.array(LevelDocSchema),
  summary: LevelsSummarySchema.extend({ positiveWall: LevelDocSchema.nullable(), negativeWall: LevelDocSchema.nullable() }),
});

/** `data` of `/v1/gex/levels`. */
export const LevelsDataSchema = z.object({ symbols: z.array(LevelsEntrySchema) });

/** `data` of `/v1/stats/daily`. */
export const StatsDailyDataSchema = z.object({
  from: z.string(),
  to: z.string(),
  symbols: z.array(
    z.object({
      symbol: z.string(),
      days: z.array(DailyStatSchema),
    }),
  ),
});

/** `meta` of `/v1/stats/daily`. */
export const StatsDailyMetaSchema = z.object({
  metric: z.enum(["gamma", "vanna"]),
  resolution: z.string(),
  mode: z.string(),
  cached: z.boolean(),
  delayed: z.boolean(),
  delayMinutes: z.number(),
  extended: z.boolean(),
  simulated: z.boolean(),
  attribution: z.object({}).loose(),
});

const bucketNames = EXPIRY_BUCKETS.map((b) => b.bucket) as [(typeof EXPIRY_BUCKETS)[number]["bucket"], ...(typeof EXPIRY_BUCKETS)[number]["bucket"][]];

/** One days-to-expiry bucket of `/v1/gex/buckets`. */
const ExpiryBucketSchema = z.object({
  bucket: z.enum(bucketNames).meta({ description: "0dte, 1-7, 8-30, 31-90 or beyond (calendar days to expiry, ET)." }),
  minDte: z.number().int(),
  maxDte: z.number().int().nullable().meta({ description: "Last day of the bucket, inclusive; null for beyond." }),
  expirations: z.array(z.string()).meta({ description: "The selected expirations in the bucket, ascending." }),
  value: z.number().meta({ description: "Dealer exposure of the bucket's expirations over the selected strikes, in meta.unit." }),
});

/** `data` of `/v1/gex/buckets`. */
export const ExpiryBucketsDataSchema = z.object({
  symbols: z.array(
    z.object({
      symbol: z.string(),
      asOf: z.string(),
      spot: z.number(),
      sessionDate: z.string().meta({ description: "ET calendar date of the board, from which days to expiry count." }),
      buckets: z.array(ExpiryBucketSchema),
      total: z.number().meta({ description: "Exposure of every selected strike and expiration: the buckets' sum." }),
    }),
  ),
});

/** `data` of `/v1/gex/profile`. */
export const SpotCurveDataSchema = z.object({
  symbols: z.array(
    z.object({
      symbol: z.string(),
      asOf: z.string(),
      spot: z.number(),
      rangePct: z.number(),
      stepPct: z.number(),
      points: z
        .array(z.object({ spot: z.number(), value: z.number() }))
        .meta({ description: "Hypothetical spots, ascending, and the total dealer exposure at each (meta.unit)." }),
      zero: z
        .object({ level: z.number().nullable(), distancePct: z.number().nullable(), crossings: z.array(z.number()) })
        .meta({ description: "Where the curve crosses zero (linear between points); level: the crossing nearest spot (for gamma, /v1/gex/levels' zeroGamma)." }),
    }),
  ),
});

const CatalogEntrySchema = z.object({
  symbol: z.string(),
  isIndex: z.boolean(),
  name: z.string(),
  type: z.enum(["index", "etf", "stock"]),
  underlying: z.string(),
  previousNames: z.array(z.string()),
  metrics: z.array(z.enum(["gamma", "vanna"])),
  tiers: z.array(z.string()),
  simulated: z.boolean(),
  history: z.object({ from: z.string(), to: z.string() }).nullable(),
});

/** `data` of the positioning `/v1/symbols` catalog. */
export const SymbolCatalogDataSchema = z.object({ symbols: z.array(CatalogEntrySchema) });

/** Body of `/v1/stream`: an event stream (read it with lib/stream-client). */
export const HeatmapEventStreamSchema = z
  .string()
  .meta({ description: "text/event-stream: connected, resumed, snapshot, velocity, credits, symbol_unavailable, reconnect, closed; `: ping` comments." });

/** Body of `/v1/stream/ws`: a WebSocket upgrade. */
export const HeatmapWebSocketSchema = z.string().meta({ description: "WebSocket upgrade; then one JSON message {id, event, data} per event, as on /v1/stream." });
