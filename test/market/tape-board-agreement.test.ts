import { describe, expect, it } from "vitest";
import type { ChainSnapshot, OptionPrint } from "../../lib/market";
import { formatOptionSymbol } from "../../lib/symbols";
import { sessionBounds, tradingDaysBetween } from "../../lib/time";
import { mulberry32 } from "../../bench/_mulberry32";
import { violations } from "../_helpers/violations";
import { simulatedMarketAt } from "../_helpers/simulated-market";

// One tape is the truth (docs/methodology.md#one-tape-board-volume-from-the-prints): a board's
// volume is, contract by contract, the summed size of the tape's prints from the open up to the
// board's minute. Checked against the prints the market serves, summed here independently.

/** The test's own draws of symbols, days and minutes (seeded, so failures replay). */
const draws = mulberry32;

const market = simulatedMarketAt(11, Date.parse("2026-11-01T00:00:00Z"));
const DAYS = tradingDaysBetween("2023-04-03", "2026-10-30");

/** Summed print sizes by URL-safe contract symbol. */
function sizesBySymbol(prints: readonly OptionPrint[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of prints) out.set(p.symbol, (out.get(p.symbol) ?? 0) + p.size);
  return out;
}

function symbolOf(board: ChainSnapshot, i: number): string {
  return formatOptionSymbol(
    {
      root: board.expiryRoot[board.expIndex[i]],
      expiry: board.expirations[board.expIndex[i]],
      right: board.right[i] === 1 ? "C" : "P",
      strike: board.strikes[board.strikeIndex[i]],
    },
    "url",
  );
}

/** Asserts the board's volume equals the tape's sums, and that every live contract traded is listed. */
async function expectBoardMatchesTape(symbol: string, board: ChainSnapshot): Promise<number> {
  const { openMs } = sessionBounds(board.sessionDate);
  const prints = await market.optionPrints(symbol, openMs, board.asOfMs);
  const sums = sizesBySymbol(prints.filter((p) => board.expirations.includes(p.expiry)));
  let total = 0;
  // One assertion for the board: an expect per contract costs more than the contract (test/_helpers/violations.ts).
  const v = violations();
  for (let i = 0; i < board.right.length; i++) {
    const s = symbolOf(board, i);
    const tape = sums.get(s) ?? 0;
    v.check(Object.is(board.volume[i], tape), () => `${s}: board volume ${board.volume[i]}, tape ${tape}`);
    sums.delete(s);
    total += board.volume[i];
  }
  v.expectNone(`${symbol} at ${new Date(board.asOfMs).toISOString()}`);
  expect([...sums.keys()], "prints on contracts missing from the board").toEqual([]);
  return total;
}

describe("one tape is the truth: board volume = the tape's print sizes so far", () => {
  const universe = market.universeSync();
  const pick = draws(20261125);
  const cases = (["index", "etf", "stock"] as const).flatMap((type) => {
    const pool = universe.filter((s) => s.type === type && s.optionRoots.length > 0);
    return [0, 1].map(() => ({
      symbol: pool[Math.floor(pick() * pool.length)].ticker,
      day: DAYS[Math.floor(pick() * DAYS.length)],
      minute: 1 + Math.floor(pick() * 120),
    }));
  });

  it.each(cases)("$symbol on $day at minute $minute of the session", async ({ symbol, day, minute }) => {
    const { openMs } = sessionBounds(day);
    const board = (await market.chain(symbol, openMs + minute * 60_000))!;
    expect(board.asOfMs).toBe(openMs + minute * 60_000);
    const total = await expectBoardMatchesTape(symbol, board);
    expect(total).toBeGreaterThan(0);
    // Cumulative: a later board carries at least as much on every contract listed on both.
    const later = (await market.chain(symbol, board.asOfMs + 7 * 60_000))!;
    expect(later.right.length).toBe(board.right.length);
    const v = violations();
    for (let i = 0; i < board.right.length; i++)
      v.check(later.volume[i] >= board.volume[i], () => `row ${i}: volume ${later.volume[i]} 7 minutes later, ${board.volume[i]} before`);
    v.expectNone("volume non-decreasing");
    await expectBoardMatchesTape(symbol, later);
  });

  it("holds at the open (no volume yet) and on the closing board (settled 0DTE left out)", async () => {
    const day = "2024-06-14";
    const { openMs, closeMs } = sessionBounds(day);
    const atOpen = (await market.chain("IWM", openMs))!;
    expect(atOpen.volume.every((v) => v === 0)).toBe(true);
    const closing = (await market.chain("IWM", closeMs + 3_600_000))!;
    expect(closing.asOfMs).toBe(closeMs);
    expect(closing.expirations).not.toContain(day);
    expect(await expectBoardMatchesTape("IWM", closing)).toBeGreaterThan(0);
  });

  it("gives a priced window exactly the full board's volume, and an unpriced one none", () => {
    const { openMs } = sessionBounds("2025-02-11");
    const at = openMs + 45 * 60_000;
    const full = market.chainSync("QQQ", at)!;
    const win = market.chainWindowSync("QQQ", at, { maxExpirations: 3, strikeWindow: (k) => ({ lo: 10, hi: k.length - 10 }), prices: true })!;
    expect(win.right.length).toBeGreaterThan(0);
    const fullIndex = new Map<string, number>();
    for (let i = 0; i < full.right.length; i++) fullIndex.set(symbolOf(full, i), i);
    let traded = 0;
    const v = violations();
    for (let j = 0; j < win.right.length; j++) {
      const i = fullIndex.get(symbolOf(win, j))!;
      v.check(Object.is(win.volume[j], full.volume[i]), () => `${symbolOf(win, j)}: window volume ${win.volume[j]}, full board ${full.volume[i]}`);
      if (win.volume[j] > 0) traded++;
    }
    v.expectNone("window volume = full board volume");
    expect(traded).toBeGreaterThan(0);
    const unpriced = market.chainWindowSync("QQQ", at, { maxExpirations: 3, strikeWindow: (k) => ({ lo: 0, hi: k.length }) })!;
    expect(unpriced.volume.every((v) => Number.isNaN(v))).toBe(true);
  });
});
