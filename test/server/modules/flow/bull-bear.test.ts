// /v1/chain-bull-bear/{ticker} and /v1/contract-bull-bear/{symbol}: volume shares recomputed here
// from the raw option prints (side from each print's NBBO via tradeFacts, direction folded with the
// right by hand), filters and windows, and uncharged 4xx in the flow module's codes.
import { beforeAll, describe, expect, it } from "vitest";
import { tradeFacts } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
let prints: OptionPrint[];
const balance = () => h.accounts.balance(h.accountId);

beforeAll(async () => {
  h = flowHarness({ credits: 10_000 });
  prints = await h.sim.optionPrints("AAPL", sessionBounds(TODAY).openMs, NOW_MS);
});

/** Volume-weighted bull/bear/neutral shares with the option type folded in, computed plainly. */
function expectedShares(ps: readonly OptionPrint[]) {
  let bull = 0,
    bear = 0,
    total = 0,
    calls = 0,
    callBull = 0,
    puts = 0,
    putBull = 0;
  for (const p of ps) {
    const a = tradeFacts(p).aggression;
    const bullish = (a > 0 && p.right === "C") || (a < 0 && p.right === "P");
    const bearish = (a > 0 && p.right === "P") || (a < 0 && p.right === "C");
    total += p.size;
    if (bullish) bull += p.size;
    if (bearish) bear += p.size;
    if (p.right === "C") {
      calls += p.size;
      if (bullish) callBull += p.size;
    } else {
      puts += p.size;
      if (bullish) putBull += p.size;
    }
  }
  return {
    bullPct: (100 * bull) / total,
    bearPct: (100 * bear) / total,
    neutralPct: (100 * (total - bull - bear)) / total,
    callBullPct: (100 * callBull) / calls,
    putBullPct: (100 * putBull) / puts,
    bull,
    bear,
    total,
  };
}

describe("/v1/chain-bull-bear/{ticker}", () => {
  it("shares of today's volume so far, totals and an interpretation consistent with them; 3 credits", async () => {
    const before = balance();
    const res = await h.get("/v1/chain-bull-bear/aapl");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 3));
    const { data } = await body(res);
    const e = expectedShares(prints);
    expect(prints.length).toBeGreaterThan(50);
    expect(data).toMatchObject({ ticker: "AAPL", date: TODAY, timeframe: "1d", tradeCount: prints.length, totalVolume: e.total });
    expect(data.totalPremium).toBeCloseTo(
      prints.reduce((s, p) => s + p.price * p.size * 100, 0),
      0,
    );
    for (const k of ["bullPct", "bearPct", "neutralPct", "callBullPct", "putBullPct"] as const) expect(data.metrics[k]).toBeCloseTo(e[k], 9);
    expect(data.metrics.bullBearRatio).toBeCloseTo(e.bull / e.bear, 9);
    const net = data.metrics.bullPct - data.metrics.bearPct;
    if (net >= 10) expect(data.interpretation.bias).toBe("BULLISH");
    else if (net <= -10) expect(data.interpretation.bias).toBe("BEARISH");
    else expect(["MIXED", "NEUTRAL"]).toContain(data.interpretation.bias);
  });

  it("option_type, min_premium, max_dte and a 15m timeframe select the same prints as a plain filter", async () => {
    const { data } = await body(await h.get("/v1/chain-bull-bear/AAPL?option_type=put&min_premium=500&max_dte=30&timeframe=15m"));
    const from = NOW_MS - 15 * 60_000;
    const dte = (p: OptionPrint) => Math.round((Date.parse(`${p.expiry}T00:00:00Z`) - Date.parse(`${TODAY}T00:00:00Z`)) / 86_400_000);
    const sel = prints.filter((p) => p.tsMs >= from && p.right === "P" && p.price * p.size * 100 >= 500 && dte(p) <= 30);
    expect(sel.length).toBeGreaterThan(3);
    expect(data.tradeCount).toBe(sel.length);
    expect(data.metrics.bullPct).toBeCloseTo(expectedShares(sel).bullPct, 9);
    expect(data.metrics.callBullPct).toBe(0); // no calls selected
  });

  it("bad input: 400 naming the parameter, 404 for an unknown ticker; nothing charged", async () => {
    const before = balance();
    for (const [path, status, code, mention] of [
      ["/v1/chain-bull-bear/AAPL?timeframe=2h", 400, "INVALID_PARAMETER", "5m, 15m, 1h, 4h, 1d"],
      ["/v1/chain-bull-bear/AAPL?option_type=both", 400, "INVALID_PARAMETER", "call, put, all"],
      ["/v1/chain-bull-bear/AAPL?min_dte=10&max_dte=5", 400, "INVALID_PARAMETER", "min_dte"],
      ["/v1/chain-bull-bear/NOPE", 404, "SYMBOL_NOT_FOUND", "NOPE"],
    ] as const) {
      const res = await h.get(path);
      expect(res.status).toBe(status);
      const err = (await body(res)).error;
      expect(err.code).toBe(code);
      expect(err.message).toContain(mention);
    }
    expect(balance()).toBe(before);
  });
});

describe("/v1/contract-bull-bear/{symbol}", () => {
  it("the busiest contract's shares from its own prints; padded symbols resolve to the same contract; 1 credit", async () => {
    const counts = new Map<string, number>();
    for (const p of prints) counts.set(p.symbol, (counts.get(p.symbol) ?? 0) + 1);
    const symbol = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    const mine = prints.filter((p) => p.symbol === symbol);
    const before = balance();
    const res = await h.get(`/v1/contract-bull-bear/${symbol}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 1));
    const { data } = await body(res);
    const e = expectedShares(mine);
    expect(data).toMatchObject({ symbol, ticker: "AAPL", optionType: mine[0].right === "C" ? "CALL" : "PUT", tradeCount: mine.length, totalVolume: e.total });
    expect(data.metrics.bullPct).toBeCloseTo(e.bullPct, 9);
    expect(data.metrics.bearPct).toBeCloseTo(e.bearPct, 9);
    expect(Object.keys(data.metrics).sort()).toEqual(["bearPct", "bullBearRatio", "bullPct", "neutralPct"]);
  });

  it("a malformed symbol is a 400 and an unknown root a 404, uncharged", async () => {
    const before = balance();
    const a = await h.get("/v1/contract-bull-bear/AAPL__24XX15C00100000");
    expect(a.status).toBe(400);
    expect((await body(a)).error.message).toContain("symbol");
    const b = await h.get("/v1/contract-bull-bear/ZZZZ__240315C00100000");
    expect(b.status).toBe(404);
    expect((await body(b)).error.code).toBe("SYMBOL_NOT_FOUND");
    expect(balance()).toBe(before);
  });
});
