// /v1/underlying/{ticker}/by-strike and /by-strike/{strike}/expirations against sums recomputed here
// from the raw option prints and the opening board (open interest, max pain by brute force).
import { beforeAll, describe, expect, it } from "vitest";
import type { OptionPrint } from "../../../../lib/market";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
let prints: OptionPrint[];
const T = "XOM";
const balance = () => h.accounts.balance(h.accountId);
const premium = (p: OptionPrint) => p.price * p.size * 100;
const dte = (expiry: string) => Math.round((Date.parse(`${expiry}T00:00:00Z`) - Date.parse(`${TODAY}T00:00:00Z`)) / 86_400_000);

beforeAll(async () => {
  h = flowHarness({ credits: 10_000 });
  prints = await h.sim.optionPrints(T, sessionBounds(TODAY).openMs, NOW_MS);
});

describe("/v1/underlying/{ticker}/by-strike", () => {
  it("bars per traded strike with OI from the opening board, totals, top strike and max pain; 3 credits", async () => {
    const before = balance();
    const res = await h.get(`/v1/underlying/${T}/by-strike`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 3));
    const { data } = await body(res);
    const strikes = [...new Set(prints.map((p) => p.strike))].sort((a, b) => a - b);
    expect(prints.length).toBeGreaterThan(20);
    expect(data.bars.map((b: any) => b.strike)).toEqual(strikes);
    const board = (await h.sim.chain(T, sessionBounds(TODAY).openMs))!;
    const oi = new Map<number, { c: number; p: number }>();
    for (let i = 0; i < board.oi.length; i++) {
      const k = board.strikes[board.strikeIndex[i]];
      const o = oi.get(k) ?? { c: 0, p: 0 };
      if (board.right[i] === 1) o.c += board.oi[i];
      else o.p += board.oi[i];
      oi.set(k, o);
    }
    for (const b of data.bars) {
      const mine = prints.filter((p) => p.strike === b.strike);
      expect(b.callVolume).toBe(mine.filter((p) => p.right === "C").reduce((s, p) => s + p.size, 0));
      expect(b.putPremium).toBeCloseTo(
        mine.filter((p) => p.right === "P").reduce((s, p) => s + premium(p), 0),
        1,
      );
      expect([b.callOi, b.putOi]).toEqual([oi.get(b.strike)?.c ?? 0, oi.get(b.strike)?.p ?? 0]);
    }
    const callV = prints.filter((p) => p.right === "C").reduce((s, p) => s + p.size, 0);
    const putV = prints.filter((p) => p.right === "P").reduce((s, p) => s + p.size, 0);
    expect(data).toMatchObject({ ticker: T, interval: "1D", dteFilter: "all", totalCallVolume: callV, totalPutVolume: putV, strikeCount: strikes.length });
    expect(data.pcRatio).toBeCloseTo(putV / callV, 9);
    const byPrem = (k: number) => prints.filter((p) => p.strike === k).reduce((s, p) => s + premium(p), 0);
    expect(data.topStrike).toBe(strikes.reduce((a, k) => (byPrem(k) > byPrem(a) ? k : a), strikes[0]));
    // Max pain by brute force: the strike minimising what holders are owed.
    const ks = [...oi.keys()].sort((a, b) => a - b);
    const owed = (s: number) => ks.reduce((sum, k) => sum + oi.get(k)!.c * Math.max(0, s - k) + oi.get(k)!.p * Math.max(0, k - s), 0);
    expect(data.maxPain).toBe(ks.reduce((a, k) => (owed(k) < owed(a) ? k : a), ks[0]));
    expect(data.underlyingPrice).toBe(await h.sim.spot(T, NOW_MS - 1));
  });

  it("dte_filter=0-7 keeps only trades (and OI) of expirations at most 7 days out", async () => {
    const { data } = await body(await h.get(`/v1/underlying/${T}/by-strike?dte_filter=0-7`));
    const near = prints.filter((p) => dte(p.expiry) <= 7);
    expect(data.totalCallVolume + data.totalPutVolume).toBe(near.reduce((s, p) => s + p.size, 0));
    expect(data.dteFilter).toBe("0-7");
  });

  it("bad interval or dte_filter is a 400 listing the values; uncharged", async () => {
    const before = balance();
    const a = await h.get(`/v1/underlying/${T}/by-strike?interval=2D`);
    expect(a.status).toBe(400);
    expect((await body(a)).error.message).toContain("1D, 1W, 7D");
    const b = await h.get(`/v1/underlying/${T}/by-strike?dte_filter=0-3`);
    expect(b.status).toBe(400);
    expect((await body(b)).error.code).toBe("INVALID_PARAMETER");
    expect(balance()).toBe(before);
  });
});

describe("/v1/underlying/{ticker}/by-strike/{strike}/expirations", () => {
  it("one strike's volume and premium per expiration, nearest first; 1 credit", async () => {
    const counts = new Map<number, number>();
    for (const p of prints) counts.set(p.strike, (counts.get(p.strike) ?? 0) + 1);
    const strike = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    const before = balance();
    const res = await h.get(`/v1/underlying/${T}/by-strike/${strike}/expirations`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 1);
    const { data } = await body(res);
    const mine = prints.filter((p) => p.strike === strike);
    const exps = [...new Set(mine.map((p) => p.expiry))].sort();
    expect(data).toMatchObject({ ticker: T, strike, interval: "1D", expirationCount: exps.length });
    expect(data.bars.map((b: any) => b.expiration)).toEqual(exps);
    for (const b of data.bars) {
      const e = mine.filter((p) => p.expiry === b.expiration);
      expect(b.dte).toBe(dte(b.expiration));
      expect(b.callVolume + b.putVolume).toBe(e.reduce((s, p) => s + p.size, 0));
    }
  });

  it("a strike that is not a number is a 400 naming `strike`, uncharged", async () => {
    const before = balance();
    const res = await h.get(`/v1/underlying/${T}/by-strike/abc/expirations`);
    expect(res.status).toBe(400);
    expect((await body(res)).error.message).toContain("strike");
    expect(balance()).toBe(before);
  });
});
