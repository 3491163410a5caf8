// /v1/vol/stream on the stream machinery: connected, a `vol` event per symbol carrying the
// snapshot element of the requested modules, symbol_unavailable for an uncovered symbol, charged
// 1 credit per symbol to open; module validation; not_entitled on a plan without volatility data.
import { describe, expect, it } from "vitest";
import { createSimulatedMarket, scaledClock } from "../../../../lib/market";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule } from "../../../../server/modules/vol";
import { configureStreams } from "../../../../server/streams/settings";
import { openRaw } from "../../streams/_sse";
import { useListening } from "../../streams/_server";

describe("/v1/vol/stream", () => {
  // Wednesday 2024-03-06 10:02 ET; 60 simulated seconds per real second.
  const clock = scaledClock({ startMs: Date.parse("2024-03-06T15:02:00Z"), speed: 60 });
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { accountId, key } = accounts.createAccount({ plan: "top", credits: 10_000 });
  const other = accounts.createAccount({ plan: "index-etf", credits: 10_000 });
  const vol = createVolModule({ historySessions: 3, symbols: ["SPXW", "SPY", "QQQ"] });
  const app = createApp({
    market: createSimulatedMarket({ seed: 5, clock }),
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    clock,
    modules: [metaModule, vol],
  });
  configureStreams(app.services, { tickMs: 10, revalidateMs: 100 });
  const listening = useListening(app, () => accounts.close());

  it("refuses an unknown module with 400 naming modules, not charged", async () => {
    const before = accounts.balance(accountId);
    const res = await fetch(`${listening.url}/v1/vol/stream?symbols=SPY&modules=iv,bogus`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.message).toContain("modules");
    expect(accounts.balance(accountId)).toBe(before);
  });

  it("a plan without volatility data gets 403 not_entitled, not charged", async () => {
    const res = await fetch(`${listening.url}/v1/vol/stream?symbols=SPY`, { headers: { Authorization: `Bearer ${other.key}` } });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("not_entitled");
    expect(accounts.balance(other.accountId)).toBe(10_000);
  });
  it("connected, then vol events with the requested modules; charged 1 per symbol to open", async () => {
    const before = accounts.balance(accountId);
    const s = await openRaw(listening.url, key, "symbols=SPY,AAPL&modules=sigma,iv", { path: "/v1/vol/stream" });
    try {
      expect(s.status).toBe(200);
      const connected = await s.waitFor((f) => f.event === "connected");
      expect(connected.data).toMatchObject({ symbols: ["SPY"], modules: ["iv", "sigma"] });
      expect(before - accounts.balance(accountId)).toBe(2);
      const ev = await s.waitFor((f) => f.event === "vol" && f.data.symbol === "SPY", 30_000);
      expect(Object.keys(ev.data).sort()).toEqual(["asOf", "iv", "lagged", "sessionDate", "sigma", "stale", "symbol"]);
      const asOfMs = Date.parse(ev.data.asOf);
      expect(asOfMs % 60_000).toBe(0);
      expect(typeof ev.data.sigma.running_sigma).toBe("number");
    } finally {
      s.abort();
    }
  }, 60_000);
});
