import { describe, expect, it } from "vitest";
import { OffExchangePrintSchema, OptionPrintSchema, isSweepPrint } from "../../lib/market/prints";
import { sessionBounds } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

// The print generators wired into the real simulator (integration, not realism: that is
// prints-simulated.test.ts on independent synthetic boards).
const DAY = "2024-03-15";
const session = sessionBounds(DAY);
const market = simulatedMarketAt(7, session.closeMs + 3_600_000);

describe("prints on the simulated market", () => {
  it("quote the board exactly at a board refresh minute", async () => {
    const minute = session.openMs + 60 * 60_000; // 10:30 ET, a 15-minute anchor
    const board = (await market.chain("SPXW", minute))!;
    expect(board.asOfMs).toBe(minute);
    const prints = await market.optionPrints("SPXW", minute, minute + 60_000);
    expect(prints.length).toBeGreaterThan(10);
    const cents = (x: number) => Math.round(x * 100) / 100;
    let checked = 0;
    for (const p of prints) {
      OptionPrintSchema.parse(p);
      expect(p.underlyingPrice).toBeCloseTo(board.spot, 2);
      if (isSweepPrint(p)) continue;
      const e = board.expirations.indexOf(p.expiry);
      const row = [...board.strikeIndex.keys()].find(
        (i) => board.expIndex[i] === e && board.strikes[board.strikeIndex[i]] === p.strike && board.right[i] === (p.right === "C" ? 1 : 0),
      )!;
      expect(row).toBeDefined();
      expect(p.nbboBid).toBe(cents(board.bid[row]));
      expect(p.nbboAsk).toBe(Math.max(cents(board.ask[row]), cents(board.bid[row]) + 0.01));
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("make valid SPY off-exchange prints and stock-only earnings", async () => {
    const dark = await market.offExchangePrints(["SPY"], session.openMs, session.openMs + 30 * 60_000);
    expect(dark.length).toBeGreaterThan(0);
    for (const p of dark) OffExchangePrintSchema.parse(p);
    expect((await market.earnings("AAPL", "2024-01-01", "2024-12-31")).length).toBe(4);
    expect(await market.earnings("SPY", "2024-01-01", "2024-12-31")).toEqual([]);
  });
});
