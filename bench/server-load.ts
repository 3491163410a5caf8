// Load bench of the real server (issue 5 target: a cached /v1/heatmap with auth, rate limit and
// a durable debit at >= 2,500 requests/s with p99 <= 25 ms on loopback).
//
//   npx tsx bench/server-load.ts [--duration 10] [--connections 32] [--durability full|normal|both]
//
// For each durability the server runs in a child process (`startServer` itself: simulated market
// seed 42, accounts store on disk, real limiters, `listen` on port 0, access log on, to
// /dev/null), and this process drives it with autocannon. The bench account is a `top` account
// with a large balance, no caps and a test-only requests-per-minute override (the plan's 120/min
// would throttle the bench). After the run the child's store is checked: every 200 is one debit
// in the ledger and the balance equals the ledger's sum. Prints one PASS/FAIL line per target.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
// @ts-expect-error autocannon ships no type declarations; `Autocannon` below types what is used.
import autocannonUntyped from "autocannon";
import { accountsDbPath, openAccountService } from "../server/accounts";
import { resolveServeConfig } from "../server/config";
import { startServer } from "../server/serve";

/** What this bench reads of autocannon's result. */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = autocannonUntyped as Autocannon;

/** The targets. */
export const LOAD_TARGETS = Object.freeze({ requestsPerSec: 2500, p99Ms: 25 });

/** A session minute (Wednesday 2024-03-06 11:00 ET): the heatmap has a board, the clock is pinned. */
const BENCH_NOW_MS = Date.parse("2024-03-06T16:00:00Z");
const PATH = "/v1/heatmap?symbols=SPXW";
const HERE = fileURLToPath(new URL(".", import.meta.url));

type Durability = "full" | "normal";

/** Child side: `startServer` as `optionscope serve` runs it, plus the bench account; reports `{url, key}` over IPC. */
async function serveChild(durability: Durability, dataDir: string): Promise<void> {
  // The per-IP ceiling is off: one load generator on loopback is the whole audience here.
  const argv = ["--port", "0", "--hostname", "127.0.0.1", "--seed", "42", "--now", new Date(BENCH_NOW_MS).toISOString(), "--data-dir", dataDir, "--ip-ceiling", "off"];
  const config = { ...resolveServeConfig(argv, {}), durability };
  const running = await startServer(config, {
    log: (line) => process.stdout.write(JSON.stringify(line) + "\n"),
    stderr: (text) => process.stderr.write(text),
  });
  const { accountId, key } = await running.accounts.createAccount({
    plan: "top",
    credits: 1_000_000_000,
    dailyCapCredits: null,
    monthlyCapCredits: null,
    label: "bench",
    requestsPerMinute: 100_000_000, // test-only override: the bench must not be rate limited
  });
  process.send!({ url: running.listening.url, key, accountId });
  process.on("message", async (m: { cmd: string }) => {
    if (m.cmd !== "stop") return;
    await running.listening.close(true);
    const stats = running.accounts.groupCommitStats();
    await running.accounts.close();
    process.send!({ stats }, () => process.exit(0));
  });
}

function startChild(durability: Durability, dataDir: string): { child: ChildProcess; ready: Promise<{ url: string; key: string; accountId: string }> } {
  const devNull = openSync("/dev/null", "w");
  // BENCH_CPU_PROF=DIR writes a V8 CPU profile of the server child there (open in Chrome DevTools).
  const prof = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, ...process.execArgv, join(HERE, "server-load.ts"), "--serve", durability, "--data-dir", dataDir], {
    stdio: ["ignore", devNull, "inherit", "ipc"],
  });
  const ready = new Promise<{ url: string; key: string; accountId: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; key: string; accountId: string }));
    child.once("exit", (code) => reject(new Error(`server child exited ${code}`)));
  });
  return { child, ready };
}

/** One measured run. */
export interface LoadRow {
  durability: Durability;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  ok: number;
  debitsInLedger: number;
  ledgerBalanced: boolean;
  batches: number;
  largestBatch: number;
  pass: boolean;
}

async function runOne(durability: Durability, durationS: number, connections: number): Promise<LoadRow> {
  const dataDir = mkdtempSync(join(tmpdir(), "osc-load-"));
  const { child, ready } = startChild(durability, dataDir);
  try {
    const { url, key, accountId } = await ready;
    const headers = { authorization: `Bearer ${key}` };
    const first = await fetch(url + PATH, { headers });
    if (first.status !== 200) throw new Error(`warm-up request answered ${first.status}: ${(await first.text()).slice(0, 300)}`);
    await first.arrayBuffer().catch(() => {});
    // Warm-up (JIT, caches), then the measured run.
    await autocannon({ url: url + PATH, headers, connections, duration: 2 });
    const r = await autocannon({ url: url + PATH, headers, connections, duration: durationS });
    const stopped = new Promise<{ stats: { batches: number; ops: number; largestBatch: number } }>((resolve) =>
      child.on("message", (m) => resolve(m as { stats: { batches: number; ops: number; largestBatch: number } })),
    );
    child.send({ cmd: "stop" });
    const { stats } = await stopped;
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    const check = openAccountService({ dbPath: accountsDbPath(dataDir) });
    let debits = 0;
    let balanced = false;
    try {
      debits = (check.db.prepare("SELECT count(*) AS n FROM ledger WHERE account_id = ? AND kind = 'debit'").get(accountId) as { n: number }).n;
      balanced = check.verifyLedger().length === 0;
    } finally {
      check.close();
    }
    const rps = r.requests.average;
    return {
      durability,
      requestsPerSec: rps,
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
      ok: r["2xx"],
      debitsInLedger: debits,
      ledgerBalanced: balanced,
      batches: stats.batches,
      largestBatch: stats.largestBatch,
      pass: rps >= LOAD_TARGETS.requestsPerSec && r.latency.p99 <= LOAD_TARGETS.p99Ms && r.non2xx === 0 && r.errors === 0 && balanced,
    };
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: "string" },
      "data-dir": { type: "string" },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "32" },
      durability: { type: "string", default: "both" },
    },
  });
  if (values.serve) return serveChild(values.serve as Durability, values["data-dir"]!);
  const which: Durability[] = values.durability === "both" ? ["full", "normal"] : [values.durability as Durability];
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  console.log(`server load: GET ${PATH} (cached), ${connections} connections, ${duration} s, node ${process.version}`);
  for (const d of which) {
    const row = await runOne(d, duration, connections);
    const avgBatch = row.batches > 0 ? (row.debitsInLedger / row.batches).toFixed(1) : "-";
    console.log(
      `${row.pass ? "PASS" : "FAIL"} durability=${d.padEnd(6)} ${row.requestsPerSec.toFixed(0)} req/s (target >= ${LOAD_TARGETS.requestsPerSec}), ` +
        `p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms (target <= ${LOAD_TARGETS.p99Ms}), non-2xx ${row.non2xx}, errors ${row.errors}; ` +
        `ledger: ${row.debitsInLedger} debits for ${row.ok} 2xx in ${row.batches} commits (mean ${avgBatch}, max ${row.largestBatch}), ` +
        `balanced=${row.ledgerBalanced}`,
    );
  }
}

await main();
