// The flow open-interest estimate's error on the simulated market, where the truth is known
// (docs/methodology.md#flow-open-interest, "Measured error"). The simulator carries a session's
// tape into the next session's open interest (docs/methodology.md#open-interest-carry-from-the-tape):
// OI(d+1) = max(0, shape(d+1) + round(V_d (opening - closing))). Two truths are read from it:
// - a 0DTE contract has no next session, so its truth is that rule with today's open interest in
//   place of tomorrow's shape (the shape's overnight drift is not a trade): what the session's
//   prints leave open at the close;
// - a 1DTE contract (tomorrow's 0DTE) has one: the next session's published open interest, which
//   also moves with the shape's drift that no tape shows (the floor reported beside it).
// SPXW, three sessions, the 10 listed strikes nearest the opening spot, both rights.
import { describe, expect, it } from "vitest";
import { openInterestBySymbol } from "../../lib/flow/board-open-interest";
import { simCalendar } from "../../lib/market/simulated/_calendar";
import { SimEngine } from "../../lib/market/simulated/engine";
import { carryShares, oiChange } from "../../lib/market/simulated/open-interest-carry";
import { buildSessionBoard } from "../../lib/market/simulated/session-board";
import { FlowOiEstimator } from "../../lib/positioning/flow-oi";
import { formatOptionSymbol } from "../../lib/symbols";
import { nextTradingDay, sessionBounds } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const SEED = 42;
const SYMBOL = "SPXW";
const SESSIONS = ["2024-03-05", "2025-01-15", "2025-09-10"];
const ATM_STRIKES = 10;
const DAY_MS = 86_400_000;

const market = simulatedMarketAt(SEED, Date.parse("2026-11-01T00:00:00Z"));
const engine = new SimEngine(SEED);

const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** Error relative to the larger of the morning's and the closing open interest (a contract closed out is scored against its morning). */
const relError = (est: number, truth: number, morning: number) => Math.abs(est - truth) / Math.max(truth, morning, 1);

interface Errors {
  flow: number[];
  exchange: number[];
  /** 0DTE: contracts the truth leaves open (> 0). */
  flowOpen: number[];
  /** 1DTE: the carry rule on today's open interest against the published next-day open interest (the shape drift). */
  drift: number[];
}

async function measure(): Promise<{ zeroDte: Errors; oneDte: Errors }> {
  const zeroDte: Errors = { flow: [], exchange: [], flowOpen: [], drift: [] };
  const oneDte: Errors = { flow: [], exchange: [], flowOpen: [], drift: [] };
  const spec = engine.spec(SYMBOL)!;
  const sigma = engine.owner(spec).vol;
  for (const date of SESSIONS) {
    const next = nextTradingDay(date);
    const { openMs, closeMs } = sessionBounds(date);
    const board = (await market.chain(SYMBOL, openMs))!;
    const nextBoard = (await market.chain(SYMBOL, sessionBounds(next).openMs))!;
    expect([board.sessionDate, nextBoard.sessionDate]).toEqual([date, next]);
    // The close the simulator's carry measures distance from (the next board's reference spot).
    const close = buildSessionBoard(engine, spec, simCalendar().dayIndex.get(next)!).refSpot;
    const prints = await market.optionPrints(SYMBOL, openMs, closeMs);
    const volume = new Map<string, number>();
    for (const p of prints) volume.set(p.symbol, (volume.get(p.symbol) ?? 0) + p.size);
    const estimator = new FlowOiEstimator(date, openInterestBySymbol(board));
    estimator.add(prints);
    const r = estimator.result(closeMs);
    const estimate = new Map(r.oi.map((oi, j) => [`${r.expiry[j]}|${r.strike[j]}|${r.right[j]}`, oi]));
    const published = openInterestBySymbol(nextBoard);
    const atm = new Set(
      Array.from(board.strikes)
        .sort((a, b) => Math.abs(a - board.spot) - Math.abs(b - board.spot))
        .slice(0, ATM_STRIKES),
    );
    for (let i = 0; i < board.right.length; i++) {
      const e = board.expIndex[i];
      const expiry = board.expirations[e];
      const strike = board.strikes[board.strikeIndex[i]];
      if (!atm.has(strike) || (expiry !== date && expiry !== next)) continue;
      const symbol = formatOptionSymbol({ root: board.expiryRoot[e], expiry, strike, right: board.right[i] === 1 ? "C" : "P" }, "url");
      const morning = board.oi[i];
      const est = estimate.get(`${expiry}|${strike}|${board.right[i]}`) ?? morning;
      const dte = (Date.parse(`${expiry}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / DAY_MS;
      const x = Math.abs(Math.log(strike / close)) / (sigma * Math.sqrt(Math.max(dte, 1) / 365));
      const carried = Math.max(0, morning + oiChange(volume.get(symbol) ?? 0, carryShares(dte, x)));
      if (expiry === date) {
        zeroDte.flow.push(relError(est, carried, morning));
        zeroDte.exchange.push(relError(morning, carried, morning));
        if (carried > 0) zeroDte.flowOpen.push(relError(est, carried, morning));
      } else {
        const truth = published.get(symbol)!;
        oneDte.flow.push(relError(est, truth, morning));
        oneDte.exchange.push(relError(morning, truth, morning));
        oneDte.drift.push(relError(carried, truth, morning));
      }
    }
  }
  return { zeroDte, oneDte };
}

describe("flow open interest against the simulator's truth (SPXW, 3 sessions, 10 ATM strikes)", () => {
  it("0DTE at the money: median error under 25%; 1DTE against the next day's published OI: no worse than the exchange's", async () => {
    const { zeroDte, oneDte } = await measure();
    const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
    // The figures docs/methodology.md#flow-open-interest records (rerun after changing the rule).
    console.info(
      `flow OI error, SPXW 0DTE ATM (n=${zeroDte.flow.length}): median ${pct(median(zeroDte.flow))} (exchange OI ${pct(median(zeroDte.exchange))}); ` +
        `left open at the close (n=${zeroDte.flowOpen.length}): ${pct(median(zeroDte.flowOpen))}. ` +
        `1DTE vs next-day published OI (n=${oneDte.flow.length}): ${pct(median(oneDte.flow))} (exchange OI ${pct(median(oneDte.exchange))}; the carry rule itself ${pct(median(oneDte.drift))}).`,
    );
    expect(zeroDte.flow.length).toBe(SESSIONS.length * ATM_STRIKES * 2);
    expect(median(zeroDte.flow)).toBeLessThan(0.25);
    // Contracts the day leaves open: the simulator measures distance from the day's close, which no
    // intraday estimate knows (a strike at the money at the open is 2 sd away after a 1.7% day).
    expect(median(zeroDte.flowOpen)).toBeLessThan(0.35);
    // The morning's exchange OI misses the day's closing almost entirely.
    expect(median(zeroDte.exchange)).toBeGreaterThan(0.5);
    // The carry the estimate adds is small beside the shape's overnight drift on these: no worse than the morning's figure.
    expect(median(oneDte.flow)).toBeLessThanOrEqual(median(oneDte.exchange));
    expect(median(oneDte.flow)).toBeLessThan(0.3);
  }, 120_000);
});
