// The session tape: scores equal the per-object oracle on the same prints, a moving clock extends
// today's tape with exactly the prints that arrived, finished sessions are cached whole, and the
// resolvers answer the spec's codes.
import { describe, expect, it } from "vitest";
import { openInterestBySymbol, premiumNorm, scoreFlow } from "../../../../lib/flow";
import { createSimulatedMarket } from "../../../../lib/market/simulated";
import type { AppServices } from "../../../../server/services";
import { createFlowState } from "../../../../server/modules/flow/flow-route";
import {
  currentFlowDate,
  resolveFlowContract,
  resolveFlowDate,
  resolveFlowTicker,
  sessionTape,
  tapeTrades,
  tapeTradesInWindow,
} from "../../../../server/modules/flow/sessions/tape";
import { sessionBounds } from "../../../../lib/time";

const DATE = "2024-03-05";
const OPEN = sessionBounds(DATE).openMs;

function stateAt(clock: { ms: number }) {
  const market = createSimulatedMarket({ seed: 7, clock: { now: () => clock.ms } });
  return { market, state: createFlowState({ market } as unknown as AppServices) };
}

describe("sessionTape", () => {
  it("scores today's prints exactly as the per-object oracle with the prior session's norm and opening OI", async () => {
    const clock = { ms: OPEN + 20 * 60_000 };
    const { market, state } = stateAt(clock);
    const tape = await sessionTape(state, "AAPL", DATE, clock.ms);
    const prints = await market.optionPrints("AAPL", OPEN, clock.ms);
    expect(tape.prints.length).toBe(prints.length);
    expect(prints.length).toBeGreaterThan(100);
    const prior = sessionBounds("2024-03-04");
    const norm = premiumNorm(await market.optionPrints("AAPL", prior.openMs, prior.closeMs));
    expect(tape.norm).toBe(norm);
    const board = await market.chain("AAPL", OPEN);
    const oracle = scoreFlow(prints, { normPremiumUsd: norm, openInterest: openInterestBySymbol(board!) });
    expect(tapeTrades(tape).map((t) => t.flowScore)).toEqual(oracle.map((t) => t.flowScore));
    expect(tapeTrades(tape).map((t) => t.premiumUsd)).toEqual(oracle.map((t) => t.premiumUsd));
    expect(tape.complete).toBe(false);
  });

  it("extends today's tape as the clock moves, equal to a fresh build, and reuses it while the clock stands", async () => {
    const clock = { ms: OPEN + 10 * 60_000 };
    const { state } = stateAt(clock);
    const early = await sessionTape(state, "AAPL", DATE, clock.ms);
    expect(await sessionTape(state, "AAPL", DATE, clock.ms)).toBe(early);
    clock.ms = OPEN + 25 * 60_000;
    const later = await sessionTape(state, "AAPL", DATE, clock.ms);
    expect(later.prints.slice(0, early.prints.length)).toEqual(early.prints);
    expect(later.prints.length).toBeGreaterThan(early.prints.length);
    const { state: freshState } = stateAt(clock);
    const fresh = await sessionTape(freshState, "AAPL", DATE, clock.ms);
    expect(later.prints.map((p) => p.id)).toEqual(fresh.prints.map((p) => p.id));
    expect(Array.from(later.scores.flowScore)).toEqual(Array.from(fresh.scores.flowScore));
    // Trades in a window are exactly the prints whose time falls in it.
    const from = OPEN + 12 * 60_000;
    const to = OPEN + 14 * 60_000;
    const inWindow = tapeTradesInWindow(later, from, to);
    expect(inWindow.map((t) => t.id)).toEqual(later.prints.filter((p) => p.tsMs >= from && p.tsMs < to).map((p) => p.id));
  });

  it("a finished session is complete and cached whole", async () => {
    const clock = { ms: Date.parse("2024-03-06T15:00:00Z") };
    const { state } = stateAt(clock);
    const a = await sessionTape(state, "AAPL", DATE, clock.ms);
    expect(a.complete).toBe(true);
    expect(a.uptoMs).toBe(sessionBounds(DATE).closeMs);
    clock.ms += 60_000;
    expect(await sessionTape(state, "AAPL", DATE, clock.ms)).toBe(a);
  });
});

describe("resolvers", () => {
  const { state } = stateAt({ ms: Date.parse("2024-03-06T15:00:00Z") });
  const now = Date.parse("2024-03-06T15:00:00Z");

  it("tickers: upper-cased when known, 404 symbol_not_found when unknown, 400 when malformed", async () => {
    expect(await resolveFlowTicker(state, "aapl")).toBe("AAPL");
    await expect(resolveFlowTicker(state, "ZZZZQ")).rejects.toMatchObject({ status: 404, code: "symbol_not_found" });
    await expect(resolveFlowTicker(state, "A$B")).rejects.toMatchObject({ status: 400, code: "invalid_parameter" });
  });

  it("contracts: URL-safe and padded forms; bad symbols 400, unknown roots 404", async () => {
    expect(await resolveFlowContract(state, "SPXW__240315C05100000")).toMatchObject({ symbol: "SPXW__240315C05100000", ticker: "SPXW" });
    expect((await resolveFlowContract(state, "AAPL  240315P00180000")).symbol).toBe("AAPL__240315P00180000");
    await expect(resolveFlowContract(state, "AAPL__2403X")).rejects.toMatchObject({ status: 400, code: "invalid_parameter" });
    await expect(resolveFlowContract(state, "ZZZZQ__240315C00010000")).rejects.toMatchObject({ status: 404, code: "symbol_not_found" });
  });

  it("dates: default to the current trading date; weekends, future and pre-history dates are 400 naming the parameter", () => {
    expect(resolveFlowDate(undefined, now)).toBe("2024-03-06");
    // Before the open the current trading date is the previous session.
    expect(currentFlowDate(Date.parse("2024-03-06T13:00:00Z"))).toBe("2024-03-05");
    expect(resolveFlowDate("2024-03-05", now)).toBe("2024-03-05");
    for (const bad of ["2024-03-09", "2024-03-07", "2023-03-27", "2024-02-30"]) {
      expect(() => resolveFlowDate(bad, now, "date")).toThrow(/`date`/);
    }
  });
});
