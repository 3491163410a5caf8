// The producers of each kind over a market of its own: what the fill worker runs. They are the
// same functions the request path runs on demand (so a stored row equals a computed one).
import type { IsoDate, MarketData } from "../../lib/market/market-data";
import { sessionCloseReading } from "../../lib/vol";
import { createFlowState } from "../modules/flow/flow-route";
import { computeSessionSummary } from "../modules/flow/session-summary";
import type { AppServices } from "../services";
import { FLOW_SUMMARY, VOL_READING, type DailyKind } from "./kinds";

/** Computes one (kind, symbol, session) row. */
export type DailyProducer = (kind: DailyKind, symbol: string, session: IsoDate) => Promise<unknown>;

/**
 * Producers over `market`, with a flow state of their own (its tape and memo caches are reused
 * across rows: the previous session's prints and opening board serve the next row's norm and OI).
 */
export function dailyProducer(market: MarketData): DailyProducer {
  // The flow tape and summary read only `services.market` (and `dailyStore`, absent here: the
  // worker writes its rows itself).
  const flow = createFlowState({ market } as unknown as AppServices);
  return (kind, symbol, session) => {
    if (kind === FLOW_SUMMARY) return computeSessionSummary(flow, symbol, session, market.clock.now());
    if (kind === VOL_READING) return sessionCloseReading(market, symbol, session);
    throw new Error(`unknown daily kind ${String(kind)}`);
  };
}
