// One simulated market per seed for every test file of a worker (the files of a worker share one
// module graph: vitest.config.ts `isolate: false`), seen at each file's own instant through
// `withClock`: a board, path or tape another file already built is not built again. Answers about
// an instant do not depend on the clock (lib/market/simulated/create-simulated-market.ts).
// The two modules it needs, not lib/index: importing the whole library (its API schemas among it)
// was most of a small unit file's start-up.
import { fixedClock } from "../../lib/market/clock";
import { createSimulatedMarket, type SimulatedMarket } from "../../lib/market/simulated/create-simulated-market";

const bySeed = new Map<number | string, SimulatedMarket>();

/** The simulated market of `seed` whose clock stands at `nowMs`. */
export function simulatedMarketAt(seed: number | string, nowMs: number): SimulatedMarket {
  let base = bySeed.get(seed);
  if (!base) {
    base = createSimulatedMarket({ seed, clock: fixedClock(nowMs) });
    bySeed.set(seed, base);
  }
  return base.withClock(fixedClock(nowMs));
}
