// The free volatility routes: `/v1/vol` (the module's index, gated by entitlement), `/v1/vol/symbols`
// (coverage) and `/v1/vol/status` (freshness, market state, coverage counts, warm-up progress).
import { EmptyQuerySchema } from "../../../lib/api/common";
import { VolIndexDataSchema, VolMetaSchema, VolStatusDataSchema, VolSymbolsDataSchema } from "../../../lib/api/vol";
import { isoUtc } from "../../../lib/positioning/iso-utc";
import { previousTradingDay } from "../../../lib/time";
import type { DailyDataStore } from "../../daily-store";
import { liveReading } from "./live-reading";
import { volMeta } from "./vol-meta";
import { REFERENCE_SYMBOL, volRoute, type VolState } from "./vol-route";

/** The newest board instant the market serves now (the reference symbol's live board), or null. */
async function newestBoardMs(state: VolState, nowMs: number): Promise<number | null> {
  const covered = await state.coverage.all();
  const probe = covered.has(REFERENCE_SYMBOL) ? REFERENCE_SYMBOL : covered.keys().next().value;
  if (!probe) return null;
  return (await liveReading(state, probe, nowMs))?.board.asOfMs ?? null;
}

const base = { host: "base" as const, module: "volatility" as const, method: "GET" as const, entitlement: "volatility" as const, tags: ["Volatility"] };

/** `GET /v1/vol/symbols`: every covered symbol with the latest asOf and the last stored session. Free. */
export const volSymbolsRoute = volRoute({
  ...base,
  path: "/v1/vol/symbols",
  operationId: "listVolSymbols",
  cost: 0,
  query: EmptyQuerySchema,
  data: VolSymbolsDataSchema,
  meta: VolMetaSchema,
  cacheControl: "private, max-age=60",
  summary: "Symbols the volatility module covers",
  description:
    "Every covered symbol (option roots with PM-settled expirations: SPXW, not SPX) with its latest reading instant and " +
    "the last completed session of its daily history. Free.",
  handler: async ({ state, nowMs, services }) => {
    const covered = await state.coverage.all();
    const asOfMs = await newestBoardMs(state, nowMs);
    const today = asOfMs === null ? null : ((await liveReading(state, REFERENCE_SYMBOL, nowMs))?.board.sessionDate ?? null);
    const through = today === null ? null : previousTradingDay(today);
    const symbols = [...covered.values()].map(({ symbol, info }) => ({
      symbol,
      name: info.name,
      type: info.type,
      sector: info.sector,
      asOf: asOfMs === null ? null : isoUtc(asOfMs),
      historyThrough: through !== null && state.daily.has(symbol, today!, 1) ? through : null,
    }));
    return { data: { symbols }, meta: volMeta({ module: "symbols", nowMs, asOfMs, cached: false, simulated: services.market.simulated }) };
  },
});

/** The background fill as `/v1/vol/status` shows it (docs/operations.md#daily-fill-retries). */
function dailyFillStatus(store: DailyDataStore | undefined) {
  if (!store) return null;
  const { running, retry } = store.fill.snapshot();
  return { running, retry: retry && { attempt: retry.attempt, nextAt: isoUtc(retry.nextAtMs), reason: retry.reason } };
}

/** `GET /v1/vol/status`: freshness, market state, coverage counts. Free. */
export const volStatusRoute = volRoute({
  ...base,
  path: "/v1/vol/status",
  operationId: "getVolStatus",
  cost: 0,
  query: EmptyQuerySchema,
  data: VolStatusDataSchema,
  meta: VolMetaSchema,
  cacheControl: "private, max-age=5",
  summary: "Volatility freshness, coverage and market state",
  description:
    "When the newest reading was computed, its session, whether the close is being served (frozen, outside regular hours), " +
    "the market state, how many symbols are published, and the daily history's warm-up progress. Free.",
  handler: async ({ state, nowMs, services }) => {
    const covered = await state.coverage.all();
    const asOfMs = await newestBoardMs(state, nowMs);
    const meta = volMeta({ module: "status", nowMs, asOfMs, cached: false, simulated: services.market.simulated });
    return {
      data: {
        asOf: meta.asOf,
        sessionDate: meta.sessionDate,
        marketState: meta.marketState,
        frozen: meta.frozen,
        published: asOfMs === null ? 0 : covered.size,
        coverage: { covered: covered.size, historySessions: state.historySessions, historyWarm: state.warmProgress(), dailyFill: dailyFillStatus(services.dailyStore) },
      },
      meta,
    };
  },
});

/** `GET /v1/vol`: the module's index (paths served), gated by the volatility entitlement. Free. */
export const volIndexRoute = volRoute({
  ...base,
  path: "/v1/vol",
  operationId: "getVolIndex",
  cost: 0,
  query: EmptyQuerySchema,
  data: VolIndexDataSchema,
  meta: VolMetaSchema,
  cacheControl: "private, max-age=300",
  summary: "The volatility module's endpoints",
  description: "The paths of the volatility module with their costs. Answers 403 not_entitled on plans without volatility data. Free.",
  handler: ({ services, nowMs }) => {
    const endpoints = services.routes
      .filter((r) => r.module === "volatility" && r.path !== "/v1/vol")
      .map((r) => ({ path: r.path, operationId: r.operationId, cost: typeof r.cost === "number" ? String(r.cost) : "per request (see docs/api.md#volatility-costs)" }));
    return {
      data: { module: "volatility" as const, endpoints },
      meta: volMeta({ module: "vol", nowMs, asOfMs: null, cached: false, simulated: services.market.simulated }),
    };
  },
});
