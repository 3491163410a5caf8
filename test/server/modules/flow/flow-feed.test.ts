// GET /v1/flow/{ticker}: each expectation recomputed from the raw prints of the simulated market.
import { describe, expect, it } from "vitest";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, TODAY } from "./_flow-harness";

const h = flowHarness();
const OPEN = sessionBounds(TODAY).openMs;

/** The default window: the last hour of the session so far, clipped at the open. */
async function windowPrints() {
  const prints = await h.sim.optionPrints("AAPL", OPEN, NOW_MS);
  return prints.filter((p) => p.tsMs >= Math.max(OPEN, NOW_MS - 3_600_000));
}

describe("/v1/flow/{ticker}", () => {
  it("returns the newest trades first with premium and side from the raw prints; charges 1 credit", async () => {
    const before = h.accounts.balance(h.accountId);
    const res = await h.get("/v1/flow/aapl?limit=50");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Remaining")).toBe(String(before - 1));
    const b = await body(res);
    const prints = await windowPrints();
    expect(b.data.ticker).toBe("AAPL");
    expect(b.data.tradeCount).toBe(prints.length);
    const newest = prints.slice(-50).reverse();
    expect(b.data.trades.map((t: any) => t.tradeId)).toEqual(newest.map((p) => p.id));
    for (let i = 0; i < newest.length; i++) {
      const p = newest[i];
      const t = b.data.trades[i];
      expect(t.premium).toBeCloseTo(p.price * p.size * 100, 6);
      expect(t.contracts).toBe(p.size);
      expect(t.optionType).toBe(p.right === "C" ? "CALL" : "PUT");
      // Side against the NBBO at the print: at or above the ask is an ask-side trade, at or below the bid bid-side.
      if (p.nbboAsk > p.nbboBid && p.price >= p.nbboAsk) expect(t.side).toMatch(/^A/);
      if (p.nbboAsk > p.nbboBid && p.price <= p.nbboBid) expect(t.side).toMatch(/^B/);
      expect(t.scores.flowScore).toBeGreaterThanOrEqual(-100);
      expect(t.scores.flowScore).toBeLessThanOrEqual(100);
    }
    const total = prints.reduce((s, p) => s + p.price * p.size * 100, 0);
    expect(b.data.totalPremium).toBeCloseTo(total, 3);
    expect(b.meta.requestId).toBeTruthy();
    expect(typeof b.meta.nextCursor).toBe("string");
  });

  it("cursor paging walks the window newest to oldest without gaps or repeats", async () => {
    const prints = await windowPrints();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await h.get(`/v1/flow/AAPL?limit=500${cursor ? `&cursor=${cursor}` : ""}`);
      const b = await body(res);
      seen.push(...b.data.trades.map((t: any) => t.tradeId));
      cursor = b.meta.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(prints.map((p) => p.id).reverse());
  });

  it("filters: puts at or above a premium, counted independently", async () => {
    const prints = await windowPrints();
    const want = prints.filter((p) => p.right === "P" && p.price * p.size * 100 >= 5_000);
    const b = await body(await h.get("/v1/flow/AAPL?option_type=put&min_premium=5000&limit=500"));
    expect(b.data.tradeCount).toBe(want.length);
    expect(b.data.trades.map((t: any) => t.tradeId)).toEqual(
      want
        .map((p) => p.id)
        .reverse()
        .slice(0, 500),
    );
    const timeframe = await body(await h.get("/v1/flow/AAPL?timeframe=5m&limit=500"));
    expect(timeframe.data.tradeCount).toBe(prints.filter((p) => p.tsMs >= NOW_MS - 300_000).length);
  });

  it("a past session is the whole session", async () => {
    const { openMs, closeMs } = sessionBounds("2024-03-05");
    const prints = await h.sim.optionPrints("AAPL", openMs, closeMs);
    const b = await body(await h.get("/v1/flow/AAPL?date=2024-03-05&timeframe=1d&limit=1"));
    expect(b.data.tradeCount).toBe(prints.length);
    expect(b.data.trades[0].tradeId).toBe(prints.at(-1)!.id);
  });

  it.each([
    ["/v1/flow/ZZZZQ", 404, "SYMBOL_NOT_FOUND", "ticker"],
    ["/v1/flow/AAPL?limit=501", 400, "INVALID_PARAMETER", "limit"],
    ["/v1/flow/AAPL?limit=0", 400, "INVALID_PARAMETER", "limit"],
    ["/v1/flow/AAPL?timeframe=2h", 400, "INVALID_PARAMETER", "timeframe"],
    ["/v1/flow/AAPL?date=2024-03-09", 400, "INVALID_PARAMETER", "date"],
    ["/v1/flow/AAPL?date=2024-03-07", 400, "INVALID_PARAMETER", "date"],
    ["/v1/flow/AAPL?cursor=bm9wZQ", 400, "INVALID_PARAMETER", "cursor"],
    ["/v1/flow/AAPL?moneyness=otm,far", 400, "INVALID_PARAMETER", "moneyness"],
    ["/v1/flow/AAPL?min_premium=10&max_premium=5", 400, "INVALID_PARAMETER", "min_premium"],
    ["/v1/flow/AAPL?conviction_weights={bad", 400, "INVALID_PARAMETER", "conviction_weights"],
  ])("%s -> %i %s naming %s, not charged", async (path, status, code, param) => {
    const before = h.accounts.balance(h.accountId);
    const res = await h.get(path);
    expect(res.status).toBe(status);
    const b = await body(res);
    expect(b.error.code).toBe(code);
    expect(b.error.message).toContain(param);
    expect(h.accounts.balance(h.accountId)).toBe(before);
    expect(res.headers.get("X-Credits-Remaining")).toBe(String(before));
  });
});
