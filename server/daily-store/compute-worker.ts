// Worker thread of the compute pool: the request path's cold work (a flow session summary, a
// volatility closing reading, a whole RVOL answer) over a market of its own, rebuilt from the
// server's source (the same seed or data folder), so the event loop that answers requests only
// awaits it. It runs at normal priority: a caller is waiting. The caller writes finished sessions'
// rows to the daily store. See docs/architecture.md#worker-pools.
// First: a worker process takes its priority before its other modules load (host-port.ts).
import { hostData, hostPort } from "../workers/host-port";
import { createSimulatedMarket } from "../../lib/market";
import type { MarketData } from "../../lib/market/market-data";
import { sessionCloseReading } from "../../lib/vol";
import { loadFileMarket } from "../data";
import { createFlowState } from "../modules/flow/flow-route";
import { rvolAnswer } from "../modules/flow/underlyings/rvol";
import { computeSessionSummary, type SessionSummary } from "../modules/flow/sessions/session-summary";
import { decodeDaily } from "./codec";
import type { AppServices } from "../services";
import { mebibytes } from "../cache/cache-budget";
import { servePoolTasks } from "../workers/worker-pool";
import { WORKER_CACHE_MB } from "./compute";
import { premiumNormFor } from "../modules/flow/sessions/tape";
import { FlowOiSessions } from "../modules/positioning/flow-oi-sessions";
import {
  DARK_POOL_LEVELS,
  FLOW_NORM,
  FLOW_OI,
  FLOW_RVOL,
  FLOW_SUMMARY_STORED,
  SIM_CHAIN,
  SIM_MINUTE_BARS,
  SIM_MINUTE_QUOTES,
  SIM_OFF_EXCHANGE,
  SIM_PRINTS,
  SUMMARY_PREMIUMS,
  type ComputeTask,
  type ComputeWorkerInit,
} from "./compute-pool";
import { CONTRACT_VOLUME, FLOW_SUMMARY } from "./kinds";
import { contractVolumesOf } from "../modules/flow/sessions/contract-volumes";
import { storedSummaryOf } from "../modules/flow/sessions/stored-summary";
import { windowLevels } from "../modules/flow/dark-pool/dark-pool-levels";

const init = hostData<ComputeWorkerInit>();

/** A stored summary's premium by minute, or null when its body does not decode (it reads as missing). */
function summaryPremiums(body: Uint8Array): Float64Array | null {
  try {
    return decodeDaily<SessionSummary>(body).premiumByMinute;
  } catch {
    return null;
  }
}
let nowMs = 0;
const clock = { now: () => nowMs };

async function marketOf(): Promise<MarketData> {
  if (init.source.kind === "simulated") return createSimulatedMarket({ seed: init.source.seed, clock });
  return loadFileMarket(init.source.dir, { clock });
}

// One flow state for every task: its tapes, prints and boards serve the next task too.
// Its caches take the workers' share of the budget, not the default (docs/operations.md#cache-budget).
// Started at once: the market and the flow state are ready before the first task arrives.
const ready = marketOf().then((market) => ({
  market,
  flow: createFlowState({ market, cacheBytes: mebibytes(WORKER_CACHE_MB) } as unknown as AppServices),
  // `oi=flow` estimates: one running estimate per symbol-session, extended task by task.
  flowOi: new FlowOiSessions(market),
}));

servePoolTasks(hostPort(), async (task: ComputeTask) => {
  const { market, flow, flowOi } = await ready;
  // Each task carries the request's market instant (a session in progress is read up to it).
  nowMs = task.nowMs;
  if (task.kind === SIM_CHAIN) return market.chain(task.symbol, task.atMs, task.options);
  if (task.kind === SIM_PRINTS) return market.optionPrints(task.ticker, task.fromMs, task.toMs);
  if (task.kind === SIM_MINUTE_BARS) return market.minuteBars(task.ticker, task.fromMs, task.toMs, task.options);
  if (task.kind === SIM_MINUTE_QUOTES) return market.contractMinuteQuotes?.(task.symbol, task.contracts, task.fromMs, task.toMs) ?? null;
  if (task.kind === SIM_OFF_EXCHANGE) return market.offExchangePrints(task.tickers, task.fromMs, task.toMs);
  if (task.kind === SUMMARY_PREMIUMS) return task.bodies.map(summaryPremiums);
  if (task.kind === FLOW_OI) return flowOi.estimate(task.symbol, task.session, task.uptoMs);
  if (task.kind === FLOW_NORM) return premiumNormFor(flow, task.ticker, task.session);
  if (task.kind === FLOW_RVOL) return rvolAnswer(flow, task.target, task.query, task.nowMs);
  if (task.kind === DARK_POOL_LEVELS) return windowLevels(flow, task, task.nowMs);
  if (task.kind === FLOW_SUMMARY) return computeSessionSummary(flow, task.symbol, task.session, task.nowMs);
  if (task.kind === FLOW_SUMMARY_STORED) return storedSummaryOf(await computeSessionSummary(flow, task.symbol, task.session, task.nowMs));
  // Only the volumes cross back to the loop (the flow feed's RVOL baseline), not the whole summary.
  if (task.kind === CONTRACT_VOLUME) return contractVolumesOf(await computeSessionSummary(flow, task.symbol, task.session, task.nowMs));
  return sessionCloseReading(market, task.symbol, task.session);
});
