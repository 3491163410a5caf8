/**
 * A market's running `oi=flow` estimates (lib/positioning/flow-oi.ts), one per symbol-session:
 * what a compute worker keeps between tasks and what an app without workers keeps in its own
 * thread (flow-oi.ts). Imports nothing of the server, so the worker loads only this.
 * @see docs/methodology.md#flow-open-interest
 */
import { openInterestBySymbol } from "../../../lib/flow/board-open-interest";
import type { MarketData } from "../../../lib/market/market-data";
import { FlowOiEstimator, type FlowOiEstimate } from "../../../lib/positioning/flow-oi";
import { sessionBounds } from "../../../lib/time";

/** Running estimates kept per market (symbol-sessions; each holds the contracts that printed). */
const RUNNING_KEPT = 32;
interface Running {
  symbol: string;
  uptoMs: number;
  estimator: FlowOiEstimator;
}

/**
 * A market's running flow estimates: one per (symbol, session), extended with the prints of
 * `[last end, uptoMs)` when asked for a later minute; an earlier minute is counted apart from the
 * open. Calls for one symbol-session run one after another.
 */
export class FlowOiSessions {
  private readonly running = new Map<string, Promise<Running | null>>();

  constructor(private readonly market: MarketData) {}

  /** The estimate of `symbol`'s session `session` with the prints before `uptoMs`. */
  estimate(symbol: string, session: string, uptoMs: number): Promise<FlowOiEstimate> {
    const key = `${symbol}|${session}`;
    const prev = this.running.get(key) ?? Promise.resolve(null);
    let out!: Promise<FlowOiEstimate>;
    const next = prev
      .catch(() => null)
      .then(async (run) => {
        if (run && run.uptoMs > uptoMs) {
          // An earlier minute (a clock moved back, a late caller): counted apart, the running one kept.
          const apart = await this.start(symbol, session);
          await this.extend(apart, uptoMs);
          out = Promise.resolve(apart.estimator.result(uptoMs));
          return run;
        }
        const current = run ?? (await this.start(symbol, session));
        await this.extend(current, uptoMs);
        out = Promise.resolve(current.estimator.result(uptoMs));
        return current;
      });
    this.running.delete(key);
    this.running.set(key, next);
    while (this.running.size > RUNNING_KEPT) this.running.delete(this.running.keys().next().value as string);
    next.catch(() => {
      if (this.running.get(key) === next) this.running.delete(key);
    });
    return next.then(() => out);
  }

  /** A new estimate at the session's open: the exchange's open interest of the opening board. */
  private async start(symbol: string, session: string): Promise<Running> {
    const { openMs } = sessionBounds(session);
    const board = await this.market.chain(symbol, openMs);
    // A board of another session (none yet) says nothing about this one's open interest.
    const opening = board && board.sessionDate === session ? openInterestBySymbol(board) : new Map<string, number>();
    return { symbol, uptoMs: openMs, estimator: new FlowOiEstimator(session, opening) };
  }

  private async extend(run: Running, uptoMs: number): Promise<void> {
    if (uptoMs <= run.uptoMs) return;
    run.estimator.add(await this.market.optionPrints(run.symbol, run.uptoMs, uptoMs));
    run.uptoMs = uptoMs;
  }
}
