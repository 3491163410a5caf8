// Each tilt contract's distance from its running premium low, as served on /v1/vol/tilt and as the
// screener's cheap_from_low_pct, against an independent computation: the contract's mid on the
// whole board (`market.chain`) at every minute from the session's open to now.
import { afterAll, describe, expect, it } from "vitest";
import type { ChainSnapshot } from "../../../../lib/market/market-data";
import { etInstant } from "../../../../lib/time";
import { runningLows } from "../../../../server/modules/vol/premium-low";
import { screenerRow } from "../../../../server/modules/vol/screener-row";
import { NOW_MS } from "../../_harness";
import { json, market, volHarness } from "./_vol-harness";

const h = volHarness();
afterAll(() => h.app.shutdown(0));
const OPEN = etInstant("2024-03-06", "09:30");

/** Mid of a contract on a board (two-sided only), by a linear scan; NaN when absent or one-sided. */
function midOn(board: ChainSnapshot, expiration: string, strike: number, right: "C" | "P"): number {
  const e = board.expirations.indexOf(expiration);
  for (let i = 0; i < board.bid.length; i++) {
    if (board.expIndex[i] === e && board.strikes[board.strikeIndex[i]] === strike && board.right[i] === (right === "C" ? 1 : 0)) {
      return board.bid[i] > 0 && board.ask[i] >= board.bid[i] ? (board.bid[i] + board.ask[i]) / 2 : Number.NaN;
    }
  }
  return Number.NaN;
}

const boards = new Map<string, ChainSnapshot[]>();
/** The symbol's boards at every minute from the open to `toMs`. */
async function boardsTo(symbol: string, toMs: number): Promise<ChainSnapshot[]> {
  const all = boards.get(symbol) ?? [];
  if (!boards.has(symbol)) {
    for (let t = OPEN; t <= NOW_MS; t += 60_000) all.push((await market.chain(symbol, t))!);
    boards.set(symbol, all);
  }
  return all.filter((b) => b.asOfMs <= toMs);
}

/** 100 (mid now / running low - 1) from whole boards. */
async function independent(symbol: string, toMs: number, expiration: string, strike: number, right: "C" | "P"): Promise<number | null> {
  const mids = (await boardsTo(symbol, toMs)).map((b) => midOn(b, expiration, strike, right));
  const low = Math.min(...mids.filter((m) => !Number.isNaN(m)));
  const now = mids[mids.length - 1];
  return Number.isFinite(low) && now > 0 ? 100 * (now / low - 1) : null;
}

describe("running premium low", () => {
  it("/v1/vol/tilt: every row's call and put distance from its low equals the whole boards' minute by minute", async () => {
    const res = await h.get("/v1/vol/tilt?symbols=SPY,NVDA,SPXW");
    expect(res.status).toBe(200);
    const { data } = await json(res);
    let checked = 0;
    let aboveLow = 0;
    for (const s of data.symbols) {
      const rows = [...s.tilt.rows, s.tilt.headline];
      expect(s.tilt.headline).not.toBeNull();
      for (const r of rows) {
        for (const side of ["call", "put"] as const) {
          const want = await independent(s.symbol, NOW_MS, r.expiration, r[`${side}_strike`], side === "call" ? "C" : "P");
          const got = r[`${side}_from_low_pct`];
          expect(want).not.toBeNull();
          expect(got).toBeCloseTo(want!, 9);
          expect(got).toBeGreaterThanOrEqual(0);
          if (got > 0) aboveLow++;
          checked++;
        }
      }
      // Prices are not served: no mid or low fields on a row.
      expect(Object.keys(s.tilt.headline).filter((k) => /mid|low$/.test(k))).toEqual([]);
    }
    expect(checked).toBeGreaterThanOrEqual(3 * 2 * 2);
    // Half an hour in, most contracts are not at their low this very minute.
    expect(aboveLow).toBeGreaterThan(0);
  }, 120_000);

  it("extending a memoised low minute by minute gives the same low as folding from the open; an older board is not served a later low", async () => {
    const contract = async (atMs: number) => {
      const board = (await market.chain("NVDA", atMs))!;
      return { board, c: { expiration: board.expirations[3], strike: board.strikes[Math.floor(board.strikes.length / 2)], right: "P" as const } };
    };
    const at = [etInstant("2024-03-06", "09:41"), etInstant("2024-03-06", "09:52"), NOW_MS, etInstant("2024-03-06", "09:47")];
    const { c } = await contract(NOW_MS);
    for (const t of at) {
      const { board } = await contract(t);
      const [low] = await runningLows(h.state, board, [c]);
      const mids = (await boardsTo("NVDA", t)).map((b) => midOn(b, c.expiration, c.strike, c.right)).filter((m) => !Number.isNaN(m));
      expect(low!.low).toBe(Math.min(...mids));
      expect(low!.last).toBe(midOn(board, c.expiration, c.strike, c.right));
    }
  }, 120_000);

  it("the screener's cheap_from_low_pct is the headline's cheap side", async () => {
    const res = await h.get("/v1/vol/tilt?symbols=SPY,NVDA");
    const { data } = await json(res);
    for (const s of data.symbols) {
      const row = await screenerRow(h.state, s.symbol, { sector: "x", type: s.symbol === "SPY" ? "etf" : "stock" }, NOW_MS);
      const hd = s.tilt.headline;
      expect(row!.cheap_from_low_pct).toBe(hd.cheap === "put" ? hd.put_from_low_pct : hd.call_from_low_pct);
      expect(row!.cheap_from_low_pct).not.toBeNull();
    }
  }, 120_000);
});
