// Market-wide flow screens in the library, over synthetic inputs the size of the full universe:
// the market tide's per-session fold and its bars over many tickers and sessions, the unusual
// volume screen, the weekly contract fold. No target is set by the issue; the figures say what a
// warm market-wide request costs beyond reading its session summaries.
// Run alone:
//   npx tsx bench/flow-market.bench.ts
// Server paths over a filled daily store (issue 14 item 1: the market-session table), cold (fresh
// app and store connection) and warm, with and without the table:
//   npx tsx bench/flow-market.bench.ts --server [--tickers 12]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Bench } from "tinybench";
import { foldTideMinutes, marketTideBars, unusualVolume, weeklyContractRows, type TideFoldTrade, type TideMinuteFold, type TopContractRow } from "../lib/flow";
import { createSimulatedMarket, fixedClock, type MarketData } from "../lib/market";
import { sessionBounds, tradingDaysBetween } from "../lib/time";
import { openAccountService } from "../server/accounts";
import { createApp } from "../server/app";
import { dailyDbPath, marketIdentity, openDailyStore, runFill, type DailyDataStore } from "../server/daily-store";
import { dailyProducer } from "../server/daily-store/compute";
import { MARKET_SESSION, MARKET_SYMBOL } from "../server/daily-store/kinds";
import { createConcurrencyLimiter, createRateLimiter } from "../server/limits";
import { mulberry32 } from "./_mulberry32";
import type { Suite, SuiteReport } from "./suites";

const SIDES = ["BB", "B", "AB", "M", "BA", "A", "AA"] as const;
const TICKERS = 150;
const TRADES = 30_000; // a full SPXW session's prints
const CONTRACTS = 50_000; // contracts traded per session across the universe
const DATES = tradingDaysBetween("2024-01-25", "2024-03-07"); // 30 sessions

function syntheticTrades(n: number, openMs: number, r: () => number): TideFoldTrade[] {
  const out: TideFoldTrade[] = [];
  for (let i = 0; i < n; i++) {
    const side = SIDES[Math.floor(r() * SIDES.length)];
    out.push({
      tsMs: openMs + Math.floor((i / n) * 390 * 60_000),
      right: r() < 0.5 ? "C" : "P",
      premiumUsd: Math.round(10 + r() * 5_000),
      size: 1 + Math.floor(r() * 20),
      aggression: r() < 0.05 ? 0 : side === "A" || side === "AA" ? 1 : side === "B" || side === "BB" ? -1 : side === "BA" ? 0.5 : side === "AB" ? -0.5 : 0,
      side,
      isMultiLeg: r() < 0.1,
      moneynessPct: -40 + r() * 80,
    });
  }
  return out;
}

function syntheticRows(n: number, r: () => number): TopContractRow[] {
  const out: TopContractRow[] = [];
  for (let i = 0; i < n; i++) {
    const v = 1 + Math.floor(r() * 500);
    out.push({
      symbol: `T${i % TICKERS}__240315C${String(i).padStart(8, "0")}`,
      ticker: `T${i % TICKERS}`,
      expiration: "2024-03-15",
      strike: 100,
      right: "C",
      dte: 10,
      totalPremium: v * 150,
      totalVolume: v,
      openInterest: Math.floor(r() * 5_000),
      oiChange: Math.floor(r() * 400) - 200,
      volumeOiRatio: 0,
      bidVolume: Math.floor(v / 3),
      askVolume: Math.floor(v / 3),
      midVolume: v - 2 * Math.floor(v / 3),
      vwap: 1.5,
      lastPrice: 1.5,
      underlyingPrice: 95 + r() * 10,
      iv: 0.3,
      tradeCount: 1 + Math.floor(v / 10),
      sweepVolume: 0,
      sweepPremium: 0,
      multiLegVolume: 0,
      multiLegPremium: 0,
    });
  }
  return out;
}

async function runFlowMarketBench(): Promise<SuiteReport> {
  const r = mulberry32(14);
  const openMs = sessionBounds("2024-03-06").openMs;
  const trades = syntheticTrades(TRADES, openMs, r);
  // One dense fold per ticker (every minute and key filled): the upper bound of a liquid ticker.
  const fold = foldTideMinutes(syntheticTrades(390 * 8 * 4, openMs, r), openMs);
  const folds: TideMinuteFold[] = Array.from({ length: TICKERS }, () => fold);
  const spy = new Float64Array(390).fill(500);
  const oneDay = [{ date: "2024-03-06", minutes: 390, folds, spyClose: spy }];
  const month = DATES.map((date) => ({ date, minutes: 390, folds, spyClose: spy }));
  const today = syntheticRows(CONTRACTS, r);
  const baseline = Array.from({ length: 10 }, () => syntheticRows(CONTRACTS, r));
  const week = Array.from({ length: 5 }, () => syntheticRows(CONTRACTS, r));

  const tasks: Array<[string, () => unknown, string]> = [
    [`foldTideMinutes (${TRADES.toLocaleString("en-US")} trades)`, () => foldTideMinutes(trades, openMs), "one SPXW-sized session into its summary"],
    [`marketTideBars 1D 5min (${TICKERS} tickers)`, () => marketTideBars(oneDay, "5min"), "the default /v1/market/tide"],
    [`marketTideBars 30D 1min (${TICKERS} tickers)`, () => marketTideBars(month, "1min"), "the widest intraday tide"],
    [
      `unusualVolume (${CONTRACTS.toLocaleString("en-US")} rows, 10 baseline sessions)`,
      () => unusualVolume("2024-03-06", today, baseline, { limit: 50, minRvol: 2, minAvgVolume: 100, orderBy: "rvol" }),
      "default avg_period",
    ],
    [`weeklyContractRows (5 x ${CONTRACTS.toLocaleString("en-US")} rows)`, () => weeklyContractRows("2024-03-08", week), "/v1/contract/top/weekly before ranking"],
  ];
  const bench = new Bench({ name: "flow-market", time: 1000, warmupTime: 200 });
  for (const [name, fn] of tasks) bench.add(name, () => void fn());
  await bench.run();

  const table: SuiteReport["table"] = [];
  for (const [name, fn, what] of tasks) {
    const t = bench.tasks.find((x) => x.name === name)!;
    const res = t.result as unknown as { latency?: { mean: number; p99: number }; mean?: number; p99?: number };
    const c0 = process.cpuUsage();
    for (let k = 0; k < 5; k++) fn();
    const c = process.cpuUsage(c0);
    table.push({
      workload: name,
      "mean ms": Number((res.latency?.mean ?? res.mean ?? NaN).toFixed(2)),
      "p99 ms": Number((res.latency?.p99 ?? res.p99 ?? NaN).toFixed(2)),
      "cpu ms/call": Number(((c.user + c.system) / 1000 / 5).toFixed(2)),
      "stands for": what,
    });
  }
  return {
    table,
    checks: [],
    notes: [`synthetic inputs (mulberry32 seed 14); a dense fold has ${fold.minute.length} cells`, `load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`],
  };
}

/** The suite for bench/run.ts. */
export const flowMarketSuite: Suite = { name: "flow-market", run: runFlowMarketBench };

// ---------------------------------------------------------------------------------------------
// Server: /v1/underlying/top/weekly and /v1/market/tide over a filled daily store, with and
// without the market-session table (docs/methodology.md#flow-market-session-table).

/** Wednesday 2024-03-06 10:00 ET: the week's five sessions before it are finished. */
const SERVER_NOW_MS = Date.parse("2024-03-06T15:00:00Z");
const SERVER_DATE = "2024-03-05";
const SERVER_PATHS = [`/v1/underlying/top/weekly?date=${SERVER_DATE}`, `/v1/market/tide?date=${SERVER_DATE}&interval=5D&bucket=5min`];

/** The simulated market (seed 42) limited to its first `n` tickers. */
async function smallMarket(n: number): Promise<MarketData> {
  const market = createSimulatedMarket({ seed: 42, clock: fixedClock(SERVER_NOW_MS) });
  const keep = new Set((await market.universe()).slice(0, n).map((s) => s.ticker));
  return new Proxy(market, {
    get(target, key) {
      if (key === "universe") return async () => (await target.universe()).filter((s) => keep.has(s.ticker));
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** The store with the market-session kind hidden (and never written): the summaries-only path. */
function withoutTables(store: DailyDataStore): DailyDataStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === "get") return (kind: string, ...rest: [string, string]) => (kind === MARKET_SESSION ? undefined : target.get(kind as never, ...rest));
      if (key === "symbolsAt") return (kind: string, session: string) => (kind === MARKET_SESSION ? new Set([MARKET_SYMBOL]) : target.symbolsAt(kind as never, session));
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

async function serverApp(n: number, store: DailyDataStore) {
  const clock = fixedClock(SERVER_NOW_MS);
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { key } = accounts.createAccount({ plan: "top", credits: 10_000_000, dailyCapCredits: null, requestsPerMinute: 10_000_000 });
  const app = createApp({ market: await smallMarket(n), accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock, dailyStore: store });
  return async (path: string) => {
    const res = await app.request(path, { headers: { Authorization: `Bearer ${key}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    return body;
  };
}

async function runServerBench(n: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "flow-market-bench-"));
  const identity = marketIdentity({ kind: "simulated", seed: 42 });
  try {
    const store = openDailyStore(dailyDbPath(dir), identity);
    const market = await smallMarket(n);
    const flowTickers = (await market.universe()).map((s) => s.ticker);
    const t0 = performance.now();
    await runFill({
      store,
      produce: dailyProducer(market, store),
      scope: { flowTickers, marketSessions: true, volSymbols: [], volSessions: 0, flowFrom: "2024-02-28", flowSessions: 5 },
      nowMs: SERVER_NOW_MS,
    });
    console.log(
      `filled ${store.count("flow-summary")} summaries and ${store.count(MARKET_SESSION)} market-session tables (${n} tickers) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    store.close();
    const rows: Record<string, string | number>[] = [];
    for (const [label, wrap] of [
      ["summaries only (before)", withoutTables],
      ["market-session table (after)", (s: DailyDataStore) => s],
    ] as const) {
      for (const path of SERVER_PATHS) {
        const colds: number[] = [];
        const cpu: number[] = [];
        let body = "";
        for (let i = 0; i < 3; i++) {
          const s = openDailyStore(dailyDbPath(dir), identity);
          const get = await serverApp(n, wrap(s));
          const c0 = process.cpuUsage();
          const t = performance.now();
          body = await get(path);
          colds.push(performance.now() - t);
          const c = process.cpuUsage(c0);
          cpu.push((c.user + c.system) / 1000);
          s.close();
        }
        const s = openDailyStore(dailyDbPath(dir), identity);
        const get = await serverApp(n, wrap(s));
        await get(path);
        const bench = new Bench({ name: "warm", time: 1000, warmupTime: 200 });
        bench.add(path, async () => void (await get(path)));
        await bench.run();
        const r = bench.tasks[0].result as unknown as { latency?: { mean: number; p99: number }; mean?: number; p99?: number };
        s.close();
        colds.sort((a, b) => a - b);
        cpu.sort((a, b) => a - b);
        rows.push({
          path: path.split("?")[0],
          from: label,
          "cold median ms": Number(colds[1].toFixed(1)),
          "cold CPU ms": Number(cpu[1].toFixed(1)),
          "warm mean ms": Number((r.latency?.mean ?? r.mean ?? NaN).toFixed(2)),
          "warm p99 ms": Number((r.latency?.p99 ?? r.p99 ?? NaN).toFixed(2)),
          "body bytes": body.length,
        });
      }
    }
    console.table(rows);
    console.log(`load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { server: { type: "boolean", default: false }, tickers: { type: "string", default: "12" } } });
  if (values.server) await runServerBench(Number(values.tickers));
  else {
    const rep = await runFlowMarketBench();
    console.table(rep.table);
    for (const n of rep.notes) console.log(`  - ${n}`);
  }
}
