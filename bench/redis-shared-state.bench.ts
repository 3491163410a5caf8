// What sharing state on Redis costs per operation (docs/operations.md#several-instances), against
// the in-process equivalents: a stream event appended to the resume store (a batch of 1,000 written
// and acknowledged, as 1,000 streams write one board each), a resume replaying 100 events, one
// per-IP ceiling check and one sign-in limiter check. Starts its own redis-server on loopback
// (Debian's, scripts/ensure-services.sh). Run alone (not in `npm run bench`, which needs no Redis):
//   npx tsx bench/redis-shared-state.bench.ts
// No targets: figures for bench/README.md#redis-shared-state.
import { cpus, loadavg } from "node:os";
import { Bench } from "tinybench";
import { createRedisSignInLimiter, createSignInLimiter } from "../server/console/sign-in-limiter";
import { createIpCeiling, createRedisIpCeiling } from "../server/limits/ip-ceiling";
import { openRedis } from "../server/limits/redis-connection";
import { formatEventId } from "../server/streams/event-id";
import { createRedisReplayStore } from "../server/streams/redis-replay-store";
import { createReplayStore } from "../server/streams/replay-store";
import { startRedis } from "../test/_services/redis-server";
import type { SuiteReport } from "./suites";

const OPTIONS = { maxEvents: 1000, windowMs: 600_000, maxLineages: 20_000, onTakenOver: () => {} };

export async function runRedisSharedStateBench(): Promise<SuiteReport> {
  const server = await startRedis();
  const redis = await openRedis(server.url);
  // As `sharedLimits` does: the resume store on its own auto-pipelined connection.
  const streams = await openRedis(server.url, { autoPipelining: true });
  try {
    const board = JSON.stringify({
      symbol: "SPY",
      asOf: "2024-03-06T15:00:00.000Z",
      strikes: Array.from({ length: 120 }, (_, i) => ({ strike: 400 + i, value: i * 1.5e6, nodeType: "none" })),
    });
    const credits = '{"remaining":9940,"charged":2,"interval":7}';
    const local = createReplayStore(OPTIONS);
    const shared = createRedisReplayStore(streams, OPTIONS);
    const localLineages = Array.from({ length: 1000 }, () => local.create("acct", "SPY|gamma", 0));
    const sharedLineages = Array.from({ length: 1000 }, () => shared.create("acct", "SPY|gamma", 0));
    // A lineage with 100 events to resume from.
    const resumable = shared.create("acct", "SPY|gamma", 0);
    for (let i = 0; i < 100; i++) shared.append(resumable, i % 2 ? "credits" : "snapshot", i % 2 ? credits : board, 0, i % 2 ? undefined : false);
    await streams.ping();
    const ceilingLocal = createIpCeiling({ maxRequests: 1e9 });
    const ceilingShared = createRedisIpCeiling(redis, { maxRequests: 1e9 });
    const signInLocal = createSignInLimiter();
    const signInShared = createRedisSignInLimiter(redis);
    let t = Date.parse("2024-03-06T15:00:00Z");

    // The event-loop part of a Redis append (the rest is Redis and the socket, off the loop): median of 20 batches.
    const syncMs: number[] = [];
    for (let k = 0; k < 20; k++) {
      const t0 = performance.now();
      for (const l of sharedLineages) shared.append(l, "snapshot", board, t, false);
      syncMs.push(performance.now() - t0);
      await streams.ping();
    }
    syncMs.sort((a, b) => a - b);

    const bench = new Bench({ time: 1500, warmupTime: 200 });
    bench.add("1,000 board events appended, in process", () => {
      for (const l of localLineages) local.append(l, "snapshot", board, t, false);
    });
    bench.add("1,000 board events appended and acknowledged, Redis", async () => {
      for (const l of sharedLineages) shared.append(l, "snapshot", board, t, false);
      await streams.ping();
    });
    bench.add("resume replaying 100 events (50 boards), Redis", async () => {
      const r = await shared.lookup(formatEventId(resumable.id, resumable.seq - 100), "acct", "SPY|gamma", 0);
      if (r.kind !== "resume" || r.replay.length !== 100) throw new Error(`unexpected ${r.kind}`);
    });
    bench.add("per-IP ceiling check, in process", () => void ceilingLocal.take("203.0.113.9", t++));
    bench.add("per-IP ceiling check, Redis", async () => void (await ceilingShared.take("203.0.113.9", t++)));
    bench.add("sign-in limiter check, in memory", () => void signInLocal.blockedForS("acct_1", "203.0.113.9", t));
    bench.add("sign-in limiter check, Redis", async () => void (await signInShared.blockedForS("acct_1", "203.0.113.9", t)));
    await bench.run();
    const table: SuiteReport["table"] = bench.tasks.map((task) => {
      const r = task.result as { latency?: { mean: number; p99?: number } } | undefined;
      return { task: task.name, "mean ms": Number((r?.latency?.mean ?? NaN).toFixed(4)), "p99 ms": Number((r?.latency?.p99 ?? NaN).toFixed(4)) };
    });
    const memory = String(await redis.info("memory")).match(/used_memory_human:(\S+)/)?.[1] ?? "?";
    return {
      table,
      checks: [],
      notes: [
        `event-loop time of 1,000 Redis appends (median of 20 batches): ${syncMs[10]!.toFixed(1)} ms`,
        `redis used_memory after the run: ${memory}`,
        `load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores (shared)`,
      ],
    };
  } finally {
    redis.disconnect();
    streams.disconnect();
    await server.stop();
  }
}

if (process.argv[1]?.endsWith("redis-shared-state.bench.ts")) {
  console.log(`# redis shared-state bench ${new Date().toISOString()} node ${process.version} ${cpus()[0]?.model ?? "cpu"} load ${loadavg()[0].toFixed(2)}`);
  const report = await runRedisSharedStateBench();
  console.table(report.table);
  for (const n of report.notes) console.log(`  - ${n}`);
}
