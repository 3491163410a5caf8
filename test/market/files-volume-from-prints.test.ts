import { describe, expect, it } from "vitest";
import { fixedClock } from "../../lib/market/clock";
import { createFileMarket, tablesFromTexts } from "../../lib/market/files";

// docs/data.md#board-volume-and-option-prints: where a folder holds a root's prints for a session
// date, the boards' volume for that root is the prints' summed size before asOf; chains.csv's
// volume column stands only where no prints exist.

const symbols = [
  "ticker,name,type,underlying,sector,industry,optionRoots,dividendYield,tiers",
  "SPX,S&P 500 Index,index,SPX,Index,Index,SPX SPXW,0.013,index-etf full",
  "QQQ,Invesco QQQ Trust,etf,QQQ,Multi-Sector,Broad market,QQQ,0.006,index-etf full",
].join("\n");

// Two SPX boards (10:00 and 11:00 ET on 2024-03-15, EDT) carrying SPX and SPXW; a QQQ board.
// chains.csv's volume column is deliberately wrong (999) where prints exist.
const chainRow = (asOf: string, symbol: string, spot: number, root: string, expiry: string, strike: number, right: string, volume: number) =>
  `${asOf},${symbol},${spot},${root},${expiry},${strike},${right},1.00,1.10,1.05,0.15,100,${volume}`;
const chains = [
  "asOf,symbol,spot,root,expiry,strike,right,bid,ask,last,iv,oi,volume",
  ...["2024-03-15T14:00:00Z", "2024-03-15T15:00:00Z"].flatMap((asOf) => [
    chainRow(asOf, "SPX", 5100, "SPXW", "2024-03-15", 5100, "C", 999),
    chainRow(asOf, "SPX", 5100, "SPXW", "2024-03-15", 5100, "P", 999),
    chainRow(asOf, "SPX", 5100, "SPX", "2024-04-19", 5100, "C", 7),
  ]),
  chainRow("2024-03-15T15:00:00Z", "QQQ", 440, "QQQ", "2024-03-15", 440, "C", 55),
].join("\n");

const print = (ts: string, symbol: string, size: number) => `${ts},${symbol},1.05,${size},CBOE,1.00,1.10,AUTO,5100`;
const prints = [
  "ts,symbol,price,size,exchange,bid,ask,conditions,underlyingPrice",
  print("2024-03-14T19:59:00Z", "SPXW240315C05100000", 1000), // the day before: not today's volume
  print("2024-03-15T13:30:00.5Z", "SPXW240315C05100000", 10),
  print("2024-03-15T13:59:59.999999999Z", "SPXW240315C05100000", 5), // last nanosecond before 10:00
  print("2024-03-15T14:00:00Z", "SPXW240315C05100000", 20), // at asOf: not yet in the 10:00 board
  print("2024-03-15T14:30:00Z", "SPXW240315P05100000", 3),
  print("2024-03-15T14:45:00Z", "SPXW240315C05200000", 8), // a contract no board lists
].join("\n");

const market = createFileMarket(tablesFromTexts({ "symbols.csv": symbols, "chains.csv": chains, "option-prints.csv": prints }), {
  clock: fixedClock(Date.parse("2024-03-16T00:00:00Z")),
});

/** Volume by `root expiry strike right` on a board. */
async function volumes(symbol: string, iso: string): Promise<Record<string, number>> {
  const b = (await market.chain(symbol, Date.parse(iso)))!;
  const out: Record<string, number> = {};
  for (let i = 0; i < b.right.length; i++) {
    out[`${b.expiryRoot[b.expIndex[i]]} ${b.expirations[b.expIndex[i]]} ${b.strikes[b.strikeIndex[i]]} ${b.right[i] ? "C" : "P"}`] = b.volume[i];
  }
  return out;
}

describe("file provider: option prints give the boards' volume", () => {
  it("sums a root's prints of the session date before asOf, and keeps chains.csv volume for roots without prints", async () => {
    expect(await volumes("SPX", "2024-03-15T14:00:00Z")).toEqual({
      "SPXW 2024-03-15 5100 P": 0,
      "SPXW 2024-03-15 5100 C": 15,
      "SPX 2024-04-19 5100 C": 7,
    });
    expect(await volumes("SPX", "2024-03-15T15:00:00Z")).toEqual({
      "SPXW 2024-03-15 5100 P": 3,
      "SPXW 2024-03-15 5100 C": 35,
      "SPX 2024-04-19 5100 C": 7,
    });
    expect(await volumes("QQQ", "2024-03-15T15:00:00Z")).toEqual({ "QQQ 2024-03-15 440 C": 55 });
  });

  it("agrees with the prints the market serves for every taped contract", async () => {
    const board = (await market.chain("SPX", Date.parse("2024-03-15T15:00:00Z")))!;
    const served = await market.optionPrints("SPXW", Date.parse("2024-03-15T04:00:00Z"), board.asOfMs);
    const listed = served.filter((p) => p.strike === 5100);
    const boardSpxw = [...board.volume].filter((_, i) => board.expiryRoot[board.expIndex[i]] === "SPXW");
    expect(boardSpxw.reduce((a, b) => a + b, 0)).toBe(listed.reduce((a, p) => a + p.size, 0));
  });
});
