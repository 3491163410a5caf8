// Streamed boards are the /v1/heatmap boards of the same minute (velocity moved to its own event),
// and a symbol without a live board (outside the session) gets symbol_unavailable and is billed.
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../../lib/market/clock";
import { openRaw } from "./_sse";
import { SESSION_MS, startStreamServer } from "./_server";

describe("boards", () => {
  it("snapshot = heatmap entry without velocityPct; velocity carries the heatmap's velocityPct", async () => {
    const s = await startStreamServer({ clock: fixedClock(SESSION_MS + 17 * 60_000) });
    try {
      const q = "symbols=SPY,AAPL&metric=vanna&maxStrikes=20";
      const raw = await openRaw(s.url, s.key, q);
      await raw.waitFor((f) => f.event === "velocity" && f.data.symbol === "AAPL");
      const heat = await (await fetch(`${s.url}/v1/heatmap?${q}`, { headers: { Authorization: `Bearer ${s.key}` } })).json();
      for (const entry of heat.data.symbols) {
        const snap = raw.frames.find((f) => f.event === "snapshot" && f.data.symbol === entry.symbol)!.data;
        const vel = raw.frames.find((f) => f.event === "velocity" && f.data.symbol === entry.symbol)!.data;
        const { strikes, ...rest } = entry;
        expect(snap).toEqual({ ...rest, strikes: strikes.map(({ velocityPct: _, ...c }: any) => c), lagged: false });
        expect(vel.metric).toBe("vanna");
        expect(vel.asOf).toBe(entry.asOf);
        expect(vel.strikes.map((c: any) => [c.strike, c.value, c.velocityPct])).toEqual(strikes.map((c: any) => [c.strike, c.value, c.velocityPct]));
        const risers = [...strikes]
          .filter((c: any) => c.velocityPct > 0)
          .sort((a: any, b: any) => b.velocityPct - a.velocityPct)
          .slice(0, 5);
        expect(vel.topRisers.map((c: any) => c.strike)).toEqual(risers.map((c: any) => c.strike));
      }
      raw.abort();
    } finally {
      await s.close();
    }
  });

  it("outside the session: symbol_unavailable per symbol, no snapshot, still billed per symbol", async () => {
    // 21:00 ET on a trading day: no live board. A pinned clock still bills on wall time.
    const s = await startStreamServer({ clock: fixedClock(Date.parse("2024-03-07T02:00:00Z")), streams: { billingIntervalS: 1 } });
    try {
      const raw = await openRaw(s.url, s.key, "symbols=SPY,AAPL");
      expect(raw.status).toBe(200);
      const credits = await raw.waitFor((f) => f.event === "credits", 5000);
      expect(credits.data.charged).toBe(2);
      const un = raw.frames.filter((f) => f.event === "symbol_unavailable");
      expect(un.map((f) => f.data.symbol).sort()).toEqual(["AAPL", "SPY"]);
      expect(un.every((f) => f.data.reason === "no_live_board" && f.id !== null)).toBe(true);
      expect(raw.frames.some((f) => f.event === "snapshot")).toBe(false);
      raw.abort();
    } finally {
      await s.close();
    }
  });
});
