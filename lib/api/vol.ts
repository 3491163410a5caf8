/**
 * Request and response schemas of the volatility routes (spec "Volatility endpoints",
 * heatseeker-tempest.yaml under /v1/vol). The server's route files (server/modules/vol/) and the
 * typed client (lib/client) import these same objects, so the two cannot drift; the route files
 * add handlers, costs and checks.
 */
import * as z from "zod";
import { EarningsContextSchema } from "../vol/earnings-context";
import { ConesModuleSchema, IvModuleSchema, SigmaModuleSchema, SurfaceModuleSchema, TermModuleSchema, type SessionCloseReading, type SvxTenor } from "../vol";
import { boolParam, dateParam, enumParam, intParam, NUM_RE, numberParam, symbolsParam } from "./params";
import { lastEventIdParam } from "./streams";

// --- meta and the wrapper's missing entries ---
// The volatility `meta` object (spec "Envelope": module, asOf, sessionDate, marketState, frozen,
// publishedAt, cached, attribution) and the wrapper's `missing[]` entries.

/** Schema of the volatility `meta`. */
export const VolMetaSchema = z.object({
  module: z.string(),
  asOf: z.string().nullable(),
  sessionDate: z.string(),
  marketState: z.enum(["pre_open", "open", "post_close", "closed"]),
  frozen: z.boolean(),
  publishedAt: z.string().nullable(),
  cached: z.boolean(),
  attribution: z.object({}).loose(),
});
export type VolMeta = z.output<typeof VolMetaSchema>;

/** Why a requested symbol has no entry: not a covered symbol, or covered without a board yet. */
const VolMissingSchema = z.object({ symbol: z.string(), reason: z.enum(["not_covered", "no_history"]) });
export type VolMissing = z.output<typeof VolMissingSchema>;

// --- the symbols parameter ---

/** Volatility symbols per call (spec "Limits": 10). */
export const VOL_SYMBOLS_PER_CALL = 10;

/** The `symbols` parameter of every per-symbol volatility route. */
const volSymbolsParam = () =>
  symbolsParam(
    VOL_SYMBOLS_PER_CALL,
    "Comma-separated symbols, up to 10. The S&P complex is keyed on the option root SPXW and the Nasdaq-100 on NDXP (see /v1/vol/symbols).",
  );

/** Query of the per-symbol routes and `/v1/vol/derived`: the symbols only. */
export const VolSymbolsQuerySchema = z.object({ symbols: volSymbolsParam() });

// --- the per-symbol modules ---

/** The seven per-symbol modules, in the reference's order. */
export const VOL_MODULES = ["iv", "term", "cones", "sigma", "surface", "tilt", "events"] as const;
export type VolModuleName = (typeof VOL_MODULES)[number];

const TiltRowSchema = z.object({
  expiration: z.string(),
  dte: z.number(),
  call_strike: z.number(),
  put_strike: z.number(),
  call_spread_pct: z.number(),
  put_spread_pct: z.number(),
  ratio_raw: z.number(),
  ratio_fwd: z.number(),
  tilt: z.number(),
  cheap: z.enum(["call", "put"]),
  /** Each contract's mid above its running premium low in the session, percent (docs/methodology.md#premium-low-and-cheap-from-low). */
  call_from_low_pct: z.number().nullable(),
  put_from_low_pct: z.number().nullable(),
});

/** The `tilt` module: headline tilt, its z-score and 1y percentile, rows per expiry. */
export const TiltModuleSchema = z.object({
  tilt_21: z.number().nullable(),
  tilt_z: z.number().nullable(),
  tilt_pct_1y: z.number().nullable(),
  cheap: z.enum(["call", "put"]).nullable(),
  liquid: z.boolean(),
  headline: TiltRowSchema.nullable(),
  rows: z.array(TiltRowSchema),
});

/** The surface module with the skew percentile over the year. */
export const SurfaceWithPctSchema = SurfaceModuleSchema.extend({
  skew_pct_1y: z.number().nullable(),
  /** SKEW-style index of the symbol's own chain at 30 days, `100 - 10 S` (docs/methodology.md#skew-index). */
  skew_index: z.number().nullable(),
});

/** One past report of the `events` record: its date, timing and the close-to-close move. */
export const EarningsReportSchema = z.object({ date: z.string(), timing: z.enum(["bmo", "amc"]), fiscal_quarter: z.string().nullable(), move_pct: z.number() });

/** The `term` module with its scheduled-earnings exposure (`earnings_context`). */
export const TermWithContextSchema = TermModuleSchema.extend({ earnings_context: EarningsContextSchema });

/** The `events` module (null for a symbol with no scheduled report). */
export const EventsModuleSchema = z
  .object({
    kind: z.literal("earnings"),
    date: z.string(),
    timing: z.enum(["bmo", "amc"]),
    fiscal_quarter: z.string().nullable(),
    at: z.string(),
    days_to_event: z.number().int(),
    implied_move_pct: z.number().nullable(),
    estimate: z.boolean(),
    estimate_move_pct: z.number().nullable(),
    median_move_pct: z.number().nullable(),
    mean_move_pct: z.number().nullable(),
    implied_vs_median: z.number().nullable(),
    reports: z.number().int(),
    record: z.array(EarningsReportSchema),
    vrp: z.object({
      expected_vrp: z.number().nullable(),
      vrp_pct_1y: z.number().nullable(),
      rv20: z.number().nullable(),
      overpaid_share_pct: z.number().nullable(),
    }),
    earnings_context: EarningsContextSchema,
  })
  .nullable();

/** Schemas of the module objects, by name (the OpenAPI response and the tool output). */
const VOL_MODULE_SCHEMAS = {
  iv: IvModuleSchema.nullable(),
  term: TermWithContextSchema.nullable(),
  cones: ConesModuleSchema.nullable(),
  sigma: SigmaModuleSchema.nullable(),
  surface: SurfaceWithPctSchema.nullable(),
  tilt: TiltModuleSchema.nullable(),
  events: EventsModuleSchema,
} as const;

// --- the per-symbol wrapper ---
// Shared by every per-symbol volatility endpoint (spec "Volatility-module records"):
// `data.symbols[]` with `symbol`, `asOf`, `sessionDate`, `stale` and the module object(s),
// `data.missing[]` with reasons; up to 10 symbols per call.

const WrapperFields = { symbol: z.string(), asOf: z.string(), sessionDate: z.string(), stale: z.boolean() };

/** `data` of a per-symbol route serving `modules`. */
function volModulesData(modules: readonly VolModuleName[]) {
  const entry = z.object({ ...WrapperFields, ...Object.fromEntries(modules.map((m) => [m, VOL_MODULE_SCHEMAS[m]])) });
  return z.object({ symbols: z.array(entry), missing: z.array(VolMissingSchema) });
}

/** `data` of `/v1/vol/snapshot`: every module per symbol. */
export const VolSnapshotDataSchema = volModulesData(VOL_MODULES);
/** `data` of `/v1/vol/sigma`. */
export const VolSigmaDataSchema = volModulesData(["sigma"]);
/** `data` of `/v1/vol/events`. */
export const VolEventsDataSchema = volModulesData(["events"]);
/** `data` of `/v1/vol/iv`. */
export const VolIvDataSchema = volModulesData(["iv"]);
/** `data` of `/v1/vol/term`. */
export const VolTermDataSchema = volModulesData(["term"]);
/** `data` of `/v1/vol/cones`. */
export const VolConesDataSchema = volModulesData(["cones"]);
/** `data` of `/v1/vol/surface`. */
export const VolSurfaceDataSchema = volModulesData(["surface"]);
/** `data` of `/v1/vol/tilt`. */
export const VolTiltDataSchema = volModulesData(["tilt"]);

// --- /v1/vol/market ---

const N = z.number().nullable();

/** The S&P complex record. */
export const VolMarketSchema = z.object({
  symbol: z.string(),
  asOf: z.string(),
  sessionDate: z.string(),
  svx1d: N,
  svx9: N,
  svx30: N,
  svx3m: N,
  svx6m: N,
  /** SVX9 / SVX30, SVX1D / SVX30 and SVX30 / SVX3M: above 1, the near end is above the far (stress). */
  ratio_9d_30d: N,
  ratio_1d_30d: N,
  ratio_30d_3m: N,
  pct_1y: z.object({ svx1d: N, svx9: N, svx30: N, svx3m: N, svx6m: N }),
  curve: z.enum(["contango", "backwardation", "humped", "flat"]).nullable(),
  term_slope: N,
  rr25_30: N,
  /** SKEW-style index on SPXW at 30 days, `100 - 10 S` (Cboe SKEW method; docs/methodology.md#skew-index). */
  skew_index: N,
  /**
   * Futures-style curve (forward 30-day SVX from the next VX-style settlements; the points are not
   * served, as in the reference): its state, the front-to-second roll and the front against SVX30.
   */
  vx_curve_state: z.enum(["contango", "backwardation", "flat"]).nullable(),
  vx_roll_pct: N,
  vx_m1_vs_vix_pct: N,
  /** VVIX proxy: annualised realized vol of daily SVX30 log changes, last 21 (docs/methodology.md#vol-of-vol). */
  vvix: N,
  history: z.object({ dates: z.array(z.string()), svx9: z.array(N), svx30: z.array(N), svx3m: z.array(N), close: z.array(z.number()) }),
  /** The Magnificent Seven's SVX30 against QQQ's, equal weights (docs/methodology.md#dispersion). */
  dispersion: z.object({
    index: z.string(),
    members: z.array(z.string()),
    n: z.number().int(),
    members_svx30: N,
    index_svx30: N,
    spread: N,
    ratio: N,
    implied_corr: N,
    spread_pct_1y: N,
  }),
  /** 0 (fear) .. 100 (greed) from four one-year percentiles (docs/methodology.md#fear-and-greed). */
  fear_greed: z.object({
    score: N,
    label: z.enum(["extreme_fear", "fear", "neutral", "greed", "extreme_greed"]).nullable(),
    components: z.object({ vol_level: N, term: N, skew: N, momentum: N }),
  }),
});
export type VolMarket = z.output<typeof VolMarketSchema>;

// --- /v1/vol/screener ---

/** The spec's sortable screener fields, in its order. */
export const SCREENER_SORT_FIELDS = [
  "svx30",
  "svx1d",
  "svx30_pct_1y",
  "svx1d_pct_1y",
  "svx9_pct_1y",
  "svx3m_pct_1y",
  "iv_rank",
  "iv_pct",
  "ratio_vix",
  "term_slope",
  "rr25_30",
  "skew_pct_1y",
  "tilt_21",
  "tilt_z",
  "tilt_pct_1y",
  "em_1d_pct",
  "running_sigma",
  "sigma_odds_pct",
  "expected_vrp",
  "event_move_pct",
  "days_to_event",
  "opt_vol",
  "spot",
  "spot_vol_corr",
  "cheap_from_low_pct",
  "day_pace",
  "day_reprice",
] as const;
export type ScreenerSortField = (typeof SCREENER_SORT_FIELDS)[number];

const bounds = Object.fromEntries(
  SCREENER_SORT_FIELDS.flatMap((f) => [
    [`min_${f}`, numberParam({ description: `Keep rows with ${f} at least this (rows without ${f} are dropped).` })],
    [`max_${f}`, numberParam({ description: `Keep rows with ${f} at most this (rows without ${f} are dropped).` })],
  ]),
) as Record<`${"min" | "max"}_${ScreenerSortField}`, ReturnType<typeof numberParam>>;

const BOUND_NAMES = new Set(Object.keys(bounds));

/**
 * `filters`: the bounds in one parameter (the reference tool's argument), comma-separated
 * `min_<field>:<number>` or `max_<field>=<number>` entries.
 */
const filtersParam = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const out: Record<string, number> = {};
    if (raw === undefined) return out;
    for (const part of raw
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean)) {
      const m = /^([a-z0-9_]+)\s*[:=]\s*(.+)$/.exec(part);
      if (!m || !BOUND_NAMES.has(m[1]) || !NUM_RE.test(m[2])) {
        ctx.addIssue({ code: "custom", message: `"${part.slice(0, 40)}" is not min_<field>:<number> or max_<field>:<number> with a sortable field.` });
        return z.NEVER;
      }
      out[m[1]] = Number(m[2]);
    }
    return out;
  })
  .meta({ description: "Bounds in one parameter: comma-separated min_<field>:<number> or max_<field>:<number> (same as the separate parameters)." });

/** Query of `/v1/vol/screener` (unknown parameters are a 400: the route rejects them). */
export const VolScreenerQuerySchema = z.object({
  sort: enumParam(SCREENER_SORT_FIELDS, "svx30", "Field to sort by."),
  order: enumParam(["asc", "desc"], "desc", "Sort direction."),
  limit: intParam({ min: 1, max: 500, default: 50, description: "Rows per page." }),
  offset: intParam({ min: 0, default: 0, description: "Rows skipped." }),
  curve: z.string().optional().meta({ description: "Curve state, exact match: contango, backwardation, humped or flat." }),
  sector: z.string().optional().meta({ description: "Sector, exact match (for example Information Technology)." }),
  quality: z.string().optional().meta({ description: "Chain quality, exact match: good, fair or thin." }),
  filters: filtersParam,
  ...bounds,
});
export type VolScreenerQuery = z.output<typeof VolScreenerQuerySchema>;

/** One screener row as served (with its rank). */
const VolScreenerRowSchema = z
  .object({
    symbol: z.string(),
    asOf: z.string(),
    rank: z.number().int().nullable(),
    sector: z.string(),
    quality: z.enum(["good", "fair", "thin"]),
    curve: z.enum(["contango", "backwardation", "humped", "flat"]).nullable(),
    earnings_overlap_9d: z.enum(["none", "partial", "full"]).nullable(),
    earnings_overlap_30d: z.enum(["none", "partial", "full"]).nullable(),
  })
  .extend(Object.fromEntries(SCREENER_SORT_FIELDS.map((f) => [f, z.number().nullable()])) as Record<ScreenerSortField, z.ZodNullable<z.ZodNumber>>);

/** `data` of `/v1/vol/screener`. */
export const VolScreenerDataSchema = z.object({
  rows: z.array(VolScreenerRowSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  sort: z.string(),
});

// --- /v1/vol/history ---

/** Columns of the history, by name, read off each session's closing reading. */
export const HISTORY_COLUMNS = {
  close: (r) => r.close,
  svx1d: (r) => r.svx1d,
  svx9: (r) => r.svx9,
  svx30: (r) => r.svx30,
  svx3m: (r) => r.svx3m,
  svx6m: (r) => r.svx6m,
  term_slope: (r) => r.term_slope,
  rr25_30: (r) => r.rr25_30,
  tilt_21: (r) => r.tilt_21,
  em_1d_pct: (r) => r.em_1d_next_pct,
} satisfies Record<string, (r: SessionCloseReading) => number | null>;
/**
 * Weekend-adjusted columns: each session's SVX reading over its weekday factor from the readings
 * before that session, as `iv` serves it (docs/methodology.md#weekend-adjusted-history-columns).
 */
export const HISTORY_ADJ_COLUMNS = {
  svx1d_adj: "svx1d",
  svx9_adj: "svx9",
  svx30_adj: "svx30",
  svx3m_adj: "svx3m",
  svx6m_adj: "svx6m",
} as const satisfies Record<string, SvxTenor>;
type HistoryAdjColumn = keyof typeof HISTORY_ADJ_COLUMNS;
type HistoryColumn = keyof typeof HISTORY_COLUMNS | HistoryAdjColumn;
const COLUMN_NAMES = [...Object.keys(HISTORY_COLUMNS), ...Object.keys(HISTORY_ADJ_COLUMNS)] as HistoryColumn[];

/** Query of `/v1/vol/history` (the route resolves the default window and checks its width). */
export const VolHistoryQuerySchema = z.object({
  symbols: volSymbolsParam(),
  from: dateParam("First session (ET). Default one month before `to`."),
  to: dateParam("Last session, inclusive. Default today (ET). At most 800 calendar days after `from`."),
  fields: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return COLUMN_NAMES;
      const out = raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = out.find((f) => !(COLUMN_NAMES as string[]).includes(f));
      if (bad !== undefined || out.length === 0) {
        ctx.addIssue({ code: "custom", message: `must be a comma-separated list of ${COLUMN_NAMES.join(", ")}.` });
        return z.NEVER;
      }
      return out as HistoryColumn[];
    })
    .meta({ description: `Comma-separated columns (default all): ${COLUMN_NAMES.join(", ")}.` }),
});

/** `data` of `/v1/vol/history`: columnar, `dates[]` plus one array per field. */
export const VolHistoryDataSchema = z.object({
  from: z.string(),
  to: z.string(),
  symbols: z.array(z.object({ symbol: z.string(), dates: z.array(z.string()), columns: z.record(z.string(), z.array(z.number().nullable())) })),
  missing: z.array(VolMissingSchema),
});

// --- /v1/vol/derived ---

const NS = z.array(z.number().nullable());

/** The derived daily series of one symbol (docs/methodology.md#volatility-derived-series). */
export const VolDerivedSeriesSchema = z.object({
  dates: z.array(z.string()),
  close: z.array(z.number()),
  svx30: NS,
  svx1d: NS,
  rr25_30: NS,
  band: z.object({ p20: NS, p50: NS, p80: NS }),
  ivrv: z.object({ rv20: NS, vrp: NS, expected_vrp: z.number().nullable(), vrp_pct_1y: z.number().nullable(), overpaid_share_pct: z.number().nullable() }),
  spot_vol_corr: z.number().nullable(),
  earnings_eve: z.array(z.string()),
});

/** `data` of `/v1/vol/derived`. */
export const VolDerivedDataSchema = z.object({
  symbols: z.array(z.object({ symbol: z.string(), derived: VolDerivedSeriesSchema })),
  missing: z.array(VolMissingSchema),
});

// --- catalog routes: /v1/vol/symbols, /v1/vol/status, /v1/vol (query: EmptyQuerySchema) ---

/** `data` of `/v1/vol/symbols`. */
export const VolSymbolsDataSchema = z.object({
  symbols: z.array(
    z.object({ symbol: z.string(), name: z.string(), type: z.string(), sector: z.string(), asOf: z.string().nullable(), historyThrough: z.string().nullable() }),
  ),
});

/** `data` of `/v1/vol/status`. */
export const VolStatusDataSchema = z.object({
  asOf: z.string().nullable(),
  sessionDate: z.string(),
  marketState: z.string(),
  frozen: z.boolean(),
  published: z.number().int(),
  coverage: z.object({
    covered: z.number().int(),
    historySessions: z.number().int(),
    historyWarm: z.object({ done: z.number().int(), total: z.number().int(), finished: z.boolean() }).nullable(),
    /**
     * The background fill of the persisted daily store: whether it runs, and while a failed pass
     * waits for its retry, which one, when, and why (an error code). Null without a persisted store.
     */
    dailyFill: z
      .object({
        running: z.boolean(),
        retry: z.object({ attempt: z.number().int(), nextAt: z.string(), reason: z.string() }).nullable(),
      })
      .nullable(),
  }),
});

/** `data` of `/v1/vol`: the module's index. */
export const VolIndexDataSchema = z.object({
  module: z.literal("volatility"),
  endpoints: z.array(z.object({ path: z.string(), operationId: z.string(), cost: z.string() })),
});

// --- /v1/vol/stream ---

/** Query of `/v1/vol/stream`: symbols, the modules each `vol` event carries, the resume cursor. */
export const VolStreamQuerySchema = z.object({
  symbols: volSymbolsParam(),
  modules: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return [...VOL_MODULES];
      const out = [
        ...new Set(
          raw
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      if (out.length === 0 || out.some((m) => !(VOL_MODULES as readonly string[]).includes(m))) {
        ctx.addIssue({ code: "custom", message: `must be a comma-separated subset of ${VOL_MODULES.join(", ")}.` });
        return z.NEVER;
      }
      return VOL_MODULES.filter((m) => out.includes(m)) as VolModuleName[];
    })
    .meta({ description: `Comma-separated subset of ${VOL_MODULES.join(", ")} (default all).` }),
  market: boolParam(false, "Also push a `market` event (the /v1/vol/market object) each time the S&P complex recomputes; billed as one more stream symbol."),
  lastEventId: lastEventIdParam,
});

/** `data` of `/v1/vol/stream` (an SSE body, described for the OpenAPI document). */
export const VolEventStreamSchema = z
  .string()
  .meta({ description: "text/event-stream: connected, vol, symbol_unavailable, credits, reconnect, closed; `: ping` comments." });

/** Body of `/v1/vol/stream/ws`: a WebSocket upgrade. */
export const VolStreamWebSocketSchema = z.string().meta({ description: "WebSocket upgrade; then one JSON message {id, event, data} per event, as on /v1/vol/stream." });
