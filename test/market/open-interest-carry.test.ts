import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../bench/_mulberry32";
import type { ChainSnapshot } from "../../lib/market";
import { simCalendar } from "../../lib/market/simulated/_calendar";
import { SimEngine } from "../../lib/market/simulated/engine";
import { carryShares, oiChange } from "../../lib/market/simulated/open-interest-carry";
import { buildSessionBoard, type SessionBoard } from "../../lib/market/simulated/session-board";
import { formatOptionSymbol } from "../../lib/symbols";
import { etInstant, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

// Open interest remembers yesterday's tape (docs/methodology.md#open-interest-carry-from-the-tape):
// OI(d+1) = max(0, shape(d+1) + round(V_d x (opening - closing))), V_d the contract's summed print
// size over session d, the shares the documented function of days to expiry and distance from
// the close. Checked contract by contract against the prints the market serves, with the shares
// recomputed here from the methodology's formula.

const SEED = 11;
const market = simulatedMarketAt(SEED, Date.parse("2026-11-01T00:00:00Z"));
const engine = new SimEngine(SEED);
const DAYS = tradingDaysBetween("2023-04-03", "2026-10-30");
const DAY_MS = 86_400_000;

/** The methodology's shares, written out (not imported): opening, closing. */
function sharesByDoc(dteDays: number, distanceSd: number): [number, number] {
  const opening = 0.25 + 0.15 * Math.min(1, distanceSd / 2) + 0.1 * Math.min(1, dteDays / 60);
  const closing = 0.15 + 0.3 * Math.exp(-dteDays / 7);
  return [opening, closing];
}

/** Half away from zero. */
const roundAway = (x: number) => (x < 0 ? -1 : 1) * Math.round(Math.abs(x));

function contractOf(root: string, expiry: string, right: number, strike: number): string {
  return formatOptionSymbol({ root, expiry, right: right === 1 ? "C" : "P", strike }, "url");
}

/** The OI shape of a session's board (no carry), by contract symbol. */
function shapeBySymbol(board: SessionBoard): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < board.n; i++) {
    const e = board.expIndex[i];
    out.set(contractOf(board.root, board.expirations[e].expiry, board.right[i], board.strike[i]), board.oi[i]);
  }
  return out;
}

/** What one (symbol, session) pair gives: totals for the share bands. */
interface CarryCase {
  /** Volume of day d on contracts still listed on d+1, and the OI change it made, by DTE bucket. */
  volume: { short: number; mid: number; long: number };
  change: { short: number; mid: number; long: number };
  floored: number;
  contracts: number;
}

/**
 * Checks every contract of `symbol`'s board on session `next` against session `prev`'s tape and
 * returns the totals.
 */
async function checkCarry(symbol: string, prev: string, next: string): Promise<CarryCase> {
  const spec = engine.spec(symbol)!;
  const shapeBoard = buildSessionBoard(engine, spec, simCalendar().dayIndex.get(next)!);
  const shape = shapeBySymbol(shapeBoard);
  const { openMs, closeMs } = sessionBounds(prev);
  const volume = new Map<string, number>();
  for (const p of await market.optionPrints(symbol, openMs, closeMs)) volume.set(p.symbol, (volume.get(p.symbol) ?? 0) + p.size);
  const board: ChainSnapshot = market.chainSync(symbol, etInstant(next, "10:00"))!;
  const sigma = engine.owner(spec).vol;
  const close = shapeBoard.refSpot; // the previous close, in the board's units
  const prevMs = Date.parse(`${prev}T00:00:00Z`);
  const out: CarryCase = { volume: { short: 0, mid: 0, long: 0 }, change: { short: 0, mid: 0, long: 0 }, floored: 0, contracts: 0 };
  for (let i = 0; i < board.right.length; i++) {
    const expiry = board.expirations[board.expIndex[i]];
    const strike = board.strikes[board.strikeIndex[i]];
    const sym = contractOf(board.expiryRoot[board.expIndex[i]], expiry, board.right[i], strike);
    const s = shape.get(sym)!;
    // An expect per contract (~20,000 on SPXW) cost more than the check: called only to fail.
    if (!(s >= 0)) expect(s, sym).toBeGreaterThanOrEqual(0);
    const v = volume.get(sym) ?? 0;
    const dte = (Date.parse(`${expiry}T00:00:00Z`) - prevMs) / DAY_MS;
    const x = Math.abs(Math.log(strike) - Math.log(close)) / (sigma * Math.sqrt(Math.max(dte, 1) / 365));
    const [o, c] = sharesByDoc(dte, x);
    const change = roundAway(v * (o - c));
    const expected = Math.max(0, s + change);
    if (board.oi[i] !== expected) expect({ sym, oi: board.oi[i] }).toEqual({ sym, oi: expected });
    out.contracts++;
    if (s + change < 0) out.floored++;
    const bucket = dte <= 2 ? "short" : dte <= 30 ? "mid" : "long";
    out.volume[bucket] += v;
    out.change[bucket] += change;
  }
  return out;
}

describe("open interest carry: shares and rounding (docs/methodology.md#open-interest-carry-from-the-tape)", () => {
  it("gives the documented shares at hand-computed points", () => {
    // At the money, expiring tomorrow: opening 0.25 + 0 + 0.1/60, closing 0.15 + 0.3 e^(-1/7).
    expect(carryShares(1, 0).opening).toBeCloseTo(0.25 + 0.1 / 60, 12);
    expect(carryShares(1, 0).closing).toBeCloseTo(0.15 + 0.3 * Math.exp(-1 / 7), 12);
    // Far out of the money (>= 2 sd) and >= 60 days: opening at its cap 0.5.
    expect(carryShares(90, 3).opening).toBeCloseTo(0.5, 12);
    expect(carryShares(90, 3).closing).toBeCloseTo(0.15 + 0.3 * Math.exp(-90 / 7), 12);
    // One sd, 30 days: 0.25 + 0.075 + 0.05.
    expect(carryShares(30, 1).opening).toBeCloseTo(0.375, 12);
  });

  it("nets near-expiry volume to closing and far-dated volume to opening", () => {
    const net = (d: number, x: number) => carryShares(d, x).opening - carryShares(d, x).closing;
    expect(net(1, 0)).toBeLessThan(0);
    expect(net(60, 0)).toBeGreaterThan(0);
    // Monotone: later expiries and further strikes open more, net.
    for (const d of [1, 3, 7, 14, 30]) expect(net(2 * d, 0.5)).toBeGreaterThan(net(d, 0.5));
    for (const x of [0, 0.5, 1, 1.5]) expect(net(10, x + 0.5)).toBeGreaterThan(net(10, x));
    // Shares stay probabilities that leave room for transfers.
    for (const d of [0, 1, 5, 20, 400])
      for (const x of [0, 1, 5]) {
        const s = carryShares(d, x);
        expect(s.opening).toBeGreaterThan(0);
        expect(s.closing).toBeGreaterThan(0);
        expect(s.opening + s.closing).toBeLessThanOrEqual(1);
      }
  });

  it("rounds the change half away from zero, symmetric in sign", () => {
    expect(oiChange(101, { opening: 0.4, closing: 0.2 })).toBe(20); // 20.2
    expect(oiChange(84, { opening: 0.375, closing: 0.25 })).toBe(11); // 10.5 exactly (binary fractions)
    expect(oiChange(84, { opening: 0.25, closing: 0.375 })).toBe(-11); // -10.5
    expect(oiChange(0, { opening: 0.2, closing: 0.3 })).toBe(0);
  });
});

describe("open interest carry on the simulated market: the tape moves the next session's OI", () => {
  const draws = mulberry32(20261125);
  const universe = market.universeSync().filter((s) => s.type !== "index" && !["SPY", "QQQ", "TSLA", "NVDA", "AAPL", "IWM"].includes(s.ticker));
  // Random single names and ETFs on random sessions, plus a Monday (the previous session is a
  // Friday), the session after a holiday and an early close, and the busiest index root.
  const cases: [string, string, string][] = [];
  for (let k = 0; k < 6; k++) {
    const sym = universe[Math.floor(draws() * universe.length)].ticker;
    const i = 1 + Math.floor(draws() * (DAYS.length - 1));
    cases.push([sym, DAYS[i - 1], DAYS[i]]);
  }
  cases.push(["XLF", "2024-05-03", "2024-05-06"], ["DIA", "2024-07-03", "2024-07-05"], ["SPXW", "2024-11-29", "2024-12-02"]);
  const totals: CarryCase[] = [];

  it.each(cases)(
    "%s: OI on the session after %s is shape + the documented change of that day's tape",
    async (symbol, prev, next) => {
      const c = await checkCarry(symbol, prev, next);
      expect(c.contracts).toBeGreaterThan(100);
      totals.push(c);
    },
    60_000,
  );

  it("moves OI by a documented share of the surviving volume: short-dated closed, long-dated opened", () => {
    expect(totals.length).toBe(cases.length);
    const sum = (f: (c: CarryCase) => number) => totals.reduce((a, c) => a + f(c), 0);
    const net = (b: "short" | "mid" | "long") => sum((c) => c.change[b]) / sum((c) => c.volume[b]);
    const all = sum((c) => c.change.short + c.change.mid + c.change.long) / sum((c) => c.volume.short + c.volume.mid + c.volume.long);
    // Bands of docs/methodology.md#open-interest-carry-from-the-tape (net change over volume).
    expect(net("short")).toBeGreaterThanOrEqual(-0.2);
    expect(net("short")).toBeLessThanOrEqual(-0.02);
    expect(net("mid")).toBeGreaterThanOrEqual(0.02);
    expect(net("mid")).toBeLessThanOrEqual(0.2);
    expect(net("long")).toBeGreaterThanOrEqual(0.15);
    expect(net("long")).toBeLessThanOrEqual(0.35);
    expect(all).toBeGreaterThanOrEqual(0);
    expect(all).toBeLessThanOrEqual(0.2);
    // The floor at zero is reached (closing volume above a small shape) and never goes below.
    expect(sum((c) => c.floored)).toBeGreaterThan(0);
  });
});
