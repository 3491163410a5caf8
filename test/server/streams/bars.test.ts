// Issue 16 (price host): /v1/stream/bars, live bars on the stream machinery, each bar equal to
// the one-minute history it aggregates; charged per symbol like /v1/stream.
import { describe, expect, it } from "vitest";
import { createSimulatedMarket, scaledClock } from "../../../lib/market";
import { openAccountService } from "../../../server/accounts";
import { createApp } from "../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import { moduleStateOf, priceModule } from "../../../server/modules";
import { priceStreamHub } from "../../../server/modules/price";
import { configureStreams } from "../../../server/streams/settings";
import { openRaw } from "./_sse";
import { useListening } from "./_server";

describe("/v1/stream/bars", () => {
  // Wednesday 2024-03-06 10:02 ET; 60 simulated seconds per real second, so bars complete each second.
  const clock = scaledClock({ startMs: Date.parse("2024-03-06T15:02:00Z"), speed: 60 });
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { accountId, key } = accounts.createAccount({ plan: "top", credits: 10_000 });
  const app = createApp({
    market: createSimulatedMarket({ seed: 5, clock }),
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    clock,
  });
  configureStreams(app.services, { tickMs: 10, revalidateMs: 100 });
  const listening = useListening(app, () => accounts.close());

  it("sends connected, then bars that equal the one-minute history they aggregate; 1 credit per symbol to open", async () => {
    const before = accounts.balance(accountId);
    const s = await openRaw(listening.url, key, "symbols=SPY,NOPE,QQQ&resolution=5", { path: "/atlas/v1/stream/bars" });
    try {
      expect(s.status).toBe(200);
      const connected = await s.waitFor((f) => f.event === "connected");
      expect(connected.data).toMatchObject({ symbols: ["SPY", "QQQ"], resolution: "5" });
      expect(before - accounts.balance(accountId)).toBe(3); // charged for the symbols asked, as /v1/stream
      const spy = await s.waitFor((f) => f.event === "bar" && f.data.symbol === "SPY");
      await s.waitFor((f) => f.event === "bar" && f.data.symbol === "SPY" && f.data.asOf !== spy.data.asOf, 10_000);
      const bars = s.frames.filter((f) => f.event === "bar" && f.data.symbol === "SPY").map((f) => f.data);
      for (const bar of bars) {
        expect(bar.t % 300).toBe(0);
        // The same window read from /v1/history at one minute, aggregated here.
        const res = await fetch(`${listening.url}/atlas/v1/history?symbol=SPY&resolution=1&extended=true&from=${bar.t}&to=${Date.parse(bar.asOf) / 1000}`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        const m = await res.json();
        expect(m.s).toBe("ok");
        expect(bar.o).toBe(m.o[0]);
        expect(bar.h).toBe(Math.max(...m.h));
        expect(bar.l).toBe(Math.min(...m.l));
        expect(bar.c).toBe(m.c.at(-1));
        expect(bar.v).toBeCloseTo(
          m.v.reduce((a: number, b: number) => a + b, 0),
          6,
        );
      }
      const ids = s.frames.filter((f) => f.event === "bar").map((f) => f.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      s.abort();
    }
  });

  it("refuses an unknown resolution and more than 10 symbols with 400, uncharged", async () => {
    // The first test's stream bills each simulated minute until the server sees it gone.
    const hub = priceStreamHub(moduleStateOf(app.services, priceModule));
    for (let i = 0; i < 200 && hub.stats().connections > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(hub.stats().connections).toBe(0);
    const before = accounts.balance(accountId);
    for (const q of ["symbols=SPY&resolution=60", "symbols=A,B,C,D,E,F,G,H,I,J,K"]) {
      const s = await openRaw(listening.url, key, q, { path: "/atlas/v1/stream/bars" });
      expect(s.status, q).toBe(400);
      expect(s.body.error.code).toBe("invalid_parameter");
    }
    expect(accounts.balance(accountId)).toBe(before);
  });
});
