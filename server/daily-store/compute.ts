// The producers of each kind over a market of its own: what the fill worker runs. They are the
// same functions the request path runs on demand (so a stored row equals a computed one).
import type { IsoDate, MarketData } from "../../lib/market/market-data";
import { sessionCloseReading } from "../../lib/vol";
import { buildContractTable } from "../modules/flow/sessions/contract-top-table";
import { createFlowState } from "../modules/flow/flow-route";
import { buildMarketSessionTable } from "../modules/flow/sessions/market-session-table";
import { buildPrintTimeIndex } from "../modules/flow/sessions/print-time-index";
import { computeSessionSummary, type SessionSummary } from "../modules/flow/sessions/session-summary";
import { contractVolumesOf } from "../modules/flow/sessions/contract-volumes";
import { mebibytes } from "../cache/cache-budget";
import type { AppServices } from "../services";
import { CONTRACT_TOP, CONTRACT_VOLUME, FLOW_SUMMARY, MARKET_SESSION, PRINT_INDEX, VOL_READING, type DailyKind } from "./kinds";
import type { DailyDataStore } from "./store";

/**
 * The cache budget of a worker's flow state, MiB (each fill or compute worker has one, besides the
 * app's `--cache-mb`): rows are computed once and stored, so only the previous session's prints and
 * board are reused. @see docs/operations.md#cache-budget
 */
export const WORKER_CACHE_MB = 64;

/** Computes one (kind, symbol, session) row. */
export type DailyProducer = (kind: DailyKind, symbol: string, session: IsoDate) => Promise<unknown>;

/**
 * Producers over `market`, with a flow state of their own (its tape and memo caches are reused
 * across rows: the previous session's prints and opening board serve the next row's norm and OI).
 * With `store`, the market-wide contract table reads the session's stored summaries (computing
 * and storing any missing one); without, it computes them all.
 */
export function dailyProducer(market: MarketData, store?: DailyDataStore): DailyProducer {
  // The flow tape and summary read only `services.market` and `dailyStore` (the summary producer
  // bypasses the store: the worker writes its rows itself).
  const flow = createFlowState({ market, dailyStore: store, cacheBytes: mebibytes(WORKER_CACHE_MB) } as unknown as AppServices);
  return (kind, symbol, session) => {
    if (kind === FLOW_SUMMARY) return computeSessionSummary(flow, symbol, session, market.clock.now());
    if (kind === VOL_READING) return sessionCloseReading(market, symbol, session);
    if (kind === CONTRACT_TOP) return buildContractTable(flow, session, market.clock.now());
    if (kind === MARKET_SESSION) return buildMarketSessionTable(flow, session, market.clock.now());
    if (kind === PRINT_INDEX) return buildPrintTimeIndex(flow, session);
    if (kind === CONTRACT_VOLUME) {
      const stored = store?.get<SessionSummary>(FLOW_SUMMARY, symbol, session);
      return (stored ? Promise.resolve(stored) : computeSessionSummary(flow, symbol, session, market.clock.now())).then(contractVolumesOf);
    }
    throw new Error(`unknown daily kind ${String(kind)}`);
  };
}
