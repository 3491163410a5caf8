// Issue 38 item 8: `429 ip_rate_limited` refusals reach the access log, aggregated per address and
// minute (first refusal in full, the rest as one `ip_refusals` count), so a flood cannot fill a disk.
import { afterEach, describe, expect, it } from "vitest";
import { openAccountService } from "../../../server/accounts";
import { createApp } from "../../../server/app";
import { listen, type Listening } from "../../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import { createCeilingRefusalLog, REFUSAL_LOG_WINDOW_MS } from "../../../server/limits/ceiling-refusal-log";
import { fakeMarket } from "../_fake-market";
import { NOW_MS } from "../_harness";

describe("createCeilingRefusalLog", () => {
  it("writes the first refusal of each address per window in full and counts the rest into one summary", () => {
    const lines: Record<string, unknown>[] = [];
    let now = 1_700_000_000_000;
    const log = createCeilingRefusalLog({ logger: (l) => lines.push(l), wallNowMs: () => now });
    for (let i = 0; i < 140_000; i++) log.refused({ ip: "203.0.113.9", method: "GET", path: "/v1/heatmap" });
    log.refused({ ip: "198.51.100.7", method: "POST", path: "/v1/x" });
    // Two access lines so far, whatever the flood's size.
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ msg: "request", method: "GET", path: "/v1/heatmap", status: 429, code: "ip_rate_limited", ip: "203.0.113.9" });
    expect(lines[1]).toMatchObject({ msg: "request", status: 429, ip: "198.51.100.7" });
    // The window ends: the next refusal closes it, summarising only the address refused more than once.
    now += REFUSAL_LOG_WINDOW_MS;
    log.refused({ ip: "203.0.113.9", method: "GET", path: "/v1/heatmap" });
    expect(lines.slice(2)).toEqual([
      expect.objectContaining({ level: "warn", msg: "ip_refusals", code: "ip_rate_limited", ip: "203.0.113.9", refused: 140_000, windowS: 60 }),
      expect.objectContaining({ msg: "request", status: 429, ip: "203.0.113.9" }),
    ]);
    log.flush();
    expect(lines).toHaveLength(4); // one refusal in the new window: nothing more to summarise
  });

  it("closes a window early when it already counts maxAddresses addresses (bounded memory)", () => {
    const lines: Record<string, unknown>[] = [];
    const log = createCeilingRefusalLog({ logger: (l) => lines.push(l), wallNowMs: () => 0 }, { maxAddresses: 2 });
    for (const ip of ["a", "a", "b", "c"]) log.refused({ ip, method: "GET", path: "/" });
    expect(lines.map((l) => `${l.msg}:${l.ip}`)).toEqual(["request:a", "request:b", "ip_refusals:a", "request:c"]);
  });
});

describe("over a real socket", () => {
  let listening: Listening | null = null;
  afterEach(async () => {
    await listening?.close(true);
    listening = null;
  });

  it("refusals of the ceiling reach the access log (one line, then a count on shutdown)", async () => {
    const accounts = openAccountService({ dbPath: ":memory:" });
    const a = accounts.createAccount({ plan: "top", credits: 100 });
    const lines: Record<string, unknown>[] = [];
    const app = createApp({
      market: fakeMarket(NOW_MS),
      accounts,
      rateLimiter: createRateLimiter(),
      concurrency: createConcurrencyLimiter(),
      ipCeiling: { maxRequests: 2, trustedProxies: ["127.0.0.1"] },
      logger: (l) => lines.push(l),
    });
    listening = await listen(app, { port: 0 });
    const get = () => fetch(`${listening!.url}/v1/heatmap?symbols=SPY`, { headers: { Authorization: `Bearer ${a.key}`, "X-Forwarded-For": "203.0.113.9" } });
    for (let i = 0; i < 2; i++) expect((await get()).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await get()).status).toBe(429);
    const refusals = () => lines.filter((l) => l.code === "ip_rate_limited");
    expect(refusals()).toEqual([expect.objectContaining({ msg: "request", status: 429, ip: "203.0.113.9", method: "GET", path: "/v1/heatmap" })]);
    await app.shutdown(0);
    expect(refusals()[1]).toMatchObject({ msg: "ip_refusals", ip: "203.0.113.9", refused: 5 });
    // The admitted requests kept their usual access lines (no address in them).
    expect(lines.filter((l) => l.msg === "request" && l.status === 200)).toHaveLength(2);
    accounts.close();
  });
});
