import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createConcurrencyLimiter,
  createRateLimiter,
  rateLimitedError,
  rateLimitHeaders,
  SLOT_HISTORICAL,
  SLOT_STREAM_SYMBOLS,
  streamSymbolsInUse,
  tooManyConcurrentError,
} from "../../server/limits";

const T0 = Date.parse("2024-05-01T15:00:00Z"); // on a minute boundary

describe("rate limiter (fixed one-minute window)", () => {
  it("allows the limit, then refuses until the next minute; Reset is that minute in Unix seconds", () => {
    const rl = createRateLimiter();
    for (let i = 1; i <= 120; i++) {
      const d = rl.take("k1", 120, T0 + i * 100);
      expect(d).toEqual({ allowed: true, limit: 120, remaining: 120 - i, resetSec: T0 / 1000 + 60 });
    }
    expect(rl.take("k1", 120, T0 + 59_999)).toEqual({ allowed: false, limit: 120, remaining: 0, resetSec: T0 / 1000 + 60 });
    // Another key is counted on its own.
    expect(rl.take("k2", 120, T0 + 59_999).remaining).toBe(119);
    // The boundary instant belongs to the new window.
    expect(rl.take("k1", 120, T0 + 60_000)).toEqual({ allowed: true, limit: 120, remaining: 119, resetSec: T0 / 1000 + 120 });
  });

  it("never allows more than the limit in any aligned minute (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 300 }), (limit, gaps) => {
        const rl = createRateLimiter();
        let t = T0;
        const allowedPerMinute = new Map<number, number>();
        for (const g of gaps) {
          t += g;
          const d = rl.take("k", limit, t);
          const minute = Math.floor(t / 60_000);
          expect(d.resetSec).toBe((minute + 1) * 60);
          expect(d.resetSec * 1000).toBeGreaterThan(t);
          if (d.allowed) allowedPerMinute.set(minute, (allowedPerMinute.get(minute) ?? 0) + 1);
          expect(d.remaining).toBe(limit - (allowedPerMinute.get(minute) ?? 0));
        }
        for (const n of allowedPerMinute.values()) expect(n).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 100 },
    );
  });

  it("forgets finished windows", () => {
    const rl = createRateLimiter();
    for (let i = 0; i < 100; i++) rl.take(`k${i}`, 10, T0);
    expect(rl.size()).toBe(100);
    rl.take("late", 10, T0 + 60_000);
    expect(rl.size()).toBe(1);
  });

  it("renders the spec's headers and the 429 without Retry-After", () => {
    const d = { allowed: false, limit: 60, remaining: 0, resetSec: 1714575660 };
    expect(rateLimitHeaders(d)).toEqual({ "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1714575660" });
    const e = rateLimitedError(d);
    expect(e).toMatchObject({ status: 429, code: "rate_limited" });
    expect(e.headers["Retry-After"]).toBeUndefined();
    expect(e.headers["X-RateLimit-Remaining"]).toBe("0");
    const c = tooManyConcurrentError("historical replays", 2, 1);
    expect(c).toMatchObject({ status: 429, code: "too_many_concurrent_requests", headers: { "Retry-After": "1" } });
  });
});

describe("concurrency slots", () => {
  it("a third concurrent replay is refused; releasing frees exactly one slot, idempotently", () => {
    const slots = createConcurrencyLimiter();
    const a = slots.tryAcquire("acct", SLOT_HISTORICAL, 2);
    const b = slots.tryAcquire("acct", SLOT_HISTORICAL, 2);
    expect(a).toBeTypeOf("function");
    expect(b).toBeTypeOf("function");
    expect(slots.tryAcquire("acct", SLOT_HISTORICAL, 2)).toBeNull();
    // Another account and another kind are independent.
    expect(slots.tryAcquire("other", SLOT_HISTORICAL, 2)).not.toBeNull();
    expect(slots.tryAcquire("acct", SLOT_STREAM_SYMBOLS, 25)).not.toBeNull();
    a!();
    a!(); // finish and abort paths both release: only one slot comes back
    expect(slots.inUse("acct", SLOT_HISTORICAL)).toBe(1);
    const c = slots.tryAcquire("acct", SLOT_HISTORICAL, 2);
    expect(c).not.toBeNull();
    expect(slots.tryAcquire("acct", SLOT_HISTORICAL, 2)).toBeNull();
    b!();
    c!();
    expect(slots.inUse("acct", SLOT_HISTORICAL)).toBe(0);
  });

  it("stream symbols are held as units against streamSymbolsConcurrent", () => {
    const slots = createConcurrencyLimiter();
    const s1 = slots.tryAcquire("acct", SLOT_STREAM_SYMBOLS, 25, 10)!;
    const s2 = slots.tryAcquire("acct", SLOT_STREAM_SYMBOLS, 25, 10)!;
    expect(streamSymbolsInUse(slots, "acct")).toBe(20);
    expect(slots.tryAcquire("acct", SLOT_STREAM_SYMBOLS, 25, 6)).toBeNull();
    const s3 = slots.tryAcquire("acct", SLOT_STREAM_SYMBOLS, 25, 5)!;
    expect(streamSymbolsInUse(slots, "acct")).toBe(25);
    s1();
    s1();
    expect(streamSymbolsInUse(slots, "acct")).toBe(15);
    s2();
    s3();
    expect(streamSymbolsInUse(slots, "acct")).toBe(0);
  });

  it("in-use never exceeds max nor goes negative under random acquire/release (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.tuple(fc.boolean(), fc.nat(10)), { maxLength: 100 }), (max, ops) => {
        const slots = createConcurrencyLimiter();
        const held: (() => void)[] = [];
        let model = 0;
        for (const [acquire, pick] of ops) {
          if (acquire) {
            const r = slots.tryAcquire("a", "k", max);
            expect(r === null).toBe(model >= max);
            if (r) {
              held.push(r);
              model++;
            }
          } else if (held.length > 0) {
            const i = pick % held.length;
            held[i]();
            held[i](); // double release
            held.splice(i, 1);
            model--;
          }
          expect(slots.inUse("a", "k")).toBe(model);
        }
      }),
      { numRuns: 100 },
    );
  });
});
