// The fill's scope over a market: which tickers get flow summaries (the flow universe) and which
// symbols vol readings (the vol module's coverage), optionally narrowed to some symbols or kinds.
// Shared by the fill worker and `optionscope precompute`.
import type { MarketData } from "../../lib/market/market-data";
import { createCoverage } from "../modules/vol/coverage";
import { CONTRACT_TOP, DAILY_KINDS, FLOW_SUMMARY, MARKET_SESSION, PRINT_INDEX, VOL_READING, type DailyKind } from "./kinds";
import type { FillScope } from "./plan";

export interface FillScopeOptions {
  /** Only these symbols (absent: the whole universe). */
  symbols?: readonly string[];
  /** Only these kinds (absent: all). */
  kinds?: readonly DailyKind[];
  volSessions: number;
  flowFrom: string;
  flowSessions: number;
}

/** The scope of a fill of `market`. */
export async function fillScopeOf(market: MarketData, o: FillScopeOptions): Promise<FillScope> {
  const kinds = new Set(o.kinds ?? DAILY_KINDS);
  const only = o.symbols ? new Set(o.symbols) : null;
  const flowTickers = kinds.has(FLOW_SUMMARY) ? (await market.universe()).map((s) => s.ticker).filter((t) => !only || only.has(t)) : [];
  const volSymbols = kinds.has(VOL_READING) ? [...(await createCoverage(market, o.symbols).all()).keys()] : [];
  const contractTables = kinds.has(FLOW_SUMMARY) && kinds.has(CONTRACT_TOP) && !only;
  const marketSessions = kinds.has(FLOW_SUMMARY) && kinds.has(MARKET_SESSION) && !only;
  const printIndexes = kinds.has(FLOW_SUMMARY) && kinds.has(PRINT_INDEX) && !only;
  return { flowTickers, contractTables, marketSessions, printIndexes, volSymbols, volSessions: o.volSessions, flowFrom: o.flowFrom, flowSessions: o.flowSessions };
}
