// `send` with a fake fetch: the exact waits of the spec's retry guidance, per-attempt timeouts,
// the total deadline and the caller's abort.
import { describe, expect, it, vi } from "vitest";
import { ApiResponseError, DeadlineExceededError, NetworkError } from "../../lib/client";
import { send, waitBeforeRetryMs, type Transport } from "../../lib/client/send";

function transport(fetch: Transport["fetch"], o: Partial<Transport> = {}): Transport {
  return {
    fetch,
    nowMs: () => Date.now(),
    random: () => 0.5,
    baseBackoffMs: 1000,
    capBackoffMs: 30_000,
    defaults: { timeoutMs: 1000, deadlineMs: 10_000, maxAttempts: 5 },
    ...o,
  };
}

const error = (status: number, headers: Record<string, string> = {}) =>
  new ApiResponseError(
    "x",
    "c",
    1,
    status,
    null,
    null,
    headers.reset ? { limit: 1, remaining: 0, resetS: Number(headers.reset) } : null,
    headers.retryAfter ? Number(headers.retryAfter) : null,
    null,
  );

describe("send", () => {
  it("waits: full jitter min(30 s, 1 s * 2^n), at least Retry-After; a 429 without Retry-After until the reset plus jitter", () => {
    const t = { random: () => 0.5, baseBackoffMs: 1000, capBackoffMs: 30_000, nowMs: () => 10_000 };
    expect(waitBeforeRetryMs(error(503), 0, t)).toBe(500);
    expect(waitBeforeRetryMs(error(503), 3, t)).toBe(4000);
    expect(waitBeforeRetryMs(error(503), 10, t)).toBe(15_000);
    expect(waitBeforeRetryMs(error(503, { retryAfter: "7" }), 0, t)).toBe(7000);
    expect(waitBeforeRetryMs(error(429, { reset: "13" }), 0, t)).toBe(3000 + 500);
    expect(waitBeforeRetryMs(error(429, { reset: "13", retryAfter: "1" }), 0, t)).toBe(1000);
  });

  it("never retries a 4xx other than 429", async () => {
    for (const status of [400, 401, 402, 403, 404, 405, 422]) {
      let calls = 0;
      const t = transport(async () => {
        calls++;
        return Response.json({ error: { code: "nope", message: "no" } }, { status });
      });
      const e = (await send(t, "http://x/", {}).catch((x: unknown) => x)) as ApiResponseError;
      expect([e.status, e.code, calls]).toEqual([status, "nope", 1]);
    }
  });

  it("reads the flow module's upper-case code and the UDF error forms", async () => {
    const forms: [unknown, string, string][] = [
      [{ error: { code: "INVALID_PARAMETER", message: "Invalid value for `limit`" } }, "INVALID_PARAMETER", "Invalid value for `limit`"],
      [{ s: "error", errmsg: "too wide", requested_days: 95, max_days: 90, error: { code: "range_too_large", message: "too wide" } }, "range_too_large", "too wide"],
      [{ s: "error", errmsg: "unknown", success: false, error: "unknown symbol", code: "symbol_not_found" }, "symbol_not_found", "unknown symbol"],
    ];
    for (const [body, code, message] of forms) {
      const e = (await send(
        transport(async () => Response.json(body, { status: 400 })),
        "http://x/",
        {},
      ).catch((x: unknown) => x)) as ApiResponseError;
      expect([e.code, e.message]).toEqual([code, message]);
    }
  });

  it("retries network errors, then reports a NetworkError after maxAttempts", async () => {
    let calls = 0;
    const t = transport(
      async () => {
        calls++;
        throw new TypeError("fetch failed");
      },
      { baseBackoffMs: 1, capBackoffMs: 1 },
    );
    const e = await send(t, "http://x/", {}, { maxAttempts: 3 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect([(e as NetworkError).attempts, calls]).toEqual([3, 3]);
  });

  it("a hung attempt times out and is retried; the total deadline ends the call", async () => {
    let calls = 0;
    const hang: Transport["fetch"] = (_url, init) =>
      new Promise((_, reject) => {
        calls++;
        init.signal!.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    const e = await send(transport(hang, { baseBackoffMs: 1, capBackoffMs: 1 }), "http://x/", {}, { timeoutMs: 50, deadlineMs: 400, maxAttempts: 100 }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(DeadlineExceededError);
    // Retried after a timed-out attempt, and ended by the deadline (at most 400 / 50 attempts of
    // 50 ms each fit in it), not by running out of attempts.
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThanOrEqual(8);
  });

  it("the caller's abort rejects at once with its reason, even while waiting to retry", async () => {
    const controller = new AbortController();
    const t = transport(async () => Response.json({ error: { code: "warming_up", message: "w" } }, { status: 503, headers: { "Retry-After": "30" } }));
    // Timers are faked: the 30 s Retry-After can only pass if the test moves the clock, which it
    // moves just past the abort. The call settles without the clock moving further.
    vi.useFakeTimers();
    try {
      const startedAt = Date.now();
      setTimeout(() => controller.abort(new Error("stop")), 50);
      const pending = send(t, "http://x/", {}, { signal: controller.signal, deadlineMs: 60_000 }).catch((x: unknown) => x);
      await vi.advanceTimersByTimeAsync(50);
      const e = await pending;
      expect((e as Error).message).toBe("stop");
      expect(Date.now() - startedAt).toBe(50);
    } finally {
      vi.useRealTimers();
    }
  });
});
