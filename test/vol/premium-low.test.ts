// The running premium low's inputs and folding: the simulator's per-contract minute quotes equal
// the whole boards' (`market.chain`) at every minute; foldLow/fromLowPct against direct reductions.
import { describe, expect, it } from "vitest";
import type { ChainSnapshot, ContractRef } from "../../lib/market/market-data";
import { etInstant } from "../../lib/time";
import { foldLow, fromLowPct, twoSidedMid } from "../../lib/vol/premium-low";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const NOW = etInstant("2024-03-06", "10:00");
const market = simulatedMarketAt(42, NOW);

/** Row of a contract on a board, by a linear scan (independent of the simulator's lookup). */
function rowOf(board: ChainSnapshot, c: ContractRef): number {
  const e = board.expirations.indexOf(c.expiration);
  for (let i = 0; i < board.strikeIndex.length; i++) {
    if (board.expIndex[i] === e && board.strikes[board.strikeIndex[i]] === c.strike && board.right[i] === (c.right === "C" ? 1 : 0)) return i;
  }
  return -1;
}

/** A few contracts near the money of the board's 2nd, 5th and last expirations, both rights. */
function someContracts(board: ChainSnapshot): ContractRef[] {
  const out: ContractRef[] = [];
  for (const e of [1, 4, board.expirations.length - 1]) {
    let best = -1;
    for (let i = 0; i < board.strikeIndex.length; i++) {
      if (board.expIndex[i] !== e) continue;
      if (best < 0 || Math.abs(board.strikes[board.strikeIndex[i]] - board.spot) < Math.abs(board.strikes[board.strikeIndex[best]] - board.spot)) best = i;
    }
    const strike = board.strikes[board.strikeIndex[best]];
    out.push({ expiration: board.expirations[e], strike, right: "C" }, { expiration: board.expirations[e], strike, right: "P" });
  }
  return out;
}

describe("contractMinuteQuotes (simulator)", () => {
  it.each(["SPY", "NVDA", "SPXW"])(
    "%s: every minute from the open equals that minute's whole board",
    async (symbol) => {
      const board = (await market.chain(symbol, NOW))!;
      const contracts = [...someContracts(board), { expiration: board.expirations[0], strike: 1e9, right: "C" as const }];
      const q = (await market.contractMinuteQuotes!(symbol, contracts, 0, NOW))!;
      expect(q.t.length).toBe(31); // 09:30 .. 10:00
      expect(q.t[0]).toBe(etInstant("2024-03-06", "09:30"));
      expect(q.t[30]).toBe(board.asOfMs);
      for (let j = 0; j < q.t.length; j += 6) {
        const b = (await market.chain(symbol, q.t[j]))!;
        expect(b.asOfMs).toBe(q.t[j]);
        contracts.forEach((c, i) => {
          const r = rowOf(b, c);
          if (r < 0) {
            expect(q.bid[i][j]).toBeNaN();
            return;
          }
          expect(q.bid[i][j]).toBe(b.bid[r]);
          expect(q.ask[i][j]).toBe(b.ask[r]);
        });
      }
      // A range starting later: only the minutes from it, same values.
      const tail = (await market.contractMinuteQuotes!(symbol, contracts, etInstant("2024-03-06", "09:55"), NOW))!;
      expect(Array.from(tail.t)).toEqual(Array.from(q.t.subarray(25)));
      expect(Array.from(tail.ask[0])).toEqual(Array.from(q.ask[0].subarray(25)));
    },
    60_000,
  );

  it("is null for an unknown symbol", async () => {
    expect(await market.contractMinuteQuotes!("NOPE", [], 0, NOW)).toBeNull();
  });
});

describe("foldLow and fromLowPct", () => {
  it("the low is the smallest two-sided mid, folding in pieces equals folding at once", () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 50; trial++) {
      const n = 1 + Math.floor(rnd() * 40);
      const bid = Array.from({ length: n }, () => (rnd() < 0.2 ? 0 : Math.round(rnd() * 500) / 100));
      const ask = bid.map((b) => b + 0.05 + Math.round(rnd() * 20) / 100);
      const mids = bid.map((b, j) => (b > 0 ? (b + ask[j]) / 2 : Number.NaN)).filter((m) => !Number.isNaN(m));
      const all = foldLow({ low: Number.NaN, last: Number.NaN }, bid, ask);
      expect(all.low).toBe(mids.length ? Math.min(...mids) : Number.NaN);
      expect(all.last).toBe(twoSidedMid(bid[n - 1], ask[n - 1]));
      const cut = Math.floor(rnd() * n);
      const pieces = foldLow(foldLow({ low: Number.NaN, last: Number.NaN }, bid.slice(0, cut), ask.slice(0, cut)), bid.slice(cut), ask.slice(cut));
      expect(pieces).toEqual(all);
    }
  });

  it("distance is 100 (mid / low - 1), null without a positive low", () => {
    expect(fromLowPct(1.2, 1)).toBeCloseTo(20, 12);
    expect(fromLowPct(1, 1)).toBe(0);
    expect(fromLowPct(1, Number.NaN)).toBeNull();
    expect(fromLowPct(Number.NaN, 1)).toBeNull();
    expect(twoSidedMid(0, 0.05)).toBeNaN();
  });
});
