// /v1/underlying/{ticker}/stats and /v1/underlying/{ticker}/expirations against totals recomputed
// here from the raw option prints of the session so far (premium = price x size x 100).
import { beforeAll, describe, expect, it } from "vitest";
import type { OptionPrint } from "../../../../lib/market";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, PRIOR, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
let prints: OptionPrint[];
const balance = () => h.accounts.balance(h.accountId);
const premium = (p: OptionPrint) => p.price * p.size * 100;

beforeAll(async () => {
  h = flowHarness({ credits: 10_000 });
  prints = await h.sim.optionPrints("QQQ", sessionBounds(TODAY).openMs, NOW_MS);
});

describe("/v1/underlying/{ticker}/stats", () => {
  it("today's totals by right, ratio, counts and the last price; 1 credit", async () => {
    const before = balance();
    const res = await h.get("/v1/underlying/qqq/stats");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 1));
    const { data } = await body(res);
    const calls = prints.filter((p) => p.right === "C");
    const puts = prints.filter((p) => p.right === "P");
    const sum = (ps: OptionPrint[], f: (p: OptionPrint) => number) => ps.reduce((s, p) => s + f(p), 0);
    expect(data).toMatchObject({
      ticker: "QQQ",
      date: TODAY,
      callVolume: sum(calls, (p) => p.size),
      putVolume: sum(puts, (p) => p.size),
      totalVolume: sum(prints, (p) => p.size),
      tradeCount: prints.length,
      uniqueStrikes: new Set(prints.map((p) => p.strike)).size,
      uniqueExpirations: new Set(prints.map((p) => p.expiry)).size,
      lastPrice: await h.sim.spot("QQQ", NOW_MS - 1),
    });
    expect(data.callPremium).toBeCloseTo(sum(calls, premium), 1);
    expect(data.putPremium).toBeCloseTo(sum(puts, premium), 1);
    expect(data.netPremium).toBeCloseTo(sum(calls, premium) - sum(puts, premium), 1);
    expect(data.callPutRatio).toBeCloseTo(sum(calls, premium) / sum(puts, premium), 6);
  });

  it("a past date reads that whole session", async () => {
    const { data } = await body(await h.get(`/v1/underlying/XOM/stats?date=${PRIOR}`));
    const { openMs, closeMs } = sessionBounds(PRIOR);
    expect(data.tradeCount).toBe((await h.sim.optionPrints("XOM", openMs, closeMs)).length);
    expect(data.date).toBe(PRIOR);
  });

  it("a future or weekend date is a 400 naming `date`, an unknown ticker a 404; uncharged", async () => {
    const before = balance();
    for (const [path, status] of [
      ["/v1/underlying/QQQ/stats?date=2024-03-09", 400],
      ["/v1/underlying/QQQ/stats?date=2024-03-07", 400],
      ["/v1/underlying/NOPE/stats", 404],
    ] as const) {
      const res = await h.get(path);
      expect(res.status).toBe(status);
      const err = (await body(res)).error;
      expect(err.code).toBe(status === 400 ? "INVALID_PARAMETER" : "SYMBOL_NOT_FOUND");
    }
    expect(balance()).toBe(before);
  });
});

describe("/v1/underlying/{ticker}/expirations", () => {
  it("each traded expiration, nearest first, with volume, premium, DTE and contract count", async () => {
    const { data } = await body(await h.get("/v1/underlying/QQQ/expirations"));
    const exps = [...new Set(prints.map((p) => p.expiry))].sort();
    expect(data.map((e: any) => e.expiration)).toEqual(exps);
    for (const e of data) {
      const mine = prints.filter((p) => p.expiry === e.expiration);
      expect(e.dte).toBe(Math.round((Date.parse(`${e.expiration}T00:00:00Z`) - Date.parse(`${TODAY}T00:00:00Z`)) / 86_400_000));
      expect(e.callVolume).toBe(mine.filter((p) => p.right === "C").reduce((s, p) => s + p.size, 0));
      expect(e.putVolume).toBe(mine.filter((p) => p.right === "P").reduce((s, p) => s + p.size, 0));
      expect(e.callPremium).toBeCloseTo(
        mine.filter((p) => p.right === "C").reduce((s, p) => s + premium(p), 0),
        1,
      );
      expect(e.contractCount).toBe(new Set(mine.map((p) => p.symbol)).size);
    }
  });
});

describe("/v1/underlying/bulk/stats", () => {
  it("the single-ticker record of each known ticker, in order; unknown dropped; 5 credits", async () => {
    const before = balance();
    const res = await h.get("/v1/underlying/bulk/stats?tickers=xom,NOPE,QQQ");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 5);
    const { data } = await body(res);
    expect(data.map((r: any) => r.ticker)).toEqual(["XOM", "QQQ"]);
    expect(data[1].tradeCount).toBe(prints.length);
    expect(data[0]).toEqual((await body(await h.get("/v1/underlying/XOM/stats"))).data);
  });

  it("without tickers is a 400 naming `tickers`; only unknown tickers a 404; uncharged", async () => {
    const before = balance();
    const a = await h.get("/v1/underlying/bulk/stats");
    expect(a.status).toBe(400);
    expect((await body(a)).error.message).toContain("tickers");
    const b = await h.get("/v1/underlying/bulk/stats?tickers=NOPE");
    expect(b.status).toBe(404);
    expect((await body(b)).error.code).toBe("SYMBOL_NOT_FOUND");
    expect(balance()).toBe(before);
  });
});
