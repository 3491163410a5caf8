// Issue 19 (operational states): the per-IP edge ceiling over a sliding 5 minutes, all keys
// combined, answered 429 ip_rate_limited with Retry-After: 60, no rate-limit headers, uncharged.
import { afterEach, describe, expect, it } from "vitest";
import { openAccountService } from "../../../server/accounts";
import { createApp } from "../../../server/app";
import { listen, type Listening } from "../../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import { clientAddress, createIpCeiling } from "../../../server/limits/ip-ceiling";
import { fakeMarket } from "../_fake-market";
import { NOW_MS } from "../_harness";

describe("clientAddress", () => {
  const trusted = new Set(["10.0.0.2", "10.0.0.3"]);
  it("believes X-Forwarded-For only from a trusted proxy, taking the right-most untrusted hop", () => {
    expect(clientAddress("198.51.100.7", "203.0.113.9", trusted)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.2", "203.0.113.9", trusted)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.2", "1.1.1.1, 203.0.113.9, 10.0.0.3", trusted)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.2", null, trusted)).toBe("10.0.0.2");
  });
});

describe("createIpCeiling", () => {
  it("admits maxRequests per address in any window and frees them as 30-second buckets age out", () => {
    const c = createIpCeiling({ maxRequests: 10, windowS: 300 });
    const t0 = 1_000_000_000_000 - (1_000_000_000_000 % 30_000);
    for (let i = 0; i < 10; i++) expect(c.take("a", t0 + i * 1000)).toBe(true);
    expect(c.take("a", t0 + 20_000)).toBe(false);
    expect(c.take("b", t0 + 20_000)).toBe(true); // another address is not affected
    expect(c.take("a", t0 + 299_000)).toBe(false); // still inside 5 minutes of the first bucket
    expect(c.take("a", t0 + 300_000)).toBe(true); // the first bucket left the window
  });
});

describe("over a real socket", () => {
  let listening: Listening | null = null;
  afterEach(async () => {
    await listening?.close(true);
    listening = null;
  });

  it("the request over the ceiling is 429 ip_rate_limited, Retry-After 60, no rate-limit headers, not charged", async () => {
    const accounts = openAccountService({ dbPath: ":memory:" });
    const a = accounts.createAccount({ plan: "top", credits: 100 });
    const b = accounts.createAccount({ plan: "top", credits: 100 });
    const app = createApp({
      market: fakeMarket(NOW_MS),
      accounts,
      rateLimiter: createRateLimiter(),
      concurrency: createConcurrencyLimiter(),
      ipCeiling: { maxRequests: 5, trustedProxies: ["127.0.0.1"] },
    });
    listening = await listen(app, { port: 0 });
    const get = (key: string, from: string) =>
      fetch(`${listening!.url}/v1/heatmap?symbols=SPY`, { headers: { Authorization: `Bearer ${key}`, "X-Forwarded-For": from } });
    // Five requests from one client address, two keys of two accounts combined.
    for (let i = 0; i < 5; i++) expect((await get(i % 2 ? a.key : b.key, "203.0.113.9")).status).toBe(200);
    const refused = await get(a.key, "203.0.113.9");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("x-ratelimit-limit")).toBeNull();
    expect((await refused.json()).error.code).toBe("ip_rate_limited");
    expect(accounts.balance(a.accountId) + accounts.balance(b.accountId)).toBe(200 - 5);
    // Another client behind the same proxy is not refused.
    expect((await get(a.key, "203.0.113.10")).status).toBe(200);
    accounts.close();
  });
});
