// The typed client against a real server started here: typed successes with credits and
// rate-limit headers, typed errors, no retry on 4xx, retries on a real 429 and a real 503.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { ApiResponseError, createClient, DeadlineExceededError } from "../../lib/client";
import { HeatmapDataSchema } from "../../lib/api/positioning";
import { NOW_MS } from "../server/_harness";
import { recordingFetch, startClientServer, type ClientServer } from "./_server";
import { simulatedMarketAt } from "../_helpers/simulated-market";

describe("typed client against the real server", () => {
  let s: ClientServer;
  beforeAll(async () => {
    s = await startClientServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it("getHeatmap: the same data as a raw request, the balance after the debit, rate-limit headers and request id", async () => {
    const api = createClient({ baseUrl: s.url, apiKey: s.key, validateResponses: true });
    const before = s.accounts.balance(s.accountId);
    const res = await api.getHeatmap({ symbols: ["SPY", "SPXW"], metric: "gamma", maxStrikes: 5 });
    expect(res.status).toBe(200);
    expect(res.creditsRemaining).toBe(before - 1);
    expect(s.accounts.balance(s.accountId)).toBe(before - 1);
    expect(res.requestId).toMatch(/\S/);
    expect(res.rateLimit).not.toBeNull();
    expect(res.rateLimit!.remaining).toBeLessThan(res.rateLimit!.limit);
    expect(res.data.symbols.map((e) => e.symbol)).toEqual(["SPY", "SPXW"]);
    expect(res.data.symbols[0].strikes.length).toBeLessThanOrEqual(5);
    expect(res.meta.metric).toBe("gamma");
    const raw = await fetch(`${s.url}/v1/heatmap?symbols=SPY,SPXW&metric=gamma&maxStrikes=5`, { headers: { Authorization: `Bearer ${s.key}` } });
    const rawBody = (await raw.json()) as { data: unknown };
    expect(HeatmapDataSchema.parse(rawBody.data)).toEqual(res.data);
  });

  it("reaches {atlas_url} routes (UDF bodies without the envelope, text/plain time)", async () => {
    // The price routes need minute bars: the simulated market has them.
    const s = await startClientServer({ market: simulatedMarketAt(42, NOW_MS) });
    onTestFinished(() => s.close());
    const api = createClient({ baseUrl: s.url, apiKey: s.key, validateResponses: true });
    const time = await api.getServerTime();
    expect(time.data).toBe(Math.floor(NOW_MS / 1000));
    const config = await api.getConfig();
    expect(config.data.supported_resolutions).toContain("D");
    const info = await api.resolveSymbol({ symbol: "spy" });
    expect(info.data.ticker).toBe("SPY");
    expect(info.creditsRemaining).toBe(s.accounts.balance(s.accountId));
    const to = Math.floor(NOW_MS / 1000);
    const bars = await api.getHistory({ symbol: "SPY", resolution: "5", from: to - 3600, to });
    expect(bars.data.s).toBe("ok");
    if (bars.data.s === "ok") {
      expect(bars.data.t.length).toBe(bars.data.c.length);
      for (const t of bars.data.t) expect(t).toBeGreaterThanOrEqual(to - 3600);
    }
  });

  it("a 400 is a typed error, sent once, not charged, naming the parameter", async () => {
    const rec = recordingFetch();
    const api = createClient({ baseUrl: s.url, apiKey: s.key, fetch: rec.fetch });
    const before = s.accounts.balance(s.accountId);
    // theta: not a metric (delta became one in issue 37).
    const error = await api.getHeatmap({ symbols: "SPY", metric: "theta" as "gamma" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
    const e = error as ApiResponseError;
    expect([e.status, e.code, e.attempts]).toEqual([400, "invalid_parameter", 1]);
    expect(e.message).toContain("metric");
    expect(e.requestId).toMatch(/\S/);
    expect(e.creditsRemaining).toBe(before);
    expect(rec.statuses).toEqual([400]);
    expect(s.accounts.balance(s.accountId)).toBe(before);
  });

  it("a bad key is 401/403 and never retried", async () => {
    const rec = recordingFetch();
    const api = createClient({ baseUrl: s.url, apiKey: "osk_not_a_key", fetch: rec.fetch });
    const e = (await api.getAccount().catch((x: unknown) => x)) as ApiResponseError;
    expect(e).toBeInstanceOf(ApiResponseError);
    expect([401, 403]).toContain(e.status);
    expect(rec.statuses.length).toBe(1);
  });

  it("a key-less description route sends no key and returns the document", async () => {
    const seen: (string | null)[] = [];
    const api = createClient({
      baseUrl: s.url,
      apiKey: s.key,
      fetch: (input, init) => {
        seen.push(new Headers(init.headers).get("authorization"));
        return fetch(input, init);
      },
    });
    const doc = await api.getPriceOpenAPI();
    expect(doc.data.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.data.paths)).toContain("/v1/history");
    expect(seen).toEqual([null]);
  });

  it("streamHeatmap opens the SSE stream through lib/stream-client and is charged per symbol", async () => {
    const api = createClient({ baseUrl: s.url, apiKey: s.key });
    const before = s.accounts.balance(s.accountId);
    const stream = api.streamHeatmap({ symbols: ["SPY"], maxStrikes: 3 });
    let first: { event: string; data: unknown } | undefined;
    for await (const event of stream) {
      first = event;
      break;
    }
    stream.close();
    expect(first?.event).toBe("connected");
    expect(s.accounts.balance(s.accountId)).toBeLessThanOrEqual(before - 1);
  });
});

describe("retries on the real server's 429 and 503", () => {
  it("429 rate_limited without Retry-After: waits until X-RateLimit-Reset, then succeeds", async () => {
    let denials = 1;
    let resetMs = 0;
    const s = await startClientServer({
      rateLimiter: (real) => ({
        take(keyId, limit, nowMs) {
          if (denials-- > 0) {
            const resetSec = Math.ceil(nowMs / 1000) + 1;
            resetMs = resetSec * 1000;
            return { allowed: false, limit, remaining: 0, resetSec };
          }
          return real.take(keyId, limit, nowMs);
        },
      }),
    });
    try {
      const rec = recordingFetch();
      const api = createClient({ baseUrl: s.url, apiKey: s.key, fetch: rec.fetch, random: () => 0 });
      const res = await api.getAccount();
      expect(rec.statuses).toEqual([429, 200]);
      expect(res.attempts).toBe(2);
      expect(Date.now()).toBeGreaterThanOrEqual(resetMs);
      expect(res.data.creditsBalance).toBe(s.accounts.balance(s.accountId));
    } finally {
      await s.close();
    }
  });

  it("429 whose reset lies past the deadline: a DeadlineExceededError carrying the 429, without waiting", async () => {
    const s = await startClientServer({
      rateLimiter: () => ({ take: (_k, limit, nowMs) => ({ allowed: false, limit, remaining: 0, resetSec: Math.ceil(nowMs / 1000) + 3600 }) }),
    });
    try {
      // A deadline longer than the test's time limit: waiting for it would fail the test.
      const api = createClient({ baseUrl: s.url, apiKey: s.key, deadlineMs: 600_000 });
      const e = (await api.getAccount().catch((x: unknown) => x)) as DeadlineExceededError;
      expect(e).toBeInstanceOf(DeadlineExceededError);
      expect(e.lastError).toBeInstanceOf(ApiResponseError);
      expect((e.lastError as ApiResponseError).status).toBe(429);
      expect((e.lastError as ApiResponseError).code).toBe("rate_limited");
      expect((e.lastError as ApiResponseError).rateLimit?.remaining).toBe(0);
    } finally {
      await s.close();
    }
  });

  it("503 warming_up with Retry-After: 1 is retried no sooner than a second later and succeeds, uncharged for the 503", async () => {
    let warming = true;
    const s = await startClientServer({ control: { state: () => (warming ? { mode: "warming_up", retryAfterS: 1, progress: null } : { mode: "open" }) } });
    try {
      let at503 = 0;
      const rec = recordingFetch((status) => {
        if (status === 503) {
          at503 = Date.now();
          warming = false;
        }
      });
      const api = createClient({ baseUrl: s.url, apiKey: s.key, fetch: rec.fetch, random: () => 0 });
      const before = s.accounts.balance(s.accountId);
      const res = await api.getLevels({ symbols: "SPY" });
      expect(rec.statuses).toEqual([503, 200]);
      expect(Date.now() - at503).toBeGreaterThanOrEqual(1000);
      expect(res.creditsRemaining).toBe(before - 1);
    } finally {
      await s.close();
    }
  });

  it("503 on every attempt: gives up after maxAttempts with the last 503", async () => {
    const s = await startClientServer({ control: { state: () => ({ mode: "warming_up", retryAfterS: 0, progress: null }) } });
    try {
      const rec = recordingFetch();
      const api = createClient({ baseUrl: s.url, apiKey: s.key, fetch: rec.fetch, maxAttempts: 3, baseBackoffMs: 10 });
      const e = (await api.getLevels({ symbols: "SPY" }).catch((x: unknown) => x)) as ApiResponseError;
      expect(e).toBeInstanceOf(ApiResponseError);
      expect([e.status, e.code, e.attempts]).toEqual([503, "warming_up", 3]);
      expect(rec.statuses).toEqual([503, 503, 503]);
    } finally {
      await s.close();
    }
  });
});
