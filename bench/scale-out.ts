// Scale-out bench (issue 18 target: cached /v1/heatmap with durable debits, three instances on
// PostgreSQL + Redis on this machine, >= 3,000 requests/s aggregate with p99 <= 30 ms), with the
// single-instance SQLite figure measured beside it in the same session.
//
//   npx tsx bench/scale-out.ts [--duration 20] [--connections 30] [--only pg|sqlite] [--cpu-prof DIR] [--daily-fill on|off] [--loadgen auto|autocannon|wrk] [--rounds 1] [--warmup 20] [--node-args "..."]
//
// Each instance is `optionscope serve` in its own child process (server/main.ts through tsx,
// simulated market seed 42, clock pinned to a session minute, access log and per-IP ceiling off;
// the daily-store fill worker off unless `--daily-fill on`; `--node-args` adds Node/V8 flags).
// Before the first round each instance serves `--warmup` seconds of the same load, unmeasured: a
// server runs for hours, and its first seconds are V8 compiling the request path (CPU per request
// a third to a half higher in a cold 10 s run than in later ones; bench/README.md#scale-out-warm-up).
// The load is closed-loop, so the connection count picks the point on the throughput-latency curve:
// 30 (10 per instance) is the knee on this machine; more connections add little throughput and,
// by Little's law, latency in proportion (bench/README.md#scale-out-operating-point).
// PostgreSQL and redis-server are started on loopback by the test services (test/_services). The
// load is three wrk runs (Debian's, installed by scripts/ensure-bench-tools.sh; autocannon when
// wrk is missing or with `--loadgen autocannon`) at once, one per instance, `connections / 3`
// each; the aggregate is the sum of their request rates, and the latency percentiles are those of
// every measured request: each wrk run prints its quantiles (bench/_wrk-quantiles.lua) and they
// are merged (bench/_merged-quantiles.ts). autocannon prints no quantiles: with it the slowest
// run's percentiles are reported (a bound on the combined ones). After the run every 2xx must be
// one debit in the ledger and the balance must equal the ledger's sum. Prints one PASS/FAIL line
// per configuration.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
// @ts-expect-error autocannon ships no type declarations; `Autocannon` below types what is used.
import autocannonUntyped from "autocannon";
import { openAccountStore, type AccountStore } from "../server/accounts/open-store";
import { startPostgres } from "../test/_services/postgres-server";
import { mergedQuantile, type RunQuantiles } from "./_merged-quantiles";
import { cpuMsOf, findPid, treeCpuMs } from "./_proc-cpu";
import { freePort, startRedis } from "../test/_services/redis-server";

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p90: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
  /** wrk only: the run's latency at every 0.1% quantile, for one merged distribution. */
  quantiles?: RunQuantiles;
}
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

/** Milliseconds of a wrk duration such as `812.00us`, `4.21ms` or `1.02s`. */
function wrkMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`unreadable wrk latency ${text}`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as "us" | "ms" | "s" | "m"];
  return Number(m[1]) * scale;
}

/**
 * One wrk run (Debian's `wrk`, C, one thread) read into autocannon's result shape. wrk costs the
 * machine a fraction of autocannon's CPU per request, which on 2 shared cores is capacity the
 * servers get back (bench/README.md#scale-out-load-generator).
 */
function wrk(opts: { url: string; headers: Record<string, string>; connections: number; duration: number }): Promise<AutocannonResult> {
  const args = [
    "-t1",
    `-c${opts.connections}`,
    `-d${opts.duration}s`,
    "--latency",
    "-s",
    WRK_QUANTILES_SCRIPT,
    ...Object.entries(opts.headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    opts.url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    child.once("error", (e) => reject(new Error(`wrk could not be run (scripts/ensure-bench-tools.sh installs it): ${e.message}`)));
    // "close", not "exit": the output may still be unread when the process exits.
    child.once("close", (code) => {
      const total = /(\d+) requests in/.exec(out);
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const p50 = /\n\s+50%\s+(\S+)/.exec(out);
      const p90 = /\n\s+90%\s+(\S+)/.exec(out);
      const p99 = /\n\s+99%\s+(\S+)/.exec(out);
      if (code !== 0 || !total || !rate || !p50 || !p90 || !p99) return reject(new Error(`wrk failed (${code}): ${out.slice(-500)}`));
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      const q = /QUANTILES (\d+) ([\d ]+)/.exec(out);
      const quantiles = q
        ? {
            count: Number(q[1]),
            quantilesMs: q[2]!
              .trim()
              .split(" ")
              .map((us) => Number(us) / 1000),
          }
        : undefined;
      const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const errors = sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) : 0;
      resolve({
        requests: { average: Number(rate[1]) },
        latency: { p50: wrkMs(p50[1]!), p90: wrkMs(p90[1]!), p99: wrkMs(p99[1]!) },
        non2xx,
        errors,
        timeouts: sock ? Number(sock[4]) : 0,
        "2xx": Number(total[1]) - non2xx,
        quantiles,
      });
    });
  });
}

/** The load generator of this run (`--loadgen autocannon|wrk`). */
let load: (opts: { url: string; headers: Record<string, string>; connections: number; duration: number }) => Promise<AutocannonResult> = autocannon;

export const SCALE_TARGETS = Object.freeze({ requestsPerSec: 3000, p99Ms: 30 });
const NOW = "2024-03-06T16:00:00Z";
const PATH = "/v1/heatmap?symbols=SPXW";
/** How long the background CPU of the processes is sampled with no load before the run, ms. */
const IDLE_SAMPLE_MS = 3000;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Prints each wrk run's latency quantiles for the merged distribution. */
const WRK_QUANTILES_SCRIPT = fileURLToPath(new URL("./_wrk-quantiles.lua", import.meta.url));

/** Whether the instances run the daily-store fill worker (`--daily-fill on`; default off). */
let dailyFill = false;

/** Node/V8 flags for every instance (`--node-args`). */
let instanceNodeArgs: string[] = [];

async function serveChild(args: string[], nodeArgs: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const fill = dailyFill ? [] : ["--no-daily-fill"];
  const child = spawn(
    process.execPath,
    [
      ...instanceNodeArgs,
      ...nodeArgs,
      "--import",
      "tsx",
      "server/main.ts",
      "serve",
      "--port",
      String(port),
      "--hostname",
      "127.0.0.1",
      "--seed",
      "42",
      "--now",
      NOW,
      "--ip-ceiling",
      "off",
      "--no-access-log",
      ...fill,
      ...args,
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      if (err.includes("listening on")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${err.slice(-500)}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** A process (tree) whose CPU time is sampled around the measured run. */
interface CpuProbe {
  name: string;
  ms: () => number;
}

interface Row {
  name: string;
  /** CPU ms per measured request, per probe (the load generator is `loadgen`). */
  cpuPerRequestMs: Record<string, number>;
  /** CPU ms per second of each probe with no load (sampled for IDLE_SAMPLE_MS before the run). */
  idleCpuMsPerS: Record<string, number>;
  instances: number;
  requestsPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** The slowest instance's own p99 (the bound reported before the runs were merged). */
  worstP99Ms: number;
  /** Whether p50/p90/p99 are of the merged distribution (wrk) or the worst run's (autocannon). */
  merged: boolean;
  ok: number;
  bad: number;
  debits: number;
  balanced: boolean;
  pass: boolean;
}

async function measure(name: string, urls: string[], store: AccountStore, durationS: number, connections: number, probes: CpuProbe[], warmupS: number): Promise<Row> {
  const { accountId, key } = await store.createAccount({
    plan: "top",
    credits: 1_000_000_000,
    dailyCapCredits: null,
    monthlyCapCredits: null,
    label: "bench",
    requestsPerMinute: 100_000_000,
  });
  const headers = { authorization: `Bearer ${key}` };
  for (const url of urls) {
    const first = await fetch(url + PATH, { headers });
    if (first.status !== 200) throw new Error(`warm-up answered ${first.status}: ${(await first.text()).slice(0, 300)}`);
    await first.arrayBuffer();
  }
  const per = Math.max(1, Math.round(connections / urls.length));
  await Promise.all(urls.map((url) => load({ url: url + PATH, headers, connections: per, duration: warmupS })));
  // This process and its reaped children: autocannon runs in process, each wrk run is a child reaped before the reading.
  const loadgen: CpuProbe = { name: "loadgen", ms: () => cpuMsOf(process.pid) };
  const all = [...probes, loadgen];
  // Background CPU (market clock, boards, timers) with no load, so it is not read as request cost.
  const idleStart = all.map((p) => p.ms());
  await new Promise((r) => setTimeout(r, IDLE_SAMPLE_MS));
  const idlePerS = Object.fromEntries(all.map((p, i) => [p.name, ((p.ms() - idleStart[i]!) * 1000) / IDLE_SAMPLE_MS]));
  const before = all.map((p) => p.ms());
  const runs = await Promise.all(urls.map((url) => load({ url: url + PATH, headers, connections: per, duration: durationS })));
  const total = runs.reduce((s, r) => s + r["2xx"] + r.non2xx, 0);
  const cpuPerRequestMs = Object.fromEntries(all.map((p, i) => [p.name, (p.ms() - before[i]!) / Math.max(1, total)]));
  const ledger = await store.ledger(accountId, { limit: 100_000_000 });
  const details = await store.getAccount(accountId);
  const rps = runs.reduce((s, r) => s + r.requests.average, 0);
  // One distribution of every measured request (wrk); autocannon gives no quantiles, so the
  // slowest run's figure stands in for it there (an upper bound).
  const quantiles = runs.map((r) => r.quantiles);
  const merged = quantiles.every((q) => q !== undefined);
  const at = (p: number, each: (r: AutocannonResult) => number) =>
    merged ? Math.round(mergedQuantile(quantiles as RunQuantiles[], p) * 100) / 100 : Math.max(...runs.map(each));
  const p99 = at(99, (r) => r.latency.p99);
  const bad = runs.reduce((s, r) => s + r.non2xx + r.errors + r.timeouts, 0);
  const ok = runs.reduce((s, r) => s + r["2xx"], 0);
  const debits = ledger.filter((e) => e.kind === "debit").length;
  // Warm-up requests are debits too: one per instance plus the 2-second warm-up's 2xx are not in `ok`.
  const balanced = details.creditsBalance === details.ledgerSumCredits;
  return {
    name,
    cpuPerRequestMs,
    idleCpuMsPerS: idlePerS,
    instances: urls.length,
    requestsPerSec: rps,
    p50Ms: at(50, (r) => r.latency.p50),
    p90Ms: at(90, (r) => r.latency.p90),
    p99Ms: p99,
    worstP99Ms: Math.max(...runs.map((r) => r.latency.p99)),
    merged,
    ok,
    bad,
    debits,
    balanced,
    pass: rps >= SCALE_TARGETS.requestsPerSec && p99 <= SCALE_TARGETS.p99Ms && bad === 0 && balanced && debits >= ok,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "20" },
      connections: { type: "string", default: "30" },
      only: { type: "string" },
      "cpu-prof": { type: "string" },
      "daily-fill": { type: "string", default: "off" },
      loadgen: { type: "string", default: "auto" },
      rounds: { type: "string", default: "1" },
      warmup: { type: "string", default: "20" },
      "node-args": { type: "string", default: "" },
    },
  });
  // --rounds N: N measurements on the same instances (a shared host's noise moves single runs 2x).
  const rounds = Math.max(1, Math.floor(Number(values.rounds)));
  // auto: wrk when installed (scripts/ensure-bench-tools.sh), else autocannon.
  if (values.loadgen === "auto") values.loadgen = spawnSync("wrk", ["--version"]).error ? "autocannon" : "wrk";
  if (values.loadgen !== "autocannon" && values.loadgen !== "wrk") throw new Error("--loadgen must be auto, autocannon or wrk");
  if (values.loadgen === "wrk") load = wrk;
  dailyFill = values["daily-fill"] === "on";
  // --cpu-prof DIR: the first instance (the SQLite one with `--only sqlite`) writes a V8 CPU profile
  // there when it stops (SIGTERM).
  const profArgs = values["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", values["cpu-prof"]] : [];
  instanceNodeArgs = values["node-args"]!.split(" ").filter(Boolean);
  // The first round warms the fresh instances up; later rounds only their new account (2 s).
  const seconds = (flag: string, text: string | undefined, min: number) => {
    const n = Number(text);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${flag} must be a number of at least ${min} (got ${JSON.stringify(text)})`);
    return n;
  };
  const warmup = seconds("warmup", values.warmup, 2);
  const warmupOf = (round: number) => (round === 1 ? warmup : 2);
  const duration = seconds("duration", values.duration, 1);
  const connections = seconds("connections", values.connections, 1);
  console.log(
    `scale-out: GET ${PATH} (cached, 1 credit, durable debit), ${connections} connections in all, ${duration} s after a ${warmupOf(1)} s warm-up, load generator ${values.loadgen}, daily fill ${dailyFill ? "on" : "off"}, node ${process.version}${instanceNodeArgs.length ? ` ${instanceNodeArgs.join(" ")}` : ""}, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  const rows: Row[] = [];
  if (values.only !== "sqlite") {
    const [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
    const children: ChildProcess[] = [];
    const store = await openAccountStore({ storeUrl: pg.url, dataDir: "/nonexistent" });
    try {
      const urls: string[] = [];
      for (let i = 0; i < 3; i++) {
        const s = await serveChild(["--store", pg.url, "--redis", redis.url], i === 0 ? profArgs : []);
        children.push(s.child);
        urls.push(s.url);
      }
      const postmaster = findPid(["postgres", `-p ${pg.port}`]);
      const redisPid = findPid(["redis-server", `:${redis.port}`]);
      const probes: CpuProbe[] = [
        { name: "instances", ms: () => children.reduce((s, c) => s + cpuMsOf(c.pid!), 0) },
        { name: "postgres", ms: () => (postmaster ? treeCpuMs(postmaster) : Number.NaN) },
        { name: "redis", ms: () => (redisPid ? cpuMsOf(redisPid) : Number.NaN) },
      ];
      for (let r = 1; r <= rounds; r++)
        rows.push(await measure(rounds > 1 ? `postgres+redis #${r}` : "postgres+redis", urls, store, duration, connections, probes, warmupOf(r)));
    } finally {
      await Promise.all(
        children.map(
          (c) =>
            new Promise((r) => {
              c.once("exit", r);
              c.kill("SIGTERM");
            }),
        ),
      );
      await store.close();
      await Promise.all([pg.stop(), redis.stop()]);
    }
  }
  if (values.only !== "pg") {
    const dir = mkdtempSync(join(tmpdir(), "osc-scale-sqlite-"));
    const s = await serveChild(["--data-dir", dir], values.only === "sqlite" ? profArgs : []);
    const store = await openAccountStore({ storeUrl: undefined, dataDir: dir });
    try {
      for (let r = 1; r <= rounds; r++) {
        rows.push(
          await measure(
            rounds > 1 ? `sqlite (one) #${r}` : "sqlite (one instance)",
            [s.url],
            store,
            duration,
            connections,
            [{ name: "instances", ms: () => cpuMsOf(s.child.pid!) }],
            warmupOf(r),
          ),
        );
      }
    } finally {
      s.child.kill("SIGTERM");
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  for (const r of rows) {
    console.log(
      `${r.pass ? "PASS" : "FAIL"} ${r.name.padEnd(22)} ${r.instances} instance(s): ${r.requestsPerSec.toFixed(0)} req/s (target >= ${SCALE_TARGETS.requestsPerSec}), ` +
        `p50 ${r.p50Ms} ms, p90 ${r.p90Ms} ms, p99 ${r.p99Ms} ms (target <= ${SCALE_TARGETS.p99Ms}; ${r.merged ? `all requests; slowest instance's own ${r.worstP99Ms} ms` : "slowest instance's"}), non-2xx/errors ${r.bad}; ledger ${r.debits} debits for ${r.ok} measured 2xx, balanced=${r.balanced}`,
    );
    const cpu = Object.entries(r.cpuPerRequestMs).map(([k, v]) => `${k} ${v.toFixed(3)}`);
    console.log(
      `     CPU ms per request: ${cpu.join(", ")}; total ${Object.values(r.cpuPerRequestMs)
        .reduce((s, v) => s + v, 0)
        .toFixed(3)}`,
    );
    console.log(
      `     idle CPU ms per s (no load): ${Object.entries(r.idleCpuMsPerS)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(", ")}`,
    );
  }
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
}

await main();
