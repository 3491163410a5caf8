// A stream resumed on instance B while instance A still holds the old connection (the client saw
// the drop first): A's writer must stop at once on B's claim, not at its next write, which may be
// the next billing interval (a minute charged to a client that already left). Real redis-server;
// A and B hear claims on the takeover channel (server/streams/redis-takeover-notices.ts); C does
// not subscribe, the behaviour before the notice, as the control. Billing every 2 s of a 1x clock
// and a market whose boards change only each minute: between two bills nothing else is written.
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaledClock } from "../../../lib/market/clock";
import { openAccountService, type SqliteAccountService } from "../../../server/accounts";
import { createApp, type OptionscopeApp } from "../../../server/app";
import { listen, type Listening } from "../../../server/http/listen";
import { createRedisConcurrencyLimiter, type RedisConcurrencyLimiter } from "../../../server/limits/redis-concurrency-limiter";
import { openRedis } from "../../../server/limits/redis-connection";
import { createRedisRateLimiter } from "../../../server/limits/redis-rate-limiter";
import { createRedisReplayStore } from "../../../server/streams/redis-replay-store";
import { openTakeoverNotices, type TakeoverNotices } from "../../../server/streams/redis-takeover-notices";
import { configureStreams } from "../../../server/streams/settings";
import { startRedis, type RedisProcess } from "../../_services/redis-server";
import { movingMarket, SESSION_MS } from "../streams/_server";
import { openRaw, sequenced, sleep, type RawStream } from "../streams/_sse";

const BILLING_S = 2;

interface Instance {
  app: OptionscopeApp;
  listening: Listening;
  url: string;
  connections: Redis[];
  slots: RedisConcurrencyLimiter;
  notices: TakeoverNotices | null;
}

let redis: RedisProcess;
let accounts: SqliteAccountService;
const instances: Instance[] = [];

beforeAll(async () => {
  redis = await startRedis();
  accounts = openAccountService({ dbPath: ":memory:" });
  // 1x from 10:00 ET: the next board is a minute away, far beyond the test.
  const clock = scaledClock({ startMs: SESSION_MS, speed: 1 });
  const market = movingMarket(clock);
  for (const subscribed of [true, true, false]) {
    const r = await openRedis(redis.url, { autoPipelining: true });
    const streams = await openRedis(redis.url, { autoPipelining: true });
    const notices = subscribed ? await openTakeoverNotices(redis.url) : null;
    const slots = createRedisConcurrencyLimiter(r);
    const app = createApp({
      market,
      accounts,
      rateLimiter: createRedisRateLimiter(r),
      concurrency: slots,
      clock,
      streams: { billingIntervalS: BILLING_S, keepaliveS: 600 },
      // Every instance publishes its claims; only A and B listen.
      resumeStore: (options) => createRedisReplayStore(streams, { ...options, takeoverNotices: notices ?? { channel: "optionscope:takeover", subscribe: () => () => {}, close: () => {} } }),
    });
    configureStreams(app.services, { tickMs: 5, revalidateMs: 100 });
    const listening = await listen(app, { port: 0 });
    instances.push({ app, listening, url: listening.url, connections: [r, streams], slots, notices });
  }
}, 30_000);

afterAll(async () => {
  for (const i of instances) {
    await i.app.shutdown(200);
    await i.listening.close(true);
    i.slots.close();
    for (const c of i.connections) c.disconnect();
    i.notices?.close();
  }
  accounts?.close();
  await redis?.stop();
});

/** Interval debits of one stream (request ids `<open request id>.m<k>`), in order. */
function intervalDebits(accountId: string, openRequestId: string): string[] {
  return accounts
    .ledger(accountId, { limit: 10_000 })
    .filter((e) => e.kind === "debit" && e.requestId?.startsWith(`${openRequestId}.m`))
    .map((e) => e.requestId!.slice(openRequestId.length + 1))
    .sort();
}

/** Open on `from`, wait for the first interval's debit, resume on B while `from` still holds its connection. */
async function takeOver(from: Instance): Promise<{ old: RawStream; resumed: RawStream; accountId: string; openId: string; tookOverAt: number }> {
  const { key, accountId } = accounts.createAccount({ plan: "top", credits: 100_000 });
  const old = await openRaw(from.url, key, "symbols=SPY");
  expect(old.status).toBe(200);
  const openId = old.headers.get("x-request-id")!;
  await old.waitFor((f) => f.event === "credits" && f.data.interval === 1, 8000);
  const cursor = sequenced(old.frames).at(-1)!.id!;
  const resumed = await openRaw(instances[1]!.url, key, "symbols=SPY", { lastEventId: cursor });
  expect((await resumed.waitFor((f) => f.event === "resumed")).data).toMatchObject({ gap: false });
  return { old, resumed, accountId, openId, tookOverAt: performance.now() };
}

const endedWithin = (s: RawStream, ms: number) => Promise.race([s.ended.then(() => true), sleep(ms).then(() => false)]);

describe("stream takeover across instances on one Redis", () => {
  it("with the notice, A stops at once and charges no interval after B's claim", async () => {
    const { old, resumed, accountId, openId } = await takeOver(instances[0]!);
    // Well before A's next bill (BILLING_S after its first).
    expect(await endedWithin(old, 1000)).toBe(true);
    // Two more of A's intervals would have passed: none of them is charged.
    await sleep(BILLING_S * 1000 * 1.5);
    expect(intervalDebits(accountId, openId)).toEqual(["m1"]);
    // B bills the lineage from the resume on, under its own request id.
    await resumed.waitFor((f) => f.event === "credits");
    resumed.abort();
    old.abort();
  }, 30_000);

  it("control: without the notice, A learns of the claim only at its next write, after charging one more interval", async () => {
    const { old, resumed, accountId, openId } = await takeOver(instances[2]!);
    expect(await endedWithin(old, 500)).toBe(false);
    expect(await endedWithin(old, BILLING_S * 1000 * 2)).toBe(true);
    expect(intervalDebits(accountId, openId)).toEqual(["m1", "m2"]);
    resumed.abort();
    old.abort();
  }, 30_000);
});
