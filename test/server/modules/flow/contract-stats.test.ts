// /v1/contract/{symbol}/stats against the contract's raw prints and the opening board.
import { beforeAll, describe, expect, it } from "vitest";
import type { OptionPrint } from "../../../../lib/market";
import { formatOptionSymbol, parseOptionSymbol } from "../../../../lib/symbols";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
let mine: OptionPrint[];
let symbol: string;
const balance = () => h.accounts.balance(h.accountId);

beforeAll(async () => {
  h = flowHarness({ credits: 10_000 });
  const prints = await h.sim.optionPrints("XOM", sessionBounds(TODAY).openMs, NOW_MS);
  const counts = new Map<string, number>();
  for (const p of prints) counts.set(p.symbol, (counts.get(p.symbol) ?? 0) + 1);
  symbol = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  mine = prints.filter((p) => p.symbol === symbol);
});

describe("/v1/contract/{symbol}/stats", () => {
  it("volume, premium, trade count, last price and opening OI of the busiest contract; 1 credit", async () => {
    const before = balance();
    const res = await h.get(`/v1/contract/${symbol}/stats`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 1);
    const { data } = await body(res);
    const c = parseOptionSymbol(symbol);
    const board = (await h.sim.chain("XOM", sessionBounds(TODAY).openMs))!;
    let oi = -1;
    for (let i = 0; i < board.oi.length; i++) {
      if (board.expirations[board.expIndex[i]] === c.expiry && board.strikes[board.strikeIndex[i]] === c.strike && (board.right[i] === 1) === (c.right === "C"))
        oi = board.oi[i];
    }
    const volume = mine.reduce((s, p) => s + p.size, 0);
    expect(data).toMatchObject({
      symbol,
      ticker: "XOM",
      date: TODAY,
      expiration: c.expiry,
      strike: c.strike,
      right: c.right,
      totalVolume: volume,
      tradeCount: mine.length,
      lastPrice: mine[mine.length - 1].price,
      openInterest: oi,
    });
    expect(data.totalPremium).toBeCloseTo(
      mine.reduce((s, p) => s + p.price * p.size * 100, 0),
      1,
    );
    expect(data.vwap).toBeCloseTo(mine.reduce((s, p) => s + p.price * p.size, 0) / volume, 4);
    expect(data.bidVolume + data.askVolume + data.midVolume).toBeLessThanOrEqual(volume);
  });

  it("the padded 21-character form names the same contract", async () => {
    const padded = formatOptionSymbol(parseOptionSymbol(symbol), "padded");
    const res = await h.get(`/v1/contract/${encodeURIComponent(padded)}/stats`);
    const { data, error } = await body(res);
    expect(error).toBeUndefined();
    expect(data.symbol).toBe(symbol);
  });

  it("404 NOT_FOUND for a contract with no trades, 400 for a malformed symbol; uncharged", async () => {
    const before = balance();
    const a = await h.get("/v1/contract/XOM__300118C09990000/stats");
    expect(a.status).toBe(404);
    expect((await body(a)).error.code).toBe("NOT_FOUND");
    const b = await h.get("/v1/contract/XOM__3001/stats");
    expect(b.status).toBe(400);
    expect((await body(b)).error.message).toContain("symbol");
    expect(balance()).toBe(before);
  });
});

describe("/v1/contract/bulk/stats", () => {
  it("the single-contract record of each traded contract, in order; untraded and unknown-root contracts left out; 5 credits", async () => {
    const before = balance();
    const res = await h.get(`/v1/contract/bulk/stats?symbols=XOM__300118C09990000,${symbol.toLowerCase()},ZZZZ__240315C00100000`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 5);
    const { data } = await body(res);
    expect(data).toHaveLength(1);
    expect(data[0]).toEqual((await body(await h.get(`/v1/contract/${symbol}/stats`))).data);
    expect(data[0].tradeCount).toBe(mine.length);
  });

  it("a malformed symbol is a 400 naming `symbols`; only unknown roots a 404; uncharged", async () => {
    const before = balance();
    const a = await h.get("/v1/contract/bulk/stats?symbols=XOM__30");
    expect(a.status).toBe(400);
    expect((await body(a)).error.message).toContain("symbols");
    const b = await h.get("/v1/contract/bulk/stats?symbols=ZZZZ__240315C00100000");
    expect(b.status).toBe(404);
    expect(balance()).toBe(before);
  });
});
