/**
 * Soak of the SSE stream: N concurrent streams x 5 symbols (default 1,000 x 5) against one
 * listening server on this machine, readers in a child process. Samples the server's event-loop
 * delay (perf_hooks.monitorEventLoopDelay) and RSS over the soak and prints a JSON summary.
 *
 *   npx tsx bench/streams-soak.ts [--seconds 120] [--streams 1000] [--speed 1] [--fanout-batch 64]
 *
 * Traffic goes to 127.0.0.1 only; the run stops by itself. See bench/README.md#stream-soak.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const SYMBOLS = ["SPY", "QQQ", "IWM", "DIA", "XLF", "XLK", "GLD", "TLT", "XLE", "SPXW"];
const PER_STREAM = 5;
const STREAMS_PER_ACCOUNT = 5; // 5 x 5 = 25 = limits.streamSymbolsConcurrent

async function child(url: string, keys: string[], streams: number): Promise<void> {
  let events = 0;
  let bytes = 0;
  let open = 0;
  let failed = 0;
  const controllers: AbortController[] = [];
  const one = async (i: number) => {
    const c = new AbortController();
    controllers.push(c);
    const syms = Array.from({ length: PER_STREAM }, (_, k) => SYMBOLS[(i + k) % SYMBOLS.length]).join(",");
    try {
      const res = await fetch(`${url}/v1/stream?symbols=${syms}`, {
        headers: { Authorization: `Bearer ${keys[Math.floor(i / STREAMS_PER_ACCOUNT)]}` },
        signal: c.signal,
      });
      if (!res.ok) {
        failed++;
        return;
      }
      open++;
      const reader = res.body!.getReader();
      let prev = 0; // last byte of the previous chunk: a blank line may straddle two reads
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        for (let j = 0; j < value.length; j++) if (value[j] === 10 && (j > 0 ? value[j - 1] : prev) === 10) events++;
        prev = value[value.length - 1] ?? prev;
      }
    } catch {
      // aborted at the end
    } finally {
      open = Math.max(0, open - 1);
    }
  };
  for (let i = 0; i < streams; i++) {
    void one(i);
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 20));
  }
  const report = setInterval(() => process.send?.({ open, failed, events, bytes }), 1000);
  process.on("message", (m) => {
    if (m === "stop") {
      clearInterval(report);
      for (const c of controllers) c.abort();
      process.send?.({ open, failed, events, bytes, final: true });
      setTimeout(() => process.exit(0), 100);
    }
  });
}

async function parent(seconds: number, streams: number, speed: number, fanoutBatch: number | undefined): Promise<void> {
  const { createSimulatedMarket, scaledClock } = await import("../lib/market");
  const { openAccountService } = await import("../server/accounts");
  const { createApp } = await import("../server/app");
  const { listen } = await import("../server/http/listen");
  const { createConcurrencyLimiter, createRateLimiter } = await import("../server/limits");
  const { moduleStateOf, positioningModule, positioningStreamHub } = await import("../server/modules");
  const streamHub = (services: typeof app.services) => positioningStreamHub(moduleStateOf(services, positioningModule));
  const { configureStreams, streamSettings } = await import("../server/streams/settings");

  const dir = mkdtempSync(join(tmpdir(), "optionscope-soak-"));
  // A Wednesday 10:00 ET: boards are live for the whole soak.
  const clock = scaledClock({ startMs: Date.parse("2024-03-06T15:00:00Z"), speed });
  const market = createSimulatedMarket({ seed: "soak", clock });
  const accounts = openAccountService({ dbPath: join(dir, "accounts.db") });
  const app = createApp({ market, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock });
  if (fanoutBatch !== undefined) configureStreams(app.services, { fanoutBatch });
  const listening = await listen(app, { port: 0 });
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(streams / STREAMS_PER_ACCOUNT); i++) keys.push(accounts.createAccount({ plan: "top", credits: 1_000_000 }).key);

  const h = monitorEventLoopDelay({ resolution: 10 });
  // `win` is reset at each sample, so each sample says the p99 and worst stall of its 5 s.
  const win = monitorEventLoopDelay({ resolution: 10 });
  const samples: {
    tS: number;
    /** The sample's 5 s hold a wall-clock minute boundary (the simulated clock runs at `speed`). */
    minuteBoundary: boolean;
    rssMb: number;
    heapMb: number;
    open: number;
    events: number;
    p99DelayMs: number;
    maxDelayMs: number;
  }[] = [];
  let last = { open: 0, failed: 0, events: 0, bytes: 0 };
  const kid = fork(fileURLToPath(import.meta.url), ["--child", listening.url, String(streams)], { stdio: ["pipe", "inherit", "inherit", "ipc"] });
  kid.stdin!.end(JSON.stringify(keys));
  kid.on("message", (m) => (last = m as typeof last));

  // Ramp-up: wait until every stream is open (or 60 s).
  const t0 = Date.now();
  while (last.open + last.failed < streams && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 250));
  const rampS = (Date.now() - t0) / 1000;
  h.enable();
  win.enable();
  const gcBefore = accounts.groupCommitStats();
  const start = Date.now();
  let simMinute = Math.floor(clock.now() / 60_000);
  while (Date.now() - start < seconds * 1000) {
    await new Promise((r) => setTimeout(r, 5000));
    const m = process.memoryUsage();
    const minute = Math.floor(clock.now() / 60_000);
    samples.push({
      tS: Math.round((Date.now() - start) / 1000),
      minuteBoundary: minute !== simMinute,
      rssMb: Math.round(m.rss / 1e6),
      heapMb: Math.round(m.heapUsed / 1e6),
      open: last.open,
      events: last.events,
      p99DelayMs: Math.round(win.percentile(99) / 1e6),
      maxDelayMs: Math.round(win.max / 1e6),
    });
    simMinute = minute;
    win.reset();
  }
  const gcAfter = accounts.groupCommitStats();
  h.disable();
  win.disable();
  kid.send("stop");
  await new Promise((r) => kid.once("exit", r));
  const stats = streamHub(app.services).stats();
  await streamHub(app.services).shutdown(500);
  await listening.close(true);
  accounts.close();
  rmSync(dir, { recursive: true, force: true });

  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const rss = samples.map((s) => s.rssMb);
  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    streams,
    symbolsPerStream: PER_STREAM,
    speed,
    fanoutBatch: streamSettings(app.services).fanoutBatch,
    soakSeconds: seconds,
    rampSeconds: rampS,
    openAtEnd: samples.at(-1)?.open ?? 0,
    failedOpens: last.failed,
    eventsReceived: last.events,
    bytesReceived: last.bytes,
    eventLoopDelayMs: { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) },
    rssMb: { first: rss[0], last: rss.at(-1), min: Math.min(...rss), max: Math.max(...rss) },
    // Debits of the soak (minute billing) and the commits that acknowledged them.
    groupCommit: { ops: gcAfter.ops - gcBefore.ops, batches: gcAfter.batches - gcBefore.batches, largestBatch: gcAfter.largestBatch },
    hubAtEnd: stats,
    samples,
  };
  process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
}

const { values } = parseArgs({
  options: {
    seconds: { type: "string" },
    streams: { type: "string" },
    speed: { type: "string" },
    "fanout-batch": { type: "string" },
    child: { type: "boolean" },
  },
  allowPositionals: true,
  strict: false,
});
if (values.child) {
  const [url, n] = process.argv.slice(process.argv.indexOf("--child") + 1);
  let input = "";
  process.stdin.on("data", (d) => (input += d));
  process.stdin.on("end", () => void child(url, JSON.parse(input), Number(n)));
} else {
  const batch = values["fanout-batch"];
  await parent(Number(values.seconds ?? 120), Number(values.streams ?? 1000), Number(values.speed ?? 1), batch === undefined ? undefined : Number(batch));
}
