// What issue 14's reference fields add to a request, in the library over real simulated sessions:
// multi-leg packages of a whole SPY tape (trade rows' strategy*, once per tape version), the
// 30-session chart baseline of a 1D 5min SPY chart (avgVolume/avgPremium, per chart request),
// trade-id parsing and the paging-hint rule (per request). No target is set by the issue.
// Run alone:
//   npx tsx bench/flow-ref.bench.ts
import { cpus, loadavg } from "node:os";
import { Bench } from "tinybench";
import { noteWindow, parseTradeRef, rvol, strategiesOf, type RvolSession, type SentWindow } from "../lib/flow";
import { fixedClock } from "../lib/market/clock";
import { simulatedQuoteSizes } from "../lib/market/quote-sizes";
import { createSimulatedMarket } from "../lib/market/simulated";
import { addTradingDays, sessionBounds, tradingDaysBetween } from "../lib/time";
import { cachedChartBaselines } from "../server/modules/flow/shared/chart-baseline-cache";
import { createFlowState } from "../server/modules/flow/flow-route";
import type { AppServices } from "../server/services";
import type { Suite, SuiteReport } from "./suites";

const DATE = "2024-03-06";

async function runFlowRefBench(): Promise<SuiteReport> {
  const market = createSimulatedMarket({ seed: 7, clock: fixedClock(sessionBounds(DATE).closeMs) });
  const dates = tradingDaysBetween(addTradingDays(DATE, -30), DATE);
  const sessions: RvolSession[] = [];
  for (const d of dates) {
    const { openMs, closeMs } = sessionBounds(d);
    sessions.push({ date: d, prints: await market.optionPrints("SPY", openMs, closeMs) });
  }
  const today = sessions[sessions.length - 1].prints as Parameters<typeof strategiesOf>[0];
  const options = { date: DATE, interval: "1D", bucket: "5min", avgPeriod: "30d", orderBy: "time", order: "asc", format: "full" } as const;
  const windows: SentWindow[] = Array.from({ length: 16 }, (_, k) => ({ fromMs: k * 1000, toMs: k * 1000 + 5000, atMs: k }));
  const p = today[Math.floor(today.length / 2)];
  // The server's cached chart baselines (issue 14 item 2): a 1D 5min SPY window at 14:02:30 ET,
  // first computed once; then a repeat (complete bars from the cache, the bar holding now
  // recomputed from 2.5 minutes of each baseline session) and a repeat at a bar's end (all cached).
  const state = createFlowState({ market } as unknown as AppServices);
  const signal = new AbortController().signal;
  const atMs = sessionBounds(DATE).openMs + (4 * 60 + 32.5) * 60_000;
  const atBarEnd = sessionBounds(DATE).openMs + (4 * 60 + 30) * 60_000;
  const t0 = performance.now();
  await cachedChartBaselines(state, "SPY", { kind: "ticker" }, [DATE], "5min", atMs, signal);
  const firstCachedMs = performance.now() - t0;

  const tasks: Array<[string, () => unknown, string]> = [
    [`strategiesOf (SPY session, ${today.length.toLocaleString("en-US")} prints)`, () => strategiesOf(today, DATE, "SPY"), "strategy* of every row of a tape"],
    ["chart baseline 1D 5min (SPY, 30 sessions)", () => rvol({ kind: "ticker" }, sessions, options), "avgVolume/avgPremium of a ticker chart"],
    [
      "cached chart baseline 1D 5min, inside a bar (SPY)",
      () => cachedChartBaselines(state, "SPY", { kind: "ticker" }, [DATE], "5min", atMs, signal),
      "per chart request after the first: the partial bar only",
    ],
    [
      "cached chart baseline 1D 5min, at a bar end (SPY)",
      () => cachedChartBaselines(state, "SPY", { kind: "ticker" }, [DATE], "5min", atBarEnd, signal),
      "per chart request after the first: every bar cached",
    ],
    [
      "quote sizes x 1000 rows",
      () => {
        for (let k = 0; k < 1000; k++) simulatedQuoteSizes(p.symbol, p.tsMs + k, p.nbboBid, p.nbboAsk || 1);
      },
      "bidSz/askSz of a 1000-row page",
    ],
    [
      "parseTradeRef x 3 forms",
      () => [parseTradeRef("SPY-28491200-4"), parseTradeRef(`flow_${BigInt(p.tsNs).toString(16)}_0`), parseTradeRef(p.tsNs)],
      "per /v1/score call",
    ],
    ["noteWindow (16 kept)", () => noteWindow(windows, { fromMs: 2500, toMs: 4000, atMs: 16 }), "per contract-trades call"],
  ];
  const bench = new Bench({ name: "flow-ref", time: 1000, warmupTime: 200 });
  // The cached baselines are async (they may read the market); the library tasks stay synchronous.
  for (const [name, fn] of tasks)
    bench.add(name, () => {
      const r = fn();
      return r instanceof Promise ? r.then(() => undefined) : undefined;
    });
  await bench.run();

  const table: SuiteReport["table"] = [];
  for (const [name, , what] of tasks) {
    const t = bench.tasks.find((x) => x.name === name)!;
    const res = t.result as unknown as { latency?: { mean: number; p99: number }; mean?: number; p99?: number };
    table.push({
      workload: name,
      "mean ms": Number((res.latency?.mean ?? res.mean ?? NaN).toFixed(3)),
      "p99 ms": Number((res.latency?.p99 ?? res.p99 ?? NaN).toFixed(3)),
      "stands for": what,
    });
  }
  return {
    table,
    checks: [],
    notes: [
      `simulated market seed 7, SPY ${dates[0]}..${DATE}`,
      `first cached chart baseline call (computes the window): ${firstCachedMs.toFixed(0)} ms`,
      `load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`,
    ],
  };
}

/** The suite for bench/run.ts. */
export const flowRefSuite: Suite = { name: "flow-ref", run: runFlowRefBench };

if (import.meta.url === `file://${process.argv[1]}`) {
  runFlowRefBench().then((rep) => {
    console.table(rep.table);
    for (const n of rep.notes) console.log(`  - ${n}`);
  });
}
