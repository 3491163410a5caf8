/**
 * `oi=flow` of the live board routes (heatmap, levels, stream): the board with each contract's
 * open interest estimated from the session's tape (lib/positioning/flow-oi.ts). Reading the tape
 * is the heavy part (a day of SPXW prints), so it runs where the module's boards are built: in the
 * compute pool when the app has one (`FLOW_OI` tasks, one running estimate per symbol-session in
 * each worker, extended minute by minute), else in this thread. Estimates are kept per
 * (symbol, session, minute) so the velocity's earlier board and every caller of a minute share one.
 * @see docs/methodology.md#flow-open-interest
 */
import type { ChainSnapshot } from "../../../lib/market/market-data";
import { withFlowOpenInterest, type FlowOiEstimate } from "../../../lib/positioning/flow-oi";
import { sessionBounds } from "../../../lib/time";
import { cacheShareBytes } from "../../cache/cache-budget";
import { LruCache } from "../../cache/lru-cache";
import { computeOffLoop, FLOW_OI } from "../../daily-store/compute-pool";
import { FlowOiSessions } from "./flow-oi-sessions";
import type { BoardQuery } from "./grid-route";
import { POSITIONING_SPLIT, type PositioningState } from "./service";

/** Finished estimates kept per app, by (symbol, session, minute). */
const ESTIMATES_KEPT = 256;

/** What one app keeps for `oi=flow`. */
interface AppFlowOi {
  sessions: FlowOiSessions;
  estimates: LruCache<string, FlowOiEstimate>;
  building: Map<string, Promise<FlowOiEstimate>>;
}

const perApp = new WeakMap<PositioningState, AppFlowOi>();

function appFlowOi(state: PositioningState): AppFlowOi {
  let a = perApp.get(state);
  if (!a) {
    a = {
      sessions: new FlowOiSessions(state.services.market),
      estimates: new LruCache({ maxEntries: ESTIMATES_KEPT, maxBytes: cacheShareBytes(state.services.cacheBytes, "positioning") * POSITIONING_SPLIT.flowOi }),
      building: new Map(),
    };
    perApp.set(state, a);
  }
  return a;
}

/** The estimate of `symbol`'s session with the prints before `uptoMs`: kept, else computed off the loop. */
async function flowEstimate(state: PositioningState, symbol: string, session: string, uptoMs: number): Promise<FlowOiEstimate> {
  const a = appFlowOi(state);
  const key = `${symbol}|${session}|${uptoMs}|${state.services.market.revision ?? 0}`;
  const hit = a.estimates.get(key);
  if (hit) return hit;
  let p = a.building.get(key);
  if (!p) {
    const task = { kind: FLOW_OI, symbol, session, uptoMs, nowMs: state.services.market.clock.now() } as const;
    p = computeOffLoop(state.services.computePool, task, () => a.sessions.estimate(symbol, session, uptoMs));
    a.building.set(key, p);
    p.then(
      (estimate) => {
        a.estimates.set(key, estimate);
        a.building.delete(key);
      },
      () => a.building.delete(key),
    );
  }
  return p;
}

/**
 * The board `q` asks for: `chain` itself with `oi=exchange` (the default), else `chain` with the
 * open interest estimated from its session's prints before the board's minute (the regular
 * session's; a pre-market board has none yet and keeps the exchange's).
 * @see docs/methodology.md#flow-open-interest
 */
export async function boardWithOi(state: PositioningState, chain: ChainSnapshot, q: Pick<BoardQuery, "oi">): Promise<ChainSnapshot> {
  if (q.oi !== "flow") return chain;
  const { openMs, closeMs } = sessionBounds(chain.sessionDate);
  const uptoMs = Math.min(chain.asOfMs, closeMs);
  if (uptoMs <= openMs) return chain;
  return withFlowOpenInterest(chain, await flowEstimate(state, chain.symbol, chain.sessionDate, uptoMs));
}

/** `meta.oi` of a board answer. */
export function oiMeta(q: Pick<BoardQuery, "oi">): "exchange" | "flow" {
  return q.oi === "flow" ? "flow" : "exchange";
}
