// The Redis sliding logs' batching (server/limits/redis-rate-limiter.ts): the checks of one
// event-loop turn go to Redis as ONE script call (counted by Redis's own command statistics),
// and each answer is the one the in-process limiter gives the same sequence; a call that fails
// (Redis gone) rejects its own checks with 503 at once, and the next turn's call works again
// once Redis is back. docs/methodology.md#redis-limit-batches.
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../../../server/limits";
import { openRedis } from "../../../server/limits/redis-connection";
import { createRedisRateLimiter } from "../../../server/limits/redis-rate-limiter";
import { createRedisIpCeiling } from "../../../server/limits/ip-ceiling";
import { startRedis, type RedisProcess } from "../../_services/redis-server";

const T0 = Date.parse("2024-05-01T15:00:00Z");

let server: RedisProcess;
let c: Redis;
beforeAll(async () => {
  server = await startRedis();
  c = await openRedis(server.url);
});
afterAll(async () => {
  c?.disconnect();
  await server?.stop();
});

/** Script calls Redis has run so far (EVALSHA, and EVAL when the script was not cached yet). */
async function scriptCalls(redis: Redis): Promise<number> {
  const info = await redis.info("commandstats");
  let n = 0;
  for (const m of info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)) n += Number(m[1]);
  return n;
}

describe("limit checks batched per event-loop turn", () => {
  it("150 takes in one turn are one script call, and answer as the in-process limiter does in order", async () => {
    const rl = createRedisRateLimiter(c, { prefix: "batch1:" });
    await rl.take("warm", 1, T0); // loads the script
    const before = await scriptCalls(c);
    const local = createRateLimiter();
    const keys = Array.from({ length: 150 }, (_, k) => (k % 3 === 0 ? "b" : "a"));
    const expected = keys.map((key, k) => local.take(key, 80, T0 + k));
    const got = await Promise.all(keys.map((key, k) => rl.take(key, 80, T0 + k)));
    expect(got).toEqual(expected);
    // Exactness: "a" has 100 takes at limit 80, so the 81st and later are refused.
    expect(got.filter((d, k) => keys[k] === "a" && d.allowed)).toHaveLength(80);
    // The INFO call itself is not a script call.
    expect((await scriptCalls(c)) - before).toBe(1);
  });

  it("more than 256 checks in a turn are split into calls of at most 256; logs of different key spaces share a call", async () => {
    const rl = createRedisRateLimiter(c, { prefix: "batch2:" });
    const ceiling = createRedisIpCeiling(c, { prefix: "batch2:" });
    await rl.take("warm", 1, T0);
    const before = await scriptCalls(c);
    const takes = Array.from({ length: 300 }, (_, k) => rl.take(`k${k % 7}`, 1000, T0 + k));
    const ips = Array.from({ length: 10 }, (_, k) => ceiling.take(`203.0.113.${k}`, T0 + k));
    const [decisions] = await Promise.all([Promise.all(takes), Promise.all(ips)]);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect((await scriptCalls(c)) - before).toBe(2);
  });

  it("while Redis is gone every check of a turn is refused 503 with Retry-After at once; the limiter works again when it is back", async () => {
    const own = await startRedis();
    const oc = await openRedis(own.url);
    try {
      const rl = createRedisRateLimiter(oc, { prefix: "down:" });
      expect((await rl.take("k", 5, T0)).allowed).toBe(true);
      await own.stop();
      const results = await Promise.allSettled(Array.from({ length: 40 }, (_, k) => rl.take("k", 5, T0 + k)));
      for (const r of results) {
        expect(r.status).toBe("rejected");
        expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 503, code: "unavailable", headers: { "Retry-After": "5" } });
      }
      const again = await startRedis(own.port);
      try {
        let decision = null;
        for (let i = 0; i < 50 && decision === null; i++) {
          await new Promise((r) => setTimeout(r, 100));
          decision = await rl.take("k", 5, T0 + 100).catch(() => null);
        }
        // A fresh Redis (the test's keeps no data across a restart): this is the first of 5.
        expect(decision).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
      } finally {
        await again.stop();
      }
    } finally {
      oc.disconnect();
    }
  });
});
