// Several server instances on one redis-server, the setup every scale test shares. Two forms:
// - `useServeInstances`: `optionscope serve` instances (startServer, each with its own accounts
//   connection, limiters and listener) on one data directory, as a host runs them;
// - `useRedisApps`: in-process apps on one accounts store and one simulated market clock, wired to
//   Redis as `sharedLimits` wires them (limits on one connection, the resume store on its own
//   auto-pipelined one), with the stream timings a test needs.
// Each registers its start (beforeAll) and stop (afterAll) and returns an object filled at start.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { scaledClock } from "../../../lib/market/clock";
import { openAccountService, type SqliteAccountService } from "../../../server/accounts";
import { createApp, type OptionscopeApp } from "../../../server/app";
import { resolveServeConfig } from "../../../server/config";
import { listen, type Listening } from "../../../server/http/listen";
import { createRedisConcurrencyLimiter, type RedisConcurrencyLimiter } from "../../../server/limits/redis-concurrency-limiter";
import { openRedis } from "../../../server/limits/redis-connection";
import { createRedisRateLimiter } from "../../../server/limits/redis-rate-limiter";
import { startServer, type RunningServer } from "../../../server/serve";
import type { AppOptions } from "../../../server/services";
import { createRedisReplayStore } from "../../../server/streams/redis-replay-store";
import { openTakeoverNotices, takeoverChannel, type TakeoverNotices } from "../../../server/streams/redis-takeover-notices";
import { configureStreams } from "../../../server/streams/settings";
import { startRedis, type RedisProcess } from "../../_services/redis-server";
import { movingMarket, SESSION_MS } from "../streams/_server";

export interface ServeInstances {
  /** The redis-server; a test that stops it assigns the restarted one here (afterAll stops that). */
  redis: RedisProcess;
  dataDir: string;
  servers: RunningServer[];
}

/**
 * `count` serve instances on one data directory and one redis-server, pinned at `now`.
 * @example const cluster = useServeInstances({ now: NOW, args: ["--ip-ceiling", "300"] });
 */
export function useServeInstances(options: { now: string; count?: number; args?: string[] }): ServeInstances {
  const cluster = { servers: [] } as unknown as ServeInstances;
  const io = { log: () => {}, stderr: () => {} };
  beforeAll(async () => {
    cluster.redis = await startRedis();
    cluster.dataDir = mkdtempSync(join(tmpdir(), "optionscope-scale-"));
    for (let i = 0; i < (options.count ?? 3); i++) {
      const argv = [
        "--port",
        "0",
        "--hostname",
        "127.0.0.1",
        "--data-dir",
        cluster.dataDir,
        "--now",
        options.now,
        "--redis",
        cluster.redis.url,
        "--no-access-log",
        // No background daily fill (a volatility year and 20 flow sessions: a core busy for the
        // whole file): nothing here reads the daily store; a row a request needs is computed on
        // demand (docs/operations.md#daily-store).
        "--no-daily-fill",
        // No worker processes either (four per instance to start): the routes compute on the
        // loop, and what is tested here is the instances' shared state, not where a board is built.
        "--compute-workers",
        "0",
        ...(options.args ?? []),
      ];
      cluster.servers.push(await startServer(resolveServeConfig(argv, {}), io));
    }
  }, 60_000);
  afterAll(async () => {
    for (const s of cluster.servers) await s.shutdown(500);
    await cluster.redis?.stop();
    if (cluster.dataDir) rmSync(cluster.dataDir, { recursive: true, force: true });
  });
  return cluster;
}

export interface RedisAppInstance {
  app: OptionscopeApp;
  listening: Listening;
  url: string;
  slots: RedisConcurrencyLimiter;
  /** Its takeover subscription, when it hears the channel. */
  notices: TakeoverNotices | null;
}

export interface RedisApps {
  redis: RedisProcess;
  accounts: SqliteAccountService;
  instances: RedisAppInstance[];
}

export interface RedisAppsOptions {
  /** Market clock speed from 10:00 ET (600: boards change and minutes bill every 100 ms). */
  speed: number;
  /**
   * Per instance, whether it hears the takeover channel (every instance then publishes its
   * claims). Omitted: no notices at all, so a writer learns of a claim at its next write.
   */
  hearsTakeovers?: boolean[];
  /** Stream timings (billing interval, keepalive). */
  streams?: AppOptions["streams"];
  /** Default 3, or the length of `hearsTakeovers`. */
  count?: number;
}

/** Claims go out on the channel but nothing is heard: an instance that does not subscribe. */
const deaf: TakeoverNotices = { channel: takeoverChannel(), subscribe: () => () => {}, close: () => {} };

/**
 * In-process apps on one redis-server, one in-memory accounts store and one moving market.
 * @example const cluster = useRedisApps({ speed: 600 }); // cluster.instances[0].url
 */
export function useRedisApps(options: RedisAppsOptions): RedisApps {
  const cluster = { instances: [] } as unknown as RedisApps;
  const connections: Redis[] = [];
  beforeAll(async () => {
    cluster.redis = await startRedis();
    cluster.accounts = openAccountService({ dbPath: ":memory:" });
    const clock = scaledClock({ startMs: SESSION_MS, speed: options.speed });
    const market = movingMarket(clock);
    const count = options.count ?? options.hearsTakeovers?.length ?? 3;
    for (let i = 0; i < count; i++) {
      const limits = await openRedis(cluster.redis.url);
      const streams = await openRedis(cluster.redis.url, { autoPipelining: true });
      connections.push(limits, streams);
      const hears = options.hearsTakeovers?.[i];
      const notices = hears ? await openTakeoverNotices(cluster.redis.url) : null;
      const takeoverNotices = hears === undefined ? undefined : (notices ?? deaf);
      const slots = createRedisConcurrencyLimiter(limits);
      const app = createApp({
        market,
        accounts: cluster.accounts,
        rateLimiter: createRedisRateLimiter(limits),
        concurrency: slots,
        clock,
        streams: options.streams,
        resumeStore: (o) => createRedisReplayStore(streams, { ...o, takeoverNotices }),
      });
      configureStreams(app.services, { tickMs: 5, revalidateMs: 100 });
      const listening = await listen(app, { port: 0 });
      cluster.instances.push({ app, listening, url: listening.url, slots, notices });
    }
  }, 30_000);
  afterAll(async () => {
    for (const i of cluster.instances) {
      await i.app.shutdown(200);
      await i.listening.close(true);
      i.slots.close();
      i.notices?.close();
    }
    for (const c of connections) c.disconnect();
    cluster.accounts?.close();
    await cluster.redis?.stop();
  });
  return cluster;
}
