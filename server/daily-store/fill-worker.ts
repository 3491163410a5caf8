// Worker thread of the background fill: builds its own market from the server's source (the same
// seed or data folder), plans the missing rows and writes them to the store, most recent first.
// Messages: in `{ type: "fill", nowMs }` (plan again at this instant); out `progress` per kind and
// `idle` when the plan is done. See docs/architecture.md#persisted-daily-store.
import { parentPort, workerData } from "node:worker_threads";
import { createSimulatedMarket } from "../../lib/market";
import type { MarketData } from "../../lib/market/market-data";
import { loadFileMarket } from "../data";
import { createCoverage } from "../modules/vol/coverage";
import { dailyProducer } from "./compute";
import type { MarketSource } from "./fingerprint";
import { runFill } from "./run-fill";
import { openDailyStore } from "./store";

/** What the filler passes at start. */
export interface FillWorkerInit {
  dbPath: string;
  identity: string;
  source: MarketSource;
  /** The market instant at start (the worker's clock; each `fill` message moves it). */
  nowMs: number;
  /** Narrow the scope (tests, the CLI); absent: the whole universe. */
  symbols?: readonly string[];
  volSessions: number;
  flowFrom: string;
}

export type FillWorkerRequest = { type: "fill"; nowMs: number } | { type: "stop" };
export type FillWorkerReply =
  | { type: "progress"; kind: string; done: number; total: number; finished: boolean }
  | { type: "idle"; computed: number }
  | { type: "error"; message: string };

const init = workerData as FillWorkerInit;
let nowMs = init.nowMs;
const clock = { now: () => nowMs };
const post = (m: FillWorkerReply) => parentPort!.postMessage(m);

async function marketOf(source: MarketSource): Promise<MarketData> {
  if (source.kind === "simulated") return createSimulatedMarket({ seed: source.seed, clock });
  return loadFileMarket(source.dir, { clock });
}

const ready = (async () => {
  const market = await marketOf(init.source);
  const store = openDailyStore(init.dbPath, init.identity);
  const only = init.symbols ? new Set(init.symbols) : null;
  const flowTickers = (await market.universe()).map((s) => s.ticker).filter((t) => !only || only.has(t));
  const volSymbols = [...(await createCoverage(market, init.symbols).all()).keys()];
  return { store, produce: dailyProducer(market), scope: { flowTickers, volSymbols, volSessions: init.volSessions, flowFrom: init.flowFrom } };
})();

let stopping = false;
let queue: Promise<void> = Promise.resolve();
parentPort!.on("message", (m: FillWorkerRequest) => {
  if (m.type === "stop") {
    stopping = true;
    return;
  }
  nowMs = Math.max(nowMs, m.nowMs);
  queue = queue.then(async () => {
    try {
      const { store, produce, scope } = await ready;
      const computed = await runFill({ store, produce, scope, nowMs, stopped: () => stopping, onProgress: (kind, p) => post({ type: "progress", kind, ...p }) });
      post({ type: "idle", computed });
    } catch (error) {
      post({ type: "error", message: String((error as Error)?.stack ?? error) });
    }
  });
});
