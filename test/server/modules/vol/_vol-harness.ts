import { moduleStateOf } from "../../../../server/modules";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule, type VolState } from "../../../../server/modules/vol";
import { makeHarness, NOW_MS, type Harness } from "../../_harness";
import { simulatedMarketAt } from "../../../_helpers/simulated-market";

/** Sessions of daily history behind each symbol in these tests. */
export const TEST_HISTORY_SESSIONS = 6;
/** Covered symbols in these tests (SPX: AM-settled monthlies; IWM is in the universe, not covered here). */
export const TEST_SYMBOLS = ["SPXW", "SPX", "SPY", "QQQ", "AAPL", "NVDA", "TSLA"] as const;

export const market = simulatedMarketAt(42, NOW_MS);

export interface VolHarness extends Harness {
  state: VolState;
}

/** A harness with the volatility module on `plan` (default top). */
export function volHarness(o: { plan?: "top" | "api" | "index-etf" | "flow"; credits?: number; nowMs?: number } = {}): VolHarness {
  const vol = createVolModule({ historySessions: TEST_HISTORY_SESSIONS, symbols: TEST_SYMBOLS });
  const nowMs = o.nowMs ?? NOW_MS;
  const m = o.nowMs ? simulatedMarketAt(42, nowMs) : market;
  const h = makeHarness({ market: m, credits: o.credits ?? 100_000, plan: o.plan, nowMs, modules: [metaModule, vol] });
  return { ...h, state: moduleStateOf(h.app.services, vol) };
}

export async function json(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}
