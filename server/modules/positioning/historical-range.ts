import type { z } from "zod";
import { HistoricalRangeDataSchema, HistoricalRangeQuerySchema, RANGE_LIMITS, type SymbolRangeSchema } from "../../../lib/api/positioning";
import { heatmapFrame, exposureGrid } from "../../../lib/positioning";
import { previousTradingDay, sessionBounds } from "../../../lib/time";
import { SLOT_HISTORICAL } from "../../accounts/types";
import { apiErrors } from "../../errors";
import { attribution, FIRST_HISTORY_DATE, FIRST_HISTORY_MS, gridOptions, gridRoute, type BoardQuery } from "./grid-route";
import { HISTORICAL_RETRY_AFTER_S } from "./historical";
import { knownSymbols, noData, perSymbol, type PositioningState } from "./service";
import { windowedBoards } from "./windowed-boards";

const MINUTE_MS = 60_000;

type SymbolRange = z.output<typeof SymbolRangeSchema>;

/** One symbol's frames at every board minute of `[fromMs, toMs]`, axes listed once. */
async function symbolRange(state: PositioningState, symbol: string, q: BoardQuery, fromMs: number, toMs: number): Promise<SymbolRange> {
  const { market, kernels } = state.services;
  const options = gridOptions(q);
  // A window of each board where the market can give one (the simulator, the store of record's
  // chainWindow: docs/architecture.md#windowed-boards); the grid is the whole board's.
  const windowed = windowedBoards(market, options);
  const axes: SymbolRange["axes"] = [];
  const axisIds = new Map<string, number>();
  const frames: SymbolRange["frames"] = [];
  const previousCloses = new Map<string, number | null>();
  for (let t = Math.ceil(fromMs / MINUTE_MS) * MINUTE_MS; t <= toMs; t += MINUTE_MS) {
    const chain = windowed ? await windowed(symbol, t) : await market.chain(symbol, t);
    if (!chain || chain.asOfMs !== t) continue;
    const frame = heatmapFrame(exposureGrid(chain, options, kernels), { live: false, layout: "net" });
    const strikes = frame.strikes.map((s) => s.strike);
    const key = `${strikes.join(",")}|${frame.expirations.join(",")}`;
    let axis = axisIds.get(key);
    if (axis === undefined) {
      axis = axes.length;
      axisIds.set(key, axis);
      axes.push({ id: axis, strikes, expirations: frame.expirations });
    }
    let previousClose = previousCloses.get(chain.sessionDate);
    if (previousClose === undefined) {
      previousClose = await market.spot(chain.underlying, sessionBounds(previousTradingDay(chain.sessionDate)).closeMs);
      previousCloses.set(chain.sessionDate, previousClose);
    }
    frames.push({ asOf: frame.asOf, axis, spot: frame.spot, previousClose, values: frame.strikes.map((s) => s.value) });
  }
  if (frames.length === 0) throw noData(symbol, fromMs);
  return { symbol, axes, frames };
}

/** `GET /v1/historical/range`: every one-minute board in a window of up to 15 minutes. 25 credits. */
export const historicalRangeRoute = gridRoute({
  path: "/v1/historical/range",
  operationId: "getHistoricalRange",
  cost: 25,
  entitlement: "replay",
  query: HistoricalRangeQuerySchema,
  check: (q, { nowMs }) => {
    if (q.from < FIRST_HISTORY_MS) throw apiErrors.invalidParameter("from", `history begins on ${FIRST_HISTORY_DATE}.`);
    if (q.to > nowMs) throw apiErrors.invalidParameter("to", "must not be in the future.");
    if (q.to < q.from) throw apiErrors.invalidParameter("to", "must not be before from.");
    if (q.to - q.from > RANGE_LIMITS.windowMs) {
      throw apiErrors.rangeTooLarge(`from..to spans ${((q.to - q.from) / MINUTE_MS).toFixed(1)} minutes; at most 15.`, {
        max_minutes: RANGE_LIMITS.windowMs / MINUTE_MS,
      });
    }
  },
  concurrency: { kind: SLOT_HISTORICAL, max: (p) => p.limits.historicalInFlight, retryAfterS: HISTORICAL_RETRY_AFTER_S },
  data: HistoricalRangeDataSchema,
  cacheControl: "private, max-age=3600",
  summary: "Replay: every snapshot in a window (up to 15 minutes, 5 symbols)",
  description:
    'Every one-minute board between from and to (inclusive) for up to 5 symbols (meta.resolution "1m": this market stores one ' +
    "board a minute). Each frame's values[i] is the net exposure at axes[frame.axis].strikes[i] over that axis's expirations, " +
    "the number /v1/historical reports as strikes[i].value for that instant. Axes are listed once and referenced by id; a new " +
    "axis appears when the visible strikes or expirations change. Gzip-compressed with Accept-Encoding: gzip. Counts against " +
    "limits.historicalInFlight. 25 credits.",
  handler: async ({ query, state }) => {
    const symbols = await knownSymbols(state, query.symbols);
    const q: BoardQuery = { ...query, includeEmpty: false, layout: "net" };
    const out = await perSymbol(symbols, (s) => symbolRange(state, s, q, query.from, query.to));
    const { simulated } = state.services.market;
    return {
      data: { from: new Date(query.from).toISOString(), to: new Date(query.to).toISOString(), symbols: out },
      meta: {
        metric: query.metric,
        resolution: "1m",
        mode: "historical",
        cached: false,
        engine: state.services.kernels.name,
        simulated,
        attribution: attribution(simulated),
      },
    };
  },
});
