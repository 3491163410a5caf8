// /v1/contract/{symbol}/history: each session's row recomputed here from that session's raw option
// prints of the contract (side buckets from each print's NBBO via tradeFacts, sweeps from
// groupSweeps, open interest from each session's opening board), the date rules and uncharged 4xx.
import { beforeAll, describe, expect, it } from "vitest";
import { groupSweeps, tradeFacts } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { parseOptionSymbol } from "../../../../lib/symbols";
import { sessionBounds } from "../../../../lib/time";
import { body, expectRefusedUncharged, flowHarness, NOW_MS, PRIOR, TODAY, type FlowHarness, type RefusedCase } from "./_flow-harness";

const EARLIER = "2024-03-04";
const BEFORE = "2024-03-01";
let h: FlowHarness;
let symbol: string;
const byDay = new Map<string, OptionPrint[]>(); // every XOM print of the session (so far)
const balance = () => h.accounts.balance(h.accountId);

beforeAll(async () => {
  h = flowHarness({ credits: 10_000 });
  for (const d of [BEFORE, EARLIER, PRIOR, TODAY]) {
    const { openMs, closeMs } = sessionBounds(d);
    byDay.set(d, await h.sim.optionPrints("XOM", openMs, Math.min(closeMs, NOW_MS)));
  }
  // The busiest contract of today that also traded on both earlier sessions.
  const counts = new Map<string, number>();
  for (const p of byDay.get(TODAY)!) counts.set(p.symbol, (counts.get(p.symbol) ?? 0) + 1);
  const traded = (d: string, s: string) => byDay.get(d)!.some((p) => p.symbol === s);
  symbol = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map((e) => e[0])
    .find((s) => traded(PRIOR, s) && traded(EARLIER, s))!;
});

async function openingOi(date: string): Promise<number> {
  const c = parseOptionSymbol(symbol);
  const board = (await h.sim.chain("XOM", sessionBounds(date).openMs))!;
  for (let i = 0; i < board.oi.length; i++) {
    if (board.expirations[board.expIndex[i]] === c.expiry && board.strikes[board.strikeIndex[i]] === c.strike && (board.right[i] === 1) === (c.right === "C"))
      return board.oi[i];
  }
  return 0;
}

async function expectedRow(date: string, prevDate: string) {
  const all = byDay.get(date)!;
  const sweepOf = groupSweeps(all).groupOf;
  let volume = 0,
    premium = 0,
    pxSize = 0,
    bid = 0,
    ask = 0,
    sweep = 0,
    count = 0,
    last = 0;
  all.forEach((p, i) => {
    if (p.symbol !== symbol) return;
    const side = tradeFacts(p).side;
    count++;
    volume += p.size;
    premium += p.price * p.size * 100;
    pxSize += p.price * p.size;
    if (side === "B" || side === "BB") bid += p.size;
    if (side === "A" || side === "AA") ask += p.size;
    if (sweepOf[i] >= 0) sweep += p.size;
    last = p.price;
  });
  const oi = await openingOi(date);
  const prevOi = await openingOi(prevDate);
  return { date, count, volume, premium, vwap: pxSize / volume, last, bid, ask, sweep, oi, oiChange: oi > 0 && prevOi > 0 ? oi - prevOi : 0 };
}

describe("/v1/contract/{symbol}/history", () => {
  it("one row per session the contract traded, oldest first, matching that session's prints; 5 credits", async () => {
    const before = balance();
    const res = await h.get(`/v1/contract/${symbol}/history?start_date=${EARLIER}&end_date=${TODAY}`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 5);
    const { data } = await body(res);
    expect(data.map((r: any) => r.date)).toEqual([EARLIER, PRIOR, TODAY]);
    const prev = { [EARLIER]: BEFORE, [PRIOR]: EARLIER, [TODAY]: PRIOR };
    for (const row of data) {
      const e = await expectedRow(row.date, prev[row.date as keyof typeof prev]);
      expect(row).toMatchObject({
        tradeCount: e.count,
        totalVolume: e.volume,
        lastPrice: e.last,
        bidVolume: e.bid,
        askVolume: e.ask,
        sweepVolume: e.sweep,
        openInterest: e.oi,
        oiChange: e.oiChange,
      });
      expect(row.totalPremium).toBeCloseTo(e.premium, 1);
      expect(row.vwap).toBeCloseTo(e.vwap, 6);
      expect(row.midVolume).toBe(e.volume - e.bid - e.ask);
      expect(row.bidPct).toBeCloseTo((100 * e.bid) / e.volume, 9);
      expect(row.askPct).toBeCloseTo((100 * e.ask) / e.volume, 9);
      expect(row.sweepPct).toBeCloseTo((100 * e.sweep) / e.volume, 9);
      expect(row.multiLegPct).toBeCloseTo((100 * row.multiLegVolume) / e.volume, 9);
      expect(row.oiChangePct).toBeCloseTo(e.oi - e.oiChange > 0 ? (100 * e.oiChange) / (e.oi - e.oiChange) : 0, 9);
    }
    expect(data.some((r: any) => r.oiChange !== 0)).toBe(true);
  });

  it("the last row equals the contract's stats for today; a weekend-only range is empty", async () => {
    const { data } = await body(await h.get(`/v1/contract/${symbol}/history?start_date=${TODAY}&end_date=${TODAY}`));
    const stats = (await body(await h.get(`/v1/contract/${symbol}/stats`))).data;
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ totalVolume: stats.totalVolume, tradeCount: stats.tradeCount, openInterest: stats.openInterest, vwap: stats.vwap });
    const weekend = await body(await h.get(`/v1/contract/${symbol}/history?start_date=2024-03-02&end_date=2024-03-03`));
    expect(weekend.data).toEqual([]);
  });

  it("400 naming the parameter for missing, reversed or out-of-range dates and a malformed symbol; RANGE_TOO_LARGE past 31 days; 404 for an unknown root; uncharged", async () => {
    const cases: RefusedCase[] = [
      [`/v1/contract/${symbol}/history?end_date=${TODAY}`, 400, "start_date", "MISSING_PARAMETER"],
      [`/v1/contract/${symbol}/history?start_date=${TODAY}&end_date=${PRIOR}`, 400, "start_date"],
      [`/v1/contract/${symbol}/history?start_date=2024-03-05&end_date=2024-03-07`, 400, "end_date"],
      [`/v1/contract/${symbol}/history?start_date=2023-01-03&end_date=2023-01-04`, 400, "start_date"],
      [`/v1/contract/${symbol}/history?start_date=2024-3-05&end_date=${TODAY}`, 400, "start_date"],
      [`/v1/contract/${symbol}/history?start_date=2024-02-01&end_date=${TODAY}`, 400, "31", "RANGE_TOO_LARGE"],
      [`/v1/contract/XOM__3001/history?start_date=${PRIOR}&end_date=${TODAY}`, 400, "symbol"],
      [`/v1/contract/ZZZZ__240315C00100000/history?start_date=${PRIOR}&end_date=${TODAY}`, 404, "symbol", "SYMBOL_NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});
