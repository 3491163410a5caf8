// The shared limiters on a real redis-server (Debian's, started by this file on loopback): the same
// decisions as the in-process limiters, atomic across connections, leases that free a dead
// instance's slots, and a 503 (never a wrong decision) when Redis is gone.
import fc from "fast-check";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../../../server/limits";
import { createRedisConcurrencyLimiter } from "../../../server/limits/redis-concurrency-limiter";
import { openRedis } from "../../../server/limits/redis-connection";
import { createRedisRateLimiter } from "../../../server/limits/redis-rate-limiter";
import { ApiError } from "../../../server/errors";
import { createIpCeiling, createRedisIpCeiling } from "../../../server/limits/ip-ceiling";
import { createRedisSignInLimiter, createSignInLimiter } from "../../../server/console/sign-in-limiter";
import { startRedis, type RedisProcess } from "../../_services/redis-server";

const T0 = Date.parse("2024-05-01T15:00:00Z");

let server: RedisProcess;
const clients: Redis[] = [];
async function client(): Promise<Redis> {
  const c = await openRedis(server.url);
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startRedis();
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await server?.stop();
});

describe("rate limiter on Redis", () => {
  it("decides exactly as the in-process sliding log, take and peek, on random traffic (property)", async () => {
    const shared = createRedisRateLimiter(await client(), { prefix: `p${Date.now()}:` });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 9_000 }), peek: fc.boolean(), key: fc.constantFrom("a", "b") }), { maxLength: 80 }),
        async (limit, ops) => {
          const local = createRateLimiter();
          const prefix = `r${++run}:`;
          let t = T0;
          for (const op of ops) {
            t += op.gap;
            const expected = op.peek ? local.peek(op.key, limit, t) : local.take(op.key, limit, t);
            const got = op.peek ? await shared.peek!(prefix + op.key, limit, t) : await shared.take(prefix + op.key, limit, t);
            expect(got).toEqual(expected);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("is exact across connections (instances): 200 concurrent takes at one instant admit exactly the limit", async () => {
    const limiters = await Promise.all([0, 1, 2].map(async () => createRedisRateLimiter(await client(), { prefix: "burst:" })));
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => limiters[i % 3]!.take("key_1", 120, T0)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(120);
    // Each admitted request saw a distinct count: remaining 119 .. 0, once each.
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.resetSec === T0 / 1000 + 60)).toBe(true);
  });
});

describe("concurrency slots on Redis", () => {
  it("admits up to max units across instances, refuses the next, and frees on release (idempotent)", async () => {
    const a = createRedisConcurrencyLimiter(await client(), { prefix: "s1:" });
    const b = createRedisConcurrencyLimiter(await client(), { prefix: "s1:" });
    const r1 = await a.tryAcquire("acct", "historical", 2);
    const r2 = await b.tryAcquire("acct", "historical", 2);
    expect(r1).not.toBeNull();
    expect(r2).not.toBeNull();
    expect(await a.tryAcquire("acct", "historical", 2)).toBeNull();
    expect(await b.inUse("acct", "historical")).toBe(2);
    // Other accounts and kinds are separate.
    expect(await b.tryAcquire("acct2", "historical", 2)).not.toBeNull();
    expect(await b.tryAcquire("acct", "stream-symbols", 25, 25)).not.toBeNull();
    r1!();
    r1!();
    await new Promise((r) => setTimeout(r, 50));
    expect(await a.inUse("acct", "historical")).toBe(1);
    expect(await b.tryAcquire("acct", "historical", 2)).not.toBeNull();
    a.close();
    b.close();
  });

  it("never over-admits under concurrent acquires from three instances (units per request)", async () => {
    const ls = await Promise.all([0, 1, 2].map(async () => createRedisConcurrencyLimiter(await client(), { prefix: "s2:" })));
    const got = await Promise.all(Array.from({ length: 60 }, (_, i) => ls[i % 3]!.tryAcquire("acct", "stream-symbols", 25, 1 + (i % 4))));
    const admittedUnits = got.reduce((sum, r, i) => sum + (r ? 1 + (i % 4) : 0), 0);
    expect(admittedUnits).toBeLessThanOrEqual(25);
    expect(admittedUnits).toBeGreaterThanOrEqual(22); // refusals only when the next request no longer fits
    expect(await ls[0]!.inUse("acct", "stream-symbols")).toBe(admittedUnits);
    for (const l of ls) l.close();
  });

  it("frees the slots of an instance that died (no release, no renewal) when its lease ends, and keeps live ones", async () => {
    const dead = createRedisConcurrencyLimiter(await client(), { prefix: "s3:", leaseMs: 400 });
    const live = createRedisConcurrencyLimiter(await client(), { prefix: "s3:", leaseMs: 400 });
    expect(await dead.tryAcquire("acct", "historical", 2)).not.toBeNull();
    expect(await live.tryAcquire("acct", "historical", 2)).not.toBeNull();
    dead.close(); // SIGKILL: renewals stop, the slot is never released
    expect(await live.tryAcquire("acct", "historical", 2)).toBeNull();
    await new Promise((r) => setTimeout(r, 900));
    // The dead slot expired; the live one was renewed (every lease/3) and still counts.
    expect(await live.inUse("acct", "historical")).toBe(1);
    expect(await live.tryAcquire("acct", "historical", 2)).not.toBeNull();
    live.close();
  });
});

describe("per-IP ceiling on Redis", () => {
  it("decides exactly as the in-process 30-second buckets, on random traffic (property)", async () => {
    const c = await client();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 15 }),
        fc.array(fc.record({ gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 45_000 })), address: fc.constantFrom("203.0.113.1", "203.0.113.2") }), {
          maxLength: 80,
          size: "max",
        }),
        async (maxRequests, ops) => {
          const local = createIpCeiling({ maxRequests });
          const shared = createRedisIpCeiling(c, { maxRequests, prefix: `ip${++run}:` });
          let t = T0 + 7_919;
          for (const op of ops) {
            t += op.gap;
            expect(await shared.take(op.address, t)).toBe(local.take(op.address, t));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("is one ceiling across instances: 50 concurrent requests from one address, ceiling 30, admit exactly 30", async () => {
    const ceilings = await Promise.all([0, 1, 2].map(async () => createRedisIpCeiling(await client(), { maxRequests: 30, prefix: "ipburst:" })));
    const admitted = await Promise.all(Array.from({ length: 50 }, (_, i) => ceilings[i % 3]!.take("198.51.100.4", T0 + i)));
    expect(admitted.filter(Boolean)).toHaveLength(30);
    // Another address has its own ceiling.
    expect(await ceilings[0]!.take("198.51.100.5", T0)).toBe(true);
  });
});

describe("console sign-in limits on Redis", () => {
  const limits = { perAccount: 3, perIp: 5, windowMs: 60_000 };

  it("gives the in-memory limiter's waits on random attempts, used as the console uses it (property)", async () => {
    const c = await client();
    let run = 0;
    const attempt = fc.record({
      gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_500 }), fc.integer({ min: 0, max: 30_000 })),
      account: fc.constantFrom("acct_a", "acct_b", null),
      ip: fc.constantFrom("203.0.113.1", "203.0.113.2"),
      outcome: fc.constantFrom("failure", "failure", "success"),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(attempt, { maxLength: 50, size: "max" }), async (attempts) => {
        const local = createSignInLimiter(limits);
        const shared = createRedisSignInLimiter(c, limits, `si${++run}:`);
        let t = T0 + 311;
        for (const a of attempts) {
          t += a.gap;
          const wait = local.blockedForS(a.account, a.ip, t);
          expect(await shared.blockedForS(a.account, a.ip, t)).toBe(wait);
          if (wait > 0) continue; // refused before any password work: nothing recorded
          if (a.outcome === "failure" || a.account === null) {
            local.recordFailure(a.account, a.ip, t);
            await shared.recordFailure(a.account, a.ip, t);
          } else {
            local.recordSuccess(a.account);
            await shared.recordSuccess(a.account);
          }
        }
      }),
      { numRuns: 30 },
    );
  });

  it("is one limit across instances: the 4th attempt on an account after 3 failures is refused wherever it lands", async () => {
    const ls = await Promise.all([0, 1, 2].map(async () => createRedisSignInLimiter(await client(), limits, "si-multi:")));
    for (let i = 0; i < 3; i++) {
      expect(await ls[i]!.blockedForS("acct_x", `192.0.2.${i}`, T0 + i)).toBe(0);
      await ls[i]!.recordFailure("acct_x", `192.0.2.${i}`, T0 + i);
    }
    for (const l of ls) expect(await l.blockedForS("acct_x", "192.0.2.99", T0 + 1_000)).toBe(59); // the first failure (T0) leaves the window at T0 + 60 s
  });
});

describe("when Redis is unreachable", () => {
  it("answers 503 unavailable with Retry-After (nothing decided, nothing charged), and recovers when it is back", async () => {
    const own = await startRedis();
    const c = await openRedis(own.url);
    const rl = createRedisRateLimiter(c, { prefix: "down:" });
    const slots = createRedisConcurrencyLimiter(c, { prefix: "down:" });
    expect((await rl.take("k", 5, T0)).allowed).toBe(true);
    await own.stop();
    const refused = await rl.take("k", 5, T0 + 1).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect((refused as ApiError).code).toBe("unavailable");
    expect((refused as ApiError).headers["Retry-After"]).toBe("5");
    await expect(slots.tryAcquire("acct", "historical", 2)).rejects.toMatchObject({ status: 503, code: "unavailable" });
    await expect(createRedisIpCeiling(c).take("203.0.113.1", T0)).rejects.toMatchObject({ status: 503, code: "unavailable" });
    await expect(createRedisSignInLimiter(c).blockedForS("acct", "203.0.113.1", T0)).rejects.toMatchObject({ status: 503, code: "unavailable" });
    // Back on the same port: the client reconnects by itself.
    const again = await startRedis(own.port);
    let decision = null;
    for (let i = 0; i < 50 && decision === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      decision = await rl.take("k", 5, T0 + 2).catch(() => null);
    }
    expect(decision?.allowed).toBe(true);
    slots.close();
    c.disconnect();
    await again.stop();
  });
});
