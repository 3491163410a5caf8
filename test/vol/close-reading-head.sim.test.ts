// A closing reading on the simulator reads the head of the closing board (its expirations out to
// six months, `chainHeadSync`) and falls back to the full board only when a search for a term ran
// past the head. The readings must equal, exactly, the readings of the full board
// (docs/methodology.md#daily-readings). In the simulation layer: it compares every root's readings
// on several sessions (about 5 s), not a unit file's quick check.
import { beforeAll, describe, expect, it } from "vitest";
import type { MarketData } from "../../lib/market/market-data";
import { sessionBounds } from "../../lib/time";
import { chainTerms, sessionCloseReading, tilt } from "../../lib/vol";
import { tilt21 } from "../../lib/vol/tilt";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2025-06-13T15:00:00Z"));

/** The same market without `chainHeadSync`: readings from `chain`, the full closing board. */
function fullBoardsOnly(): MarketData {
  const plain = Object.create(market) as MarketData & { chainHeadSync?: unknown };
  plain.chainHeadSync = undefined;
  return plain;
}

/** The market, counting the full boards a reading asks for. */
function counting(): { market: MarketData; fullBoards: () => number } {
  let n = 0;
  const m = Object.create(market) as MarketData;
  m.chain = (symbol, atMs, options) => {
    n++;
    return market.chain(symbol, atMs, options);
  };
  return { market: m, fullBoards: () => n };
}

let roots: string[] = [];
beforeAll(async () => {
  roots = [...new Set((await market.universe()).flatMap((s) => s.optionRoots))];
});

describe("closing readings from the head of the board", () => {
  // A monthly expiration Friday and a quarter-end (index quarterlies settle that day).
  it.each(["2025-05-16", "2025-03-31"])("equal the full board's for every root on %s, mostly without building it", async (date) => {
    const full = fullBoardsOnly();
    const head = counting();
    for (const symbol of roots) {
      const got = await sessionCloseReading(head.market, symbol, date);
      expect(got, symbol).toEqual(await sessionCloseReading(full, symbol, date));
    }
    expect(roots.length).toBeGreaterThan(100);
    // A full board only where a head reading searched past the head (leveraged ETFs, rarely).
    expect(head.fullBoards()).toBeLessThanOrEqual(3);
  });

  it("equal the full board's around earnings (the report's session and its neighbours)", async () => {
    const full = fullBoardsOnly();
    const cases: [string, string[]][] = [
      ["AAPL", ["2025-04-30", "2025-05-01", "2025-05-02"]],
      ["NVDA", ["2025-05-27", "2025-05-28", "2025-05-29"]],
    ];
    for (const [symbol, dates] of cases) {
      for (const date of dates) {
        const got = await sessionCloseReading(market, symbol, date);
        expect(got, `${symbol} ${date}`).not.toBeNull();
        expect(got, `${symbol} ${date}`).toEqual(await sessionCloseReading(full, symbol, date));
      }
    }
  });

  it("fall back to the full board when a search ran past the head, with the same values", async () => {
    const full = fullBoardsOnly();
    for (const [symbol, date] of [
      ["SOXL", "2025-06-11"],
      ["UVXY", "2025-06-04"],
    ]) {
      const head = counting();
      const got = await sessionCloseReading(head.market, symbol, date);
      expect(head.fullBoards(), `${symbol} ${date}`).toBe(1);
      expect(got).toEqual(await sessionCloseReading(full, symbol, date));
    }
  });

  it("equal the full board's before the symbol's first session (null) and on a session still open", async () => {
    expect(await sessionCloseReading(market, "SPY", "2023-01-03")).toBeNull();
    expect(await sessionCloseReading(market, "SPY", "2025-06-13")).toEqual(await sessionCloseReading(fullBoardsOnly(), "SPY", "2025-06-13"));
  });

  it("the head lists the full board's first expirations and rows, with identical quotes", () => {
    const closeMs = sessionBounds("2025-05-16").closeMs;
    const untilMs = closeMs + 184 * 86_400_000;
    for (const symbol of ["SPXW", "SPX", "AAPL"]) {
      const head = market.chainHeadSync(symbol, closeMs, untilMs)!;
      const board = market.chainSync(symbol, closeMs)!;
      const e = head.expirations.length;
      expect(head.expirations).toEqual(board.expirations.slice(0, e));
      expect(head.expirySettleMs[e - 1]).toBeGreaterThanOrEqual(untilMs);
      expect(head.expirySettleMs[e - 2]).toBeLessThan(untilMs);
      const n = head.right.length;
      expect(n).toBeLessThan(board.right.length);
      for (const col of ["bid", "ask", "last", "iv"] as const) expect(head[col], col).toEqual(board[col].subarray(0, n));
      // Open interest (the previous session's tape) read once, on the cheapest board.
      if (symbol === "AAPL") expect(head.oi).toEqual(board.oi.subarray(0, n));
      expect(head.expIndex).toEqual(board.expIndex.subarray(0, n));
      expect(Float64Array.from(head.strikeIndex, (k) => head.strikes[k])).toEqual(Float64Array.from(board.strikeIndex.subarray(0, n), (k) => board.strikes[k]));
    }
  });

  it("tilt21 is tilt's tilt_21", () => {
    for (const symbol of ["SPXW", "AAPL", "XOP", "UVXY"]) {
      const board = market.chainSync(symbol, sessionBounds("2025-06-11").closeMs)!;
      expect(tilt21(board, chainTerms(board)), symbol).toBe(tilt(board).tilt_21);
    }
  });
});
