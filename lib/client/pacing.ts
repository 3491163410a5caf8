/**
 * Self-pacing on the rate-limit headers (the spec's retry guidance, rule 4: "when
 * `X-RateLimit-Remaining` is low, pace by sleeping until `X-RateLimit-Reset`"). One pacer per
 * client (per key: the limit counts every host together). It keeps an estimate of the requests
 * left in the window: the last response's `X-RateLimit-Remaining` less the requests still in
 * flight (which may have been admitted after it), minus each request it lets go. At or below
 * `reserve` it holds requests until the reset instant, when the server's sliding window frees a
 * slot; then it lets one request go and holds the others until its headers say how many are free.
 * See docs/api.md#typed-client-rate-limit-pacing.
 */
import type { RateLimit } from "./response-headers";

/** Pacing settings (`createClient({ rateLimitPacing })`); `false` turns pacing off. */
export interface RateLimitPacing {
  /** Requests kept in hand: the client waits when the estimate is at or below this (default 0). */
  reserve?: number;
}

/** What a held request is told: wait this long (ms), or until the next response, then ask again. */
export type PaceDecision = { go: true } | { go: false; untilMs: number | null };

export class RateLimitPacer {
  private readonly reserve: number;
  /** Requests left in the window, as estimated; null before any rate-limit header. */
  private remaining: number | null = null;
  private resetMs = 0;
  private inFlight = 0;
  /** After the reset instant: one request went to learn the new count; the others wait for it. */
  private probing = false;
  private waiters: (() => void)[] = [];

  constructor(options: RateLimitPacing = {}) {
    this.reserve = Math.max(0, Math.floor(options.reserve ?? 0));
  }

  /** Whether a request may go now; a `go` counts it as sent (pair it with `settle`). */
  decide(nowMs: number): PaceDecision {
    if (this.remaining === null || this.remaining > this.reserve) {
      if (this.remaining !== null) this.remaining--;
      this.inFlight++;
      return { go: true };
    }
    if (nowMs < this.resetMs) return { go: false, untilMs: this.resetMs };
    if (this.probing) return { go: false, untilMs: null };
    this.probing = true;
    this.inFlight++;
    return { go: true };
  }

  /** A sent request ended: with the response's rate-limit headers, or null (none, or no response). */
  settle(rateLimit: RateLimit | null): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (rateLimit) {
      this.remaining = Math.max(0, rateLimit.remaining - this.inFlight);
      this.resetMs = rateLimit.resetS * 1000;
    }
    this.probing = false;
    const woken = this.waiters;
    this.waiters = [];
    for (const wake of woken) wake();
  }

  /** Resolves at the next `settle` (a held request then asks again). */
  nextSettle(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
