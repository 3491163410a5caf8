// Massive's wire format to our records (pure): snapshot results to a board (roots split, settled,
// IV-less and duplicate contracts left out, rows sorted), WebSocket frames to events (a bad event
// never costs its neighbours), trades to prints (NBBO at the print or none), and the staleness rule.
import { describe, expect, it } from "vitest";
import { expectedBoardMs, freshness } from "../../lib/market/freshness";
import { boardFromSnapshot, contractOfTicker } from "../../lib/market/massive/snapshot-board";
import { printFromTrade } from "../../lib/market/massive/trade-print";
import { parseFrame } from "../../lib/market/massive/wire";

/** A snapshot result with the vendor's field names (massive.com option chain snapshot). */
function result(ticker: string, over: Record<string, unknown> = {}) {
  const c = contractOfTicker(ticker)!;
  return {
    details: {
      contract_type: c.right === "C" ? "call" : "put",
      exercise_style: "european",
      expiration_date: c.expiry,
      shares_per_contract: 100,
      strike_price: c.strike,
      ticker,
    },
    day: { close: 1.5, volume: 12 },
    greeks: { delta: 0.5, gamma: 0.01, theta: -0.5, vega: 0.3 },
    implied_volatility: 0.2,
    last_quote: { ask: 1.6, ask_size: 5, bid: 1.4, bid_size: 5, last_updated: 1_764_774_000_000_000_000, midpoint: 1.5, timeframe: "REAL-TIME" },
    open_interest: 321,
    underlying_asset: { change_to_break_even: 1, last_updated: 1_764_774_000_000_000_000, price: 6800.5, ticker: "I:SPX", timeframe: "REAL-TIME" },
    ...over,
  };
}

const AS_OF = Date.parse("2025-12-03T15:00:00Z");
const header = { symbol: "SPXW", underlying: "SPX", roots: ["SPXW"], asOfMs: AS_OF, sessionDate: "2025-12-03", rate: 0.045, dividendYield: 0.015 };

describe("boardFromSnapshot", () => {
  it("keeps the asked root's live contracts, sorted by expiration, strike, put before call", () => {
    const results = [
      result("O:SPXW251205C06800000"),
      result("O:SPXW251203P06790000"),
      result("O:SPX251219C06800000"), // the other root of the I:SPX snapshot
      result("O:SPXW251202C06800000"), // settled yesterday
      result("O:SPXW251205P06800000", { implied_volatility: undefined }), // no IV: left out
      result("O:SPXW251205C06800000"), // listed twice
      { details: { ticker: "not an option" } },
      result("O:SPXW251205P06810000", { last_quote: { bid: 2, ask: 1 } }), // crossed: no quote
    ];
    const { board, counts } = boardFromSnapshot(results, header);
    expect(counts).toEqual({ malformed: 1, otherRoot: 1, expired: 1, noIv: 1, kept: 3 });
    expect(board).not.toBeNull();
    const b = board!;
    expect(b.expirations).toEqual(["2025-12-03", "2025-12-05"]);
    expect(b.expirySettleMs).toEqual([Date.parse("2025-12-03T21:00:00Z"), Date.parse("2025-12-05T21:00:00Z")]);
    expect(Array.from(b.strikes)).toEqual([6790, 6800, 6810]);
    expect(Array.from(b.expIndex)).toEqual([0, 1, 1]);
    expect(Array.from(b.strikeIndex)).toEqual([0, 1, 2]);
    expect(Array.from(b.right)).toEqual([0, 1, 0]);
    expect(Array.from(b.bid)).toEqual([1.4, 1.4, 0]);
    expect(Array.from(b.ask)).toEqual([1.6, 1.6, 0]);
    expect(Array.from(b.oi)).toEqual([321, 321, 321]);
    expect(Array.from(b.volume)).toEqual([12, 12, 12]);
    expect(b).toMatchObject({ symbol: "SPXW", underlying: "SPX", spot: 6800.5, asOfMs: AS_OF, simulated: false, expiryRoot: ["SPXW", "SPXW"] });
  });

  it("is null without a contract of the root or without an underlying price", () => {
    expect(boardFromSnapshot([result("O:SPX251219C06800000")], header).board).toBeNull();
    expect(boardFromSnapshot([result("O:SPXW251205C06800000", { underlying_asset: undefined })], header).board).toBeNull();
    expect(boardFromSnapshot([result("O:SPXW251205C06800000", { underlying_asset: undefined })], { ...header, spot: 6801 }).board?.spot).toBe(6801);
  });
});

describe("parseFrame", () => {
  it("reads each event on its own and counts what it cannot read", () => {
    const frame = JSON.stringify([
      { ev: "status", status: "auth_success", message: "authenticated" },
      { ev: "T", sym: "O:SPY251219C00650000", x: 302, p: 1.2, s: 3, c: [209], t: 1, q: 7 },
      { ev: "T", sym: "O:SPY251219C00650000", p: "bad" },
      { ev: "XX" },
      { ev: "AM", sym: "SPY", o: 1, h: 2, l: 0.5, c: 1.5, v: 10, s: 0, e: 60_000 },
    ]);
    const { events, malformed } = parseFrame(frame);
    expect(events.map((e) => e.ev)).toEqual(["status", "T", "AM"]);
    expect(malformed).toBe(2);
    expect(parseFrame("{oops")).toEqual({ events: [], malformed: 1 });
  });
});

describe("printFromTrade", () => {
  const trade = { ev: "T" as const, sym: "O:SPY251219P00600000", x: 323, p: 2.05, s: 4, c: [219, 9999], t: 1_764_774_000_123, q: 42 };

  it("maps the contract, exchange, conditions and the NBBO at the print", () => {
    const r = printFromTrade(trade, { bid: 2, ask: 2.05 }, 650.2, "SPY", 0);
    expect(r.ok && r.print).toMatchObject({
      id: "M-SPY__251219P00600000-1764774000123-42",
      tsMs: 1_764_774_000_123,
      tsNs: "1764774000123000000",
      root: "SPY",
      expiry: "2025-12-19",
      strike: 600,
      right: "P",
      exchange: "PHLX",
      conditions: ["ISOI"],
      nbboBid: 2,
      nbboAsk: 2.05,
      underlyingPrice: 650.2,
      iv: null,
    });
  });

  it("gives no NBBO (0/0) without a usable quote, keeps an unknown exchange's print and says so", () => {
    const r = printFromTrade({ ...trade, x: 1, c: [] }, { bid: 2.1, ask: 2 }, 650, "SPY", 5);
    expect(r.ok && r.print).toMatchObject({ nbboBid: 0, nbboAsk: 0, exchange: "CBOE", conditions: ["AUTO"], id: "M-SPY__251219P00600000-1764774000123-42" });
    expect(r.ok && r.unknownExchange).toBe(true);
    expect(printFromTrade({ ...trade, sym: "O:garbage" }, null, 650, "SPY", 0)).toEqual({ ok: false, reason: "bad_ticker" });
    expect(printFromTrade({ ...trade, s: 1.5 }, null, 650, "SPY", 0)).toEqual({ ok: false, reason: "bad_size" });
  });
});

describe("freshness (the one staleness rule)", () => {
  it("measures against the newest board that should exist: now's minute in session, the last close outside", () => {
    // Wednesday 2025-12-03, 10:00:30 ET in session.
    expect(expectedBoardMs(Date.parse("2025-12-03T15:00:30Z"))).toBe(Date.parse("2025-12-03T15:00:00Z"));
    // 08:00 ET before the open: Tuesday's close.
    expect(expectedBoardMs(Date.parse("2025-12-03T13:00:00Z"))).toBe(Date.parse("2025-12-02T21:00:00Z"));
    // Saturday: Friday's close.
    expect(expectedBoardMs(Date.parse("2025-12-06T15:00:00Z"))).toBe(Date.parse("2025-12-05T21:00:00Z"));
    const close = Date.parse("2025-12-02T21:00:00Z");
    expect(freshness(close, Date.parse("2025-12-03T05:00:00Z"))).toEqual({ ageS: 8 * 3600, lagS: 0, stale: false });
    expect(freshness(Date.parse("2025-12-03T15:00:00Z"), Date.parse("2025-12-03T15:20:59Z")).stale).toBe(false);
    expect(freshness(Date.parse("2025-12-03T15:00:00Z"), Date.parse("2025-12-03T15:21:00Z")).stale).toBe(true);
    // A 20-month-old board is stale at any hour.
    expect(freshness(Date.parse("2024-04-02T20:00:00Z"), Date.parse("2025-12-06T15:00:00Z")).stale).toBe(true);
    expect(freshness(Date.parse("2025-12-03T15:00:00Z"), Date.parse("2025-12-03T15:10:00Z"), 5 * 60_000).stale).toBe(true);
  });
});
