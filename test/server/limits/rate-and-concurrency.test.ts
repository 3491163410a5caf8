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
} from "../../../server/limits";

const T0 = Date.parse("2024-05-01T15:00:00Z"); // on a minute boundary

describe("rate limiter (sliding 60-second log)", () => {
  it("allows the limit, then refuses until the oldest request is 60 s old; Reset is when a slot frees, Unix seconds", () => {
    const rl = createRateLimiter();
    for (let i = 1; i <= 120; i++) {
      const d = rl.take("k1", 120, T0 + i * 100);
      // The oldest counted request (T0 + 100 ms) leaves the window at T0 + 60.1 s: rounded up.
      expect(d).toEqual({ allowed: true, limit: 120, remaining: 120 - i, resetSec: T0 / 1000 + 61 });
    }
    expect(rl.take("k1", 120, T0 + 59_999)).toEqual({ allowed: false, limit: 120, remaining: 0, resetSec: T0 / 1000 + 61 });
    // Another key is counted on its own.
    expect(rl.take("k2", 120, T0 + 59_999).remaining).toBe(119);
    // The minute boundary opens nothing: the window slides, it does not reset.
    expect(rl.take("k1", 120, T0 + 60_000).allowed).toBe(false);
    // Exactly 60 s after the first request, its slot is free again (and only its slot).
    expect(rl.take("k1", 120, T0 + 60_100)).toEqual({ allowed: true, limit: 120, remaining: 0, resetSec: T0 / 1000 + 61 });
    expect(rl.take("k1", 120, T0 + 60_150).allowed).toBe(false);
    expect(rl.take("k1", 120, T0 + 60_200).allowed).toBe(true);
  });

  it("issue 13 item 12: 198 requests in 0.72 s across a minute boundary no longer pass; at most the limit do", () => {
    const rl = createRateLimiter();
    let allowed = 0;
    // 99 requests in the last 0.36 s of one minute, 99 in the first 0.36 s of the next.
    for (let i = 0; i < 198; i++) if (rl.take("k", 120, T0 + 60_000 - 360 + i * (720 / 198)).allowed) allowed++;
    expect(allowed).toBe(120);
  });

  it("no 60-second window ever admits more than the limit; remaining and Reset are exact (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 400 }),
        fc.integer({ min: 0, max: 59_999 }),
        (limit, gaps, offsetMs) => {
          const rl = createRateLimiter();
          let t = T0 + offsetMs;
          const admitted: number[] = [];
          for (const g of gaps) {
            t += g;
            const inWindow = admitted.filter((a) => a > t - 60_000);
            const d = rl.take("k", limit, t);
            expect(d.allowed).toBe(inWindow.length < limit);
            if (d.allowed) {
              inWindow.push(t);
              admitted.push(t);
            }
            expect(d.remaining).toBe(Math.max(0, limit - inWindow.length));
            expect(d.resetSec).toBe(Math.ceil((inWindow[0]! + 60_000) / 1000));
            expect(d.resetSec * 1000).toBeGreaterThan(t);
          }
          // Any 60-second window [a, a + 60 s): the densest ones start at an admitted instant.
          for (let i = 0; i < admitted.length; i++) {
            const n = admitted.filter((a) => a >= admitted[i]! && a < admitted[i]! + 60_000).length;
            expect(n).toBeLessThanOrEqual(limit);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("bursts at arbitrary instants never exceed the limit in any window (property, dense timestamps)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.array(fc.integer({ min: 0, max: 180_000 }), { maxLength: 300 }), (limit, instants) => {
        const rl = createRateLimiter();
        const sorted = [...instants].sort((a, b) => a - b);
        const admitted = sorted.filter((ms) => rl.take("k", limit, T0 + ms).allowed);
        for (const start of admitted) {
          expect(admitted.filter((a) => a >= start && a < start + 60_000).length).toBeLessThanOrEqual(limit);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a clock stepping back opens no room", () => {
    const rl = createRateLimiter();
    for (let i = 0; i < 5; i++) expect(rl.take("k", 5, T0 + 30_000).allowed).toBe(true);
    expect(rl.take("k", 5, T0).allowed).toBe(false);
    expect(rl.take("k", 5, T0 + 89_999).allowed).toBe(false);
    expect(rl.take("k", 5, T0 + 90_000).allowed).toBe(true);
  });

  it("a lowered limit applies at once; a raised one opens room at once", () => {
    const rl = createRateLimiter();
    for (let i = 0; i < 10; i++) rl.take("k", 10, T0 + i);
    expect(rl.take("k", 5, T0 + 100)).toMatchObject({ allowed: false, remaining: 0 });
    expect(rl.take("k", 20, T0 + 200)).toMatchObject({ allowed: true, remaining: 14 });
  });

  it("forgets keys with nothing left in their window", () => {
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

describe("rate limiter peek (figures for responses that are not requests)", () => {
  it("reports what take would, without counting", () => {
    const rl = createRateLimiter();
    const t = 1_700_000_000_000;
    expect(rl.peek!("k", 3, t)).toEqual({ allowed: true, limit: 3, remaining: 3, resetSec: Math.ceil((t + 60_000) / 1000) });
    rl.take("k", 3, t);
    rl.take("k", 3, t + 1000);
    const p = rl.peek!("k", 3, t + 2000);
    expect(p).toEqual({ allowed: true, limit: 3, remaining: 1, resetSec: Math.ceil((t + 60_000) / 1000) });
    expect(rl.peek!("k", 3, t + 2000)).toEqual(p);
    expect(rl.take("k", 3, t + 2000).remaining).toBe(0);
    // At t + 61 s the requests of t and t + 1 s have left the window (a window is (now - 60 s, now]).
    expect(rl.peek!("k", 3, t + 61_000)).toMatchObject({ remaining: 2, allowed: true });
  });
});
