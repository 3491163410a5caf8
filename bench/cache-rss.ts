// Issue 38 item 2: the server's memory under a stream of cold one-credit requests. Before the
// byte budget, the flow tape cache kept 64 tapes of 60-140 MB each: 50 cold requests took a server
// from 119 MB to 3.95 GB RSS. Every cache now holds a share of `--cache-mb`, so the peak RSS must
// stay within the budget plus what the process needs besides its caches (target: budget + 300 MB).
//
//   npx tsx bench/cache-rss.ts [--cache-mb 512] [--heap-mb 1024] [--requests 120] [--concurrency 2] [--sessions 6]
//
// The server runs in a child process (`startServer` as `optionscope serve` runs it: simulated
// market, seed 42, clock pinned, data dir in a temp folder, no background fill so only requests
// fill the caches) and reports its RSS and the flow caches' tracked bytes over IPC every 100 ms.
// This process sends `GET /v1/flow/{ticker}?date=D&limit=5` (1 credit) for every ticker of the
// universe over the last `--sessions` finished sessions, largest chains first, each pair once
// (every request is cold), and prints peak RSS against the budget, and the heap still in use after
// a full GC at the end (what the caches retain). The child's V8 heap is capped at `--heap-mb`
// (default 1024 MB, about V8's own default on a 2 GB host; 0: V8's default here), as a 2 GB host
// caps it: without a cap on a large machine V8 lets garbage pile up far past the live set before it
// collects, and RSS then measures that laziness, not what is kept. Figures are only meaningful on a
// quiet machine (other processes change RSS sampling and time-outs, not the bound).
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** Peak RSS allowed above the cache budget, MB: the runtime, the market and requests in flight. */
export const CACHE_RSS_SLACK_MB = 300;
/** The pinned market instant: after the close of a Friday session. */
const NOW = "2024-03-08T21:30:00Z";

interface Sample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  arrayBuffers: number;
  cacheBytes: number;
  port?: number;
  /** Set on the sample taken right after a full GC. */
  live?: boolean;
}

async function serveChild(dataDir: string, cacheMb: string): Promise<void> {
  const { resolveServeConfig } = await import("../server/config");
  const { startServer } = await import("../server/serve");
  const { moduleStateOf } = await import("../server/modules");
  const { flowModule } = await import("../server/modules/flow");
  const args = ["--port", "0", "--hostname", "127.0.0.1", "--seed", "42", "--now", NOW, "--data-dir", dataDir];
  const config = resolveServeConfig([...args, "--cache-mb", cacheMb, "--no-daily-fill", "--ip-ceiling", "off", "--no-access-log", "--compute-workers", "0"], {});
  const running = await startServer(config, { log: () => {}, stderr: () => {} });
  const flow = moduleStateOf(running.app.services, flowModule);
  const sample = (): Sample => {
    const m = process.memoryUsage();
    const cacheBytes = flow ? flow.tapes.bytes + flow.memo.bytes + flow.summaries.bytes : 0;
    return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, arrayBuffers: m.arrayBuffers, cacheBytes };
  };
  process.send!({ ...sample(), port: running.listening.port });
  setInterval(() => process.send!(sample()), 100).unref();
  process.on("message", (m) => {
    if (m === "gc") {
      (globalThis as { gc?: () => void }).gc?.();
      process.send!({ ...sample(), live: true });
    } else void running.shutdown(1000).then(() => process.exit(0));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "cache-mb": { type: "string", default: "512" },
      "heap-mb": { type: "string", default: "1024" },
      requests: { type: "string", default: "120" },
      concurrency: { type: "string", default: "2" },
      sessions: { type: "string", default: "6" },
    },
  });
  const cacheMb = Number(values["cache-mb"]);
  const total = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const { openAccountService, accountsDbPath } = await import("../server/accounts");
  const { createSimulatedMarket } = await import("../lib/market/simulated");
  const { fixedClock } = await import("../lib/market/clock");
  const { previousTradingDay, sessionDateAt } = await import("../lib/time");

  // A key that no rate limit stops (the bench measures memory, not limits).
  const dataDir = mkdtempSync(join(tmpdir(), "optionscope-cache-rss-"));
  const svc = openAccountService({ dbPath: accountsDbPath(dataDir), durability: "normal" });
  const { key } = svc.createAccount({ plan: "top", credits: 10_000_000, dailyCapCredits: null, requestsPerMinute: 100_000_000 });
  svc.close();

  // Tickers with the largest chains first (their tapes are the largest), then the rest.
  const market = createSimulatedMarket({ seed: 42, clock: fixedClock(Date.parse(NOW)) });
  const universe = await market.universe();
  const big = ["SPXW", "SPY", "QQQ", "IWM", "NDX", "TSLA", "NVDA", "AAPL"];
  const tickers = [...big.filter((t) => universe.some((s) => s.ticker === t)), ...universe.map((s) => s.ticker).filter((t) => !big.includes(t))];
  const dates: string[] = [];
  for (let d = sessionDateAt(Date.parse(NOW)); dates.length < Number(values.sessions); d = previousTradingDay(d)) dates.push(d);
  const paths: string[] = [];
  for (const t of tickers) for (const d of dates) paths.push(`/v1/flow/${t}?date=${d}&limit=5`);
  const queue = paths.slice(0, total);

  const heapMb = Number(values["heap-mb"]);
  const heapArgs = heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : [];
  const child = fork(fileURLToPath(import.meta.url), ["--child", dataDir, String(cacheMb)], { execArgv: ["--import", "tsx", "--expose-gc", ...heapArgs] });
  let peak: Sample = { rss: 0, heapUsed: 0, heapTotal: 0, arrayBuffers: 0, cacheBytes: 0 };
  let peakCache = 0;
  let live: Sample | null = null;
  let onLive: (() => void) | null = null;
  const ready = new Promise<Sample>((resolve) =>
    child.on("message", (m: Sample) => {
      if (m.live) {
        live = m;
        onLive?.();
        return;
      }
      if (m.rss > peak.rss) peak = m;
      peakCache = Math.max(peakCache, m.cacheBytes);
      if (m.port) resolve(m);
    }),
  );
  const first = await ready;
  const statuses = new Map<number, number>();
  /** Requests that got no answer (-1), by the client's reason. */
  const failures = new Map<string, number>();
  const startMs = performance.now();
  let done = 0;
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      let status = 0;
      try {
        const res = await fetch(`http://127.0.0.1:${first.port}${path}`, { headers: { Authorization: `Bearer ${key}` } });
        status = res.status;
        await res.arrayBuffer();
      } catch (e) {
        status = -1;
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        const why = cause?.code ?? cause?.message ?? (e as Error).message;
        failures.set(why, (failures.get(why) ?? 0) + 1);
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (++done % 10 === 0) process.stderr.write(`  ${done}/${total} requests, peak RSS ${(peak.rss / 2 ** 20).toFixed(0)} MB\n`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedS = (performance.now() - startMs) / 1000;
  await new Promise((r) => setTimeout(r, 500));
  await new Promise<void>((r) => {
    onLive = r;
    child.send("gc");
  });
  child.send("stop");
  await new Promise((r) => child.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });

  const mb = (n: number) => (n / 2 ** 20).toFixed(0);
  const limitMb = cacheMb + CACHE_RSS_SLACK_MB;
  console.log(
    `${done} cold one-credit flow requests (${tickers.length} tickers x ${dates.length} sessions, ${concurrency} at a time) in ${elapsedS.toFixed(0)} s, budget --cache-mb ${cacheMb}, heap cap ${heapMb > 0 ? `${heapMb} MB` : "V8 default"}`,
  );
  console.log(
    `  answers: ${[...statuses].map(([s, n]) => `${s} x${n}`).join(", ")}${failures.size ? ` (no answer: ${[...failures].map(([w, n]) => `${w} x${n}`).join(", ")})` : ""}`,
  );
  console.log(
    `  server RSS: ${mb(first.rss)} MB at start, ${mb(peak.rss)} MB peak (then heap ${mb(peak.heapUsed)} MB used of ${mb(peak.heapTotal)} MB, array buffers ${mb(peak.arrayBuffers)} MB); flow caches' tracked peak ${mb(peakCache)} MB`,
  );
  const kept = live as Sample | null;
  if (kept) console.log(`  after a full GC at the end: heap ${mb(kept.heapUsed)} MB used, RSS ${mb(kept.rss)} MB; flow caches' tracked ${mb(kept.cacheBytes)} MB`);
  const ok = peak.rss / 2 ** 20 <= limitMb;
  console.log(`${ok ? "PASS" : "FAIL"} cache RSS: peak ${mb(peak.rss)} MB <= budget ${cacheMb} MB + ${CACHE_RSS_SLACK_MB} MB = ${limitMb} MB`);
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[2] === "--child") void serveChild(process.argv[3]!, process.argv[4]!);
else void main();
