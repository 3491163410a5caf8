// /v1/vol/stream?market=true: a `market` event (the /v1/vol/market object) each time SPXW's board
// minute changes, billed and limited as one more stream symbol; without the option no `market`
// event is sent. A real SSE client over a listening server.
import { describe, expect, it } from "vitest";
import { VolMarketSchema } from "../../../../lib/api/vol";
import { createSimulatedMarket, scaledClock } from "../../../../lib/market";
import { chainTerms, svxAll } from "../../../../lib/vol";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule } from "../../../../server/modules/vol";
import { configureStreams } from "../../../../server/streams/settings";
import { openRaw, sleep } from "../../streams/_sse";
import { useListening } from "../../streams/_server";

describe("/v1/vol/stream market=true", () => {
  // Wednesday 2024-03-06 10:02 ET; 60 simulated seconds per real second.
  const clock = scaledClock({ startMs: Date.parse("2024-03-06T15:02:00Z"), speed: 60 });
  const market = createSimulatedMarket({ seed: 5, clock });
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { accountId, key } = accounts.createAccount({ plan: "top", credits: 10_000 });
  const vol = createVolModule({ historySessions: 3, symbols: ["SPXW", "SPY"] });
  const app = createApp({ market, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock, modules: [metaModule, vol] });
  configureStreams(app.services, { tickMs: 10, revalidateMs: 100 });
  const listening = useListening(app, () => accounts.close());

  it("market is a boolean: anything else is a 400 naming it, not charged", async () => {
    const before = accounts.balance(accountId);
    const res = await fetch(`${listening.url}/v1/vol/stream?symbols=SPY&market=maybe`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain("market");
    expect(accounts.balance(accountId)).toBe(before);
  });

  it("pushes market events per SPXW board minute, each the /v1/vol/market object of that board; billed as one more symbol", async () => {
    const before = accounts.balance(accountId);
    const s = await openRaw(listening.url, key, "symbols=SPY&modules=iv&market=true", { path: "/v1/vol/stream" });
    try {
      expect(s.status).toBe(200);
      const connected = await s.waitFor((f) => f.event === "connected");
      // The market topic is reported as `market: true`, not as a symbol; it is billed like one.
      expect(connected.data).toMatchObject({ symbols: ["SPY"], modules: ["iv"], market: true, creditsPerMinute: 2 });
      expect(before - accounts.balance(accountId)).toBe(2);
      const first = await s.waitFor((f) => f.event === "market", 30_000);
      const { lagged, ...m } = first.data;
      expect(lagged).toBe(false);
      expect(() => VolMarketSchema.parse(m)).not.toThrow();
      expect(Object.keys(m).sort()).toEqual(Object.keys(VolMarketSchema.shape).sort());
      expect(m.symbol).toBe("SPXW");
      const asOfMs = Date.parse(m.asOf);
      expect(asOfMs % 60_000).toBe(0);
      // Independent: SVX of SPXW's board at that minute.
      const direct = svxAll(chainTerms((await market.chain("SPXW", asOfMs))!));
      expect(m.svx30).toBe(direct.svx30!.value);
      expect(m.svx9).toBe(direct.svx9!.value);
      // It recomputes with the board minute: a later market event, strictly later asOf.
      const next = await s.waitFor((f) => f.event === "market" && Date.parse(f.data.asOf) > asOfMs, 30_000);
      const direct2 = svxAll(chainTerms((await market.chain("SPXW", Date.parse(next.data.asOf)))!));
      expect(next.data.svx30).toBe(direct2.svx30!.value);
      // Per-minute debit: SPY plus the market topic.
      const credits = await s.waitFor((f) => f.event === "credits", 30_000);
      expect(credits.data.charged).toBe(2);
      // The vol events still come, for SPY only.
      const ev = await s.waitFor((f) => f.event === "vol", 30_000);
      expect(ev.data.symbol).toBe("SPY");
    } finally {
      s.abort();
    }
  }, 90_000);

  it("without market=true: no market event, billed for the symbols alone", async () => {
    const before = accounts.balance(accountId);
    const s = await openRaw(listening.url, key, "symbols=SPY&modules=iv", { path: "/v1/vol/stream" });
    try {
      const connected = await s.waitFor((f) => f.event === "connected");
      expect(connected.data).toMatchObject({ symbols: ["SPY"], market: false, creditsPerMinute: 1 });
      expect(before - accounts.balance(accountId)).toBe(1);
      await s.waitFor((f) => f.event === "vol", 30_000);
      const credits = await s.waitFor((f) => f.event === "credits", 30_000);
      expect(credits.data.charged).toBe(1);
      await sleep(1500);
      expect(s.frames.some((f) => f.event === "market")).toBe(false);
    } finally {
      s.abort();
    }
  }, 60_000);
});
