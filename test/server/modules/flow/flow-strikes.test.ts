// /v1/flow/{ticker}/strikes: each (strike, right) row recomputed here from the raw option prints of
// the window (side from each print's NBBO via tradeFacts, direction folded with the right by hand,
// open interest from the opening board), the order and cut, the top-3 concentration, and uncharged
// 4xx in the flow module's codes.
import { beforeAll, describe, expect, it } from "vitest";
import { dteDays, tradeFacts } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { sessionBounds } from "../../../../lib/time";
import { body, expectRefusedUncharged, flowHarness, NOW_MS, TODAY, type FlowHarness, type RefusedCase } from "./_flow-harness";

let h: FlowHarness;
let session: OptionPrint[];
const oiOf = new Map<string, number>(); // "expiry|strike|right" -> opening OI
const balance = () => h.accounts.balance(h.accountId);
// 2024-03-06 is EST (UTC-5): 09:35 to 09:58 ET.
const FROM = "2024-03-06T14:35:00Z";
const TO = "2024-03-06T14:58:00Z";

beforeAll(async () => {
  h = flowHarness({ credits: 10_000 });
  session = await h.sim.optionPrints("AAPL", sessionBounds(TODAY).openMs, NOW_MS);
  const board = (await h.sim.chain("AAPL", sessionBounds(TODAY).openMs))!;
  for (let i = 0; i < board.oi.length; i++) {
    oiOf.set(`${board.expirations[board.expIndex[i]]}|${board.strikes[board.strikeIndex[i]]}|${board.right[i] === 1 ? "C" : "P"}`, board.oi[i]);
  }
});

interface Row {
  strike: number;
  right: string;
  tradeCount: number;
  volume: number;
  totalPremium: number;
  bullishPremium: number;
  bearishPremium: number;
  netPremium: number;
  askPct: number;
  bidPct: number;
  dominantExpiration: string;
  openInterest: number;
  volOiRatio: number;
}

/** Rows of the window's prints passing `keep`, computed plainly, plus the total premium. */
function expectedRows(keep: (p: OptionPrint) => boolean = () => true): { rows: Row[]; total: number } {
  const acc = new Map<string, Row & { ask: number; bid: number; byExp: Map<string, number>; contracts: Set<string> }>();
  let total = 0;
  for (const p of session) {
    if (p.tsMs < Date.parse(FROM) || p.tsMs >= Date.parse(TO) || !keep(p)) continue;
    const prem = p.price * p.size * 100;
    const f = tradeFacts(p);
    const dir = f.aggression === 0 ? 0 : f.aggression > 0 === (p.right === "C") ? 1 : -1;
    const key = `${p.strike}|${p.right}`;
    let r = acc.get(key);
    if (!r) {
      r = {
        strike: p.strike,
        right: p.right,
        tradeCount: 0,
        volume: 0,
        totalPremium: 0,
        bullishPremium: 0,
        bearishPremium: 0,
        netPremium: 0,
        askPct: 0,
        bidPct: 0,
        dominantExpiration: "",
        openInterest: 0,
        volOiRatio: 0,
        ask: 0,
        bid: 0,
        byExp: new Map(),
        contracts: new Set(),
      };
      acc.set(key, r);
    }
    total += prem;
    r.tradeCount++;
    r.volume += p.size;
    r.totalPremium += prem;
    if (dir > 0) r.bullishPremium += prem;
    if (dir < 0) r.bearishPremium += prem;
    if (f.side === "A" || f.side === "AA") r.ask += prem;
    if (f.side === "B" || f.side === "BB") r.bid += prem;
    r.byExp.set(p.expiry, (r.byExp.get(p.expiry) ?? 0) + prem);
    r.contracts.add(`${p.expiry}|${p.strike}|${p.right}`);
  }
  const rows = [...acc.values()].map(({ ask, bid, byExp, contracts, ...r }) => {
    const exps = [...byExp.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const oi = [...contracts].reduce((s, c) => s + (oiOf.get(c) ?? 0), 0);
    return {
      ...r,
      netPremium: r.bullishPremium - r.bearishPremium,
      askPct: ask / r.totalPremium,
      bidPct: bid / r.totalPremium,
      dominantExpiration: exps[0][0],
      openInterest: oi,
      volOiRatio: oi > 0 ? r.volume / oi : 0,
    };
  });
  return { rows, total };
}

function expectRow(got: any, want: Row): void {
  expect(got).toMatchObject({
    strike: want.strike,
    right: want.right,
    tradeCount: want.tradeCount,
    volume: want.volume,
    dominantExpiration: want.dominantExpiration,
    openInterest: want.openInterest,
  });
  for (const k of ["totalPremium", "bullishPremium", "bearishPremium", "netPremium"] as const) expect(got[k]).toBeCloseTo(want[k], 4);
  for (const k of ["askPct", "bidPct", "volOiRatio"] as const) expect(got[k]).toBeCloseTo(want[k], 9);
}

const byNet = (a: Row, b: Row) => Math.abs(b.netPremium) - Math.abs(a.netPremium) || a.strike - b.strike || (a.right < b.right ? -1 : 1);

describe("/v1/flow/{ticker}/strikes", () => {
  it("the top_n rows by |net premium| match the window's prints; concentration over every row; 3 credits", async () => {
    const before = balance();
    const res = await h.get(`/v1/flow/AAPL/strikes?start_time=${FROM}&end_time=${TO}&top_n=5`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const { data } = await body(res);
    const { rows, total } = expectedRows();
    rows.sort(byNet);
    expect(rows.length).toBeGreaterThan(5);
    expect(data).toMatchObject({ ticker: "AAPL", date: TODAY, startTime: "2024-03-06T14:35:00.000Z", endTime: "2024-03-06T14:58:00.000Z" });
    expect(data.byStrike).toHaveLength(5);
    data.byStrike.forEach((got: any, i: number) => {
      expectRow(got, rows[i]);
    });
    expect(rows.slice(0, 5).some((r) => r.openInterest > 0)).toBe(true);
    const top3 = rows.slice(0, 3);
    expect(data.concentration.top3StrikesShare).toBeCloseTo(top3.reduce((s, r) => s + r.totalPremium, 0) / total, 9);
    expect(data.concentration.top3StrikesNetPremium).toBeCloseTo(
      top3.reduce((s, r) => s + r.netPremium, 0),
      4,
    );
    expect(data.concentration.interpretation).toContain(`${Math.round(100 * data.concentration.top3StrikesShare)}%`);
  });

  it("right, min_premium, a DTE range and order_by=volume keep and order the same rows as a plain filter", async () => {
    const { data } = await body(await h.get(`/v1/flow/AAPL/strikes?start_time=${FROM}&end_time=${TO}&right=put&min_premium=100&max_dte=30&order_by=volume&top_n=100`));
    const { rows } = expectedRows((p) => p.right === "P" && p.price * p.size * 100 >= 100 && dteDays(TODAY, p.expiry) <= 30);
    rows.sort((a, b) => b.volume - a.volume || a.strike - b.strike);
    expect(rows.length).toBeGreaterThan(1);
    expect(data.byStrike).toHaveLength(rows.length);
    data.byStrike.forEach((got: any, i: number) => {
      expectRow(got, rows[i]);
    });
  });

  it("a window with no trades answers 200 with no rows", async () => {
    const { data } = await body(await h.get("/v1/flow/AAPL/strikes?start_time=2024-03-06T13:00:00Z&end_time=2024-03-06T14:00:00Z"));
    expect(data.byStrike).toEqual([]);
    expect(data.concentration.top3StrikesShare).toBe(0);
  });

  it("400 naming the parameter for bad top_n, right, order_by, reversed or missing bounds; 404 for an unknown ticker; uncharged", async () => {
    const w = `start_time=${FROM}&end_time=${TO}`;
    const cases: RefusedCase[] = [
      [`/v1/flow/AAPL/strikes?${w}&top_n=0`, 400, "top_n"],
      [`/v1/flow/AAPL/strikes?${w}&top_n=101`, 400, "top_n"],
      [`/v1/flow/AAPL/strikes?${w}&right=both`, 400, "right"],
      [`/v1/flow/AAPL/strikes?${w}&order_by=premium`, 400, "order_by"],
      [`/v1/flow/AAPL/strikes?${w}&min_premium=-1`, 400, "min_premium"],
      [`/v1/flow/AAPL/strikes?start_time=${TO}&end_time=${FROM}`, 400, "start_time"],
      [`/v1/flow/AAPL/strikes?start_time=${FROM}`, 400, "end_time", "MISSING_PARAMETER"],
      [`/v1/flow/ZZZZ/strikes?${w}`, 404, "ticker", "SYMBOL_NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});
