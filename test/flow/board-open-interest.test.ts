// openInterestBySymbol formats each expiration's and each strike's part once: its keys and values
// must equal formatting every row's whole symbol (the oracle below) on real boards, including a
// board with two roots and strikes with fractional digits.
import { describe, expect, it } from "vitest";
import { openInterestBySymbol } from "../../lib/flow/board-open-interest";
import type { ChainSnapshot } from "../../lib/market/market-data";
import { formatOptionSymbol } from "../../lib/symbols";
import { sessionBounds } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

function oracle(board: ChainSnapshot): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < board.right.length; i++) {
    const e = board.expIndex[i];
    const symbol = formatOptionSymbol({
      root: board.expiryRoot[e],
      expiry: board.expirations[e],
      strike: board.strikes[board.strikeIndex[i]],
      right: board.right[i] === 1 ? "C" : "P",
    });
    out.set(symbol, board.oi[i]);
  }
  return out;
}

describe("openInterestBySymbol", () => {
  const closeMs = sessionBounds("2024-03-05").closeMs;
  const market = simulatedMarketAt(42, closeMs + 3_600_000);
  for (const symbol of ["SPX", "KO", "F"]) {
    it(`equals formatting every row of ${symbol}'s board`, async () => {
      const board = await market.chain(symbol, closeMs);
      expect(board).not.toBeNull();
      const got = openInterestBySymbol(board!);
      expect(got.size).toBe(board!.right.length);
      expect([...got]).toEqual([...oracle(board!)]);
    });
  }

  it("equals the oracle on a board with two roots and strikes in thousandths", async () => {
    // No simulated board has either: a KO board rewritten to have both.
    const ko = (await market.chain("KO", closeMs))!;
    const board = { ...ko, expiryRoot: ko.expiryRoot.map((r, e) => (e % 2 ? "KO7" : r)), strikes: ko.strikes.map((k) => k + 0.125) };
    expect([...openInterestBySymbol(board)]).toEqual([...oracle(board)]);
    expect([...openInterestBySymbol(board).keys()].some((k) => k.startsWith("KO7__"))).toBe(true);
  });
});
