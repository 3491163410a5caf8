// The client paces itself on the rate-limit headers (spec retry guidance rule 4): with none left
// it waits until X-RateLimit-Reset instead of drawing a 429. The pacer's rules, then the real
// server's own sliding-log limiter, run 60x faster (a 1-second window) so the test takes seconds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../lib/client";
import { RateLimitPacer } from "../../lib/client/pacing";
import type { RateDecision, RateLimiter } from "../../server/accounts/types";
import { recordingFetch, startClientServer, type ClientServer } from "./_server";

describe("RateLimitPacer", () => {
  const rl = (remaining: number, resetS: number) => ({ limit: 10, remaining, resetS });

  it("lets requests go while the estimate stays above the reserve, counting each one sent", () => {
    const p = new RateLimitPacer({ reserve: 1 });
    expect(p.decide(0)).toEqual({ go: true }); // nothing known yet
    p.settle(rl(3, 60));
    // 3 left, 1 kept in hand: two more go, the third waits for the reset instant.
    expect(p.decide(1000)).toEqual({ go: true });
    expect(p.decide(1000)).toEqual({ go: true });
    expect(p.decide(1000)).toEqual({ go: false, untilMs: 60_000 });
  });

  it("counts requests still in flight against the last response's figure", () => {
    const p = new RateLimitPacer();
    for (let i = 0; i < 3; i++) expect(p.decide(0).go).toBe(true);
    // The first answer says 2 left, but two others are in flight and may have been admitted after it.
    p.settle(rl(2, 60));
    expect(p.decide(0)).toEqual({ go: false, untilMs: 60_000 });
  });

  it("after the reset instant lets exactly one request go and holds the rest until its answer", async () => {
    const p = new RateLimitPacer();
    p.settle(rl(0, 60)); // (a settle without a send is harmless: in-flight never goes negative)
    expect(p.decide(59_999)).toEqual({ go: false, untilMs: 60_000 });
    expect(p.decide(60_000)).toEqual({ go: true });
    expect(p.decide(60_000)).toEqual({ go: false, untilMs: null });
    const woken = p.nextSettle();
    p.settle(rl(4, 61));
    await woken;
    expect(p.decide(60_001)).toEqual({ go: true });
  });

  it("a request that got no answer frees the probe without changing the estimate", () => {
    const p = new RateLimitPacer();
    p.settle(rl(0, 60));
    expect(p.decide(60_000).go).toBe(true);
    p.settle(null);
    expect(p.decide(60_000).go).toBe(true); // a new probe
  });
});

/** The server's real limiter with its clock run `speed` times faster (a 60/speed-second window). */
function faster(real: RateLimiter, speed: number): RateLimiter {
  const t0 = Date.now();
  const scaled = (d: RateDecision): RateDecision => ({ ...d, resetSec: Math.ceil((t0 + (d.resetSec * 1000 - t0) / speed) / 1000) });
  return {
    take: async (keyId, limit, nowMs) => scaled(await real.take(keyId, limit, t0 + (nowMs - t0) * speed)),
  };
}

describe("pacing against the real server's limiter (3 requests per 1-second window)", () => {
  let s: ClientServer;
  beforeAll(async () => {
    s = await startClientServer({ rateLimiter: (real) => faster(real, 60) });
  });
  afterAll(() => s.close());
  /** A new key limited to 3 requests per window: each case starts with its 3 requests available. */
  const freshKey = () => {
    const { accountId, key } = s.accounts.createAccount({ plan: "top", credits: 1000 });
    s.accounts.updateAccount(accountId, { requestsPerMinute: 3 });
    return key;
  };

  it("without pacing, back-to-back calls draw 429s (the limit is real)", async () => {
    const apiKey = freshKey();
    const rec = recordingFetch();
    const api = createClient({ baseUrl: s.url, apiKey, fetch: rec.fetch, rateLimitPacing: false, random: () => 0 });
    for (let i = 0; i < 5; i++) await api.getAccount();
    expect(rec.statuses).toContain(429);
  }, 30_000);

  it("paced, sequential calls never see a 429 and wait for the reset instead", async () => {
    const apiKey = freshKey();
    const rec = recordingFetch();
    const api = createClient({ baseUrl: s.url, apiKey, fetch: rec.fetch });
    const started = Date.now();
    const responses = [];
    for (let i = 0; i < 5; i++) responses.push(await api.getAccount());
    expect(rec.statuses).toEqual([200, 200, 200, 200, 200]);
    expect(responses.every((r) => r.attempts === 1)).toBe(true);
    // The 4th had to wait for a slot: the window is one second long.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(responses[2].rateLimit?.remaining).toBe(0);
  }, 30_000);

  it("paced, concurrent calls (after one answer told the count) never see a 429", async () => {
    const apiKey = freshKey();
    const rec = recordingFetch();
    const api = createClient({ baseUrl: s.url, apiKey, fetch: rec.fetch });
    await api.getAccount();
    const all = await Promise.all(Array.from({ length: 6 }, () => api.getAccount()));
    expect(all).toHaveLength(6);
    expect(rec.statuses.filter((x) => x !== 200)).toEqual([]);
  }, 30_000);

  it("a wait past the call's deadline fails at once with DeadlineExceededError, sending nothing", async () => {
    const apiKey = freshKey();
    const rec = recordingFetch();
    const api = createClient({ baseUrl: s.url, apiKey, fetch: rec.fetch });
    for (let i = 0; i < 3; i++) await api.getAccount();
    // "At once": settled before the event loop reaches its check phase, so before any timer, a
    // 50 ms one included, could have run.
    const call = api.getAccount(undefined, { deadlineMs: 50 }).catch((x: unknown) => x);
    const first = await Promise.race([call, new Promise((r) => setImmediate(() => r("still waiting")))]);
    expect((first as Error).name).toBe("DeadlineExceededError");
    expect(rec.statuses).toEqual([200, 200, 200]);
  }, 30_000);
});
