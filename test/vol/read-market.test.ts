import { describe, expect, it } from "vitest";
import { etInstant, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { chainTerms, impliedMove, readCones, readSigma, sessionCloseReading, sigmaHistory, svxAll, type SessionCloseReading } from "../../lib/vol";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));

describe("daily readings and readSigma", () => {
  it("reads a session's closing board and chains the priced moves", async () => {
    const days = tradingDaysBetween("2024-04-22", "2024-04-30");
    const readings = (await Promise.all(days.map((d) => sessionCloseReading(market, "AAPL", d)))) as SessionCloseReading[];
    const board = market.chainSync("AAPL", sessionBounds(days[2]).closeMs)!;
    expect(readings[2].svx30).toBe(svxAll(board).svx30!.value);
    expect(readings[2].close).toBe(board.spot);
    const h = sigmaHistory(readings);
    expect(h[0].em1dPct).toBeNull();
    for (let i = 1; i < h.length; i++) expect(h[i].em1dPct).toBe(readings[i - 1].em_1d_next_pct);
    // A gap in the readings breaks the chain.
    expect(sigmaHistory([readings[0], readings[2]])[1].em1dPct).toBeNull();
  });

  it("prices today's move with the prior close's board, live during the session only", async () => {
    const readings = (await Promise.all(tradingDaysBetween("2024-04-22", "2024-04-30").map((d) => sessionCloseReading(market, "SPY", d)))) as SessionCloseReading[];
    const asOf = etInstant("2024-05-01", "11:00");
    const s = (await readSigma(market, "SPY", asOf, readings))!;
    const prior = market.chainSync("SPY", sessionBounds("2024-04-30").closeMs)!;
    const now = market.chainSync("SPY", asOf)!;
    const em = impliedMove(chainTerms(prior), sessionBounds("2024-05-01").closeMs)!.em1Pct;
    expect(s.em_1d_pct).toBeCloseTo(em, 12);
    expect(s.running_sigma).toBeCloseTo((100 * (now.spot / prior.spot - 1)) / em, 12);
    expect(s.days.length).toBe(readings.length - 1);
    expect(s.day_pace).not.toBeNull();
    const after = (await readSigma(market, "SPY", etInstant("2024-05-01", "18:00"), readings))!;
    expect(after.day_pace).toBeNull();
    expect(after.running_sigma).not.toBeNull();
  });
});

describe("readSigma's prior close", () => {
  it("takes the prior session from its daily reading, without building that closing board", async () => {
    const readings = (await Promise.all(tradingDaysBetween("2024-04-22", "2024-04-30").map((d) => sessionCloseReading(market, "SPY", d)))) as SessionCloseReading[];
    const asOf = etInstant("2024-05-01", "11:00");
    const priorCloseMs = sessionBounds("2024-04-30").closeMs;
    const asked: number[] = [];
    const counting = new Proxy(market, {
      get: (target, prop, receiver) =>
        prop === "chain"
          ? (symbol: string, at: number) => {
              asked.push(at);
              return target.chain(symbol, at);
            }
          : Reflect.get(target, prop, receiver),
    });
    const fromReading = (await readSigma(counting, "SPY", asOf, readings))!;
    expect(asked).not.toContain(priorCloseMs);
    // Without the prior session's reading, the closing board is read: the same numbers.
    const fromBoard = (await readSigma(counting, "SPY", asOf, readings.slice(0, -1)))!;
    expect(asked).toContain(priorCloseMs);
    expect(fromReading.em_1d_pct).toBe(fromBoard.em_1d_pct);
    expect(fromReading.running_sigma).toBe(fromBoard.running_sigma);
    expect(fromReading.day_pace).toBe(fromBoard.day_pace);
  });

  it("reuses the caller's live board and terms instead of quoting the board again", async () => {
    const readings = (await Promise.all(tradingDaysBetween("2024-04-22", "2024-04-30").map((d) => sessionCloseReading(market, "SPY", d)))) as SessionCloseReading[];
    const asOf = etInstant("2024-05-01", "11:00");
    const board = market.chainSync("SPY", asOf)!;
    const asked: number[] = [];
    const counting = new Proxy(market, {
      get: (target, prop, receiver) =>
        prop === "chain"
          ? (symbol: string, at: number) => {
              asked.push(at);
              return target.chain(symbol, at);
            }
          : Reflect.get(target, prop, receiver),
    });
    const given = (await readSigma(counting, "SPY", asOf, readings, { board, terms: chainTerms(board) }))!;
    expect(asked).toEqual([]);
    const read = (await readSigma(market, "SPY", asOf, readings))!;
    expect(given).toEqual(read);
  });
});

describe("readCones", () => {
  it("prices the fixed levels at their anchor closes", async () => {
    const asOf = etInstant("2024-05-01", "11:00");
    const c = (await readCones(market, "SPY", asOf))!;
    expect(c.levels.map((l) => l.name)).toEqual(["day", "week", "month"]);
    const day = c.levels[0];
    const anchor = market.chainSync("SPY", sessionBounds("2024-04-30").closeMs)!;
    const em = impliedMove(chainTerms(anchor), sessionBounds("2024-05-01").closeMs)!.em1Pct;
    expect(day.em1_pct).toBeCloseTo(em, 12);
    expect(day.hi1).toBeCloseTo(anchor.spot * (1 + em / 100), 9);
    expect(c.horizons[0]!.realized_em_pct).toBeNull();
  });
});
