// The option tape's order stream (docs/methodology.md#option-prints): which contract, how many and
// when depend on the session's contract grid and the spot only, never on a board's quotes; a
// session's sizes without records equal the records' sizes exactly.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../bench/_mulberry32";
import type { ChainSnapshot } from "../../lib/market";
import { optionPrintProfile } from "../../lib/market/prints/print-profile";
import { optionPrintsForMinute } from "../../lib/market/prints/simulated-option-minute";
import { simulatedOptionSessionSizes } from "../../lib/market/prints/simulated-option-prints";
import { SimEngine } from "../../lib/market/simulated/engine";
import { buildSessionBoard, buildSessionGrid } from "../../lib/market/simulated/session-board";
import { simCalendar } from "../../lib/market/simulated/_calendar";
import { sessionBounds, tradingDaysBetween } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const SEED = 23;
const market = simulatedMarketAt(SEED, Date.parse("2026-11-01T00:00:00Z"));
const rand = mulberry32(0x0d3e);
const days = tradingDaysBetween("2023-06-01", "2026-09-30");
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
/** Quieter names keep a whole session of records fast. */
const quiet = market.universeSync().filter((s) => s.type !== "index" && !["SPY", "QQQ", "IWM", "TSLA", "NVDA", "AAPL", "AMZN"].includes(s.ticker));

const contractKey = (c: Pick<ChainSnapshot, "expirations" | "expIndex" | "strikes" | "strikeIndex" | "right">, row: number) =>
  `${c.expirations[c.expIndex[row]]}|${c.strikes[c.strikeIndex[row]]}|${c.right[row]}`;

describe("order stream", () => {
  for (let i = 0; i < 3; i++) {
    const ticker = pick(quiet).ticker;
    const day = pick(days);
    it(`${ticker} on ${day}: the session's sizes equal the records' per contract`, () => {
      const session = sessionBounds(day);
      const fromRecords = new Map<string, number>();
      return market.optionPrints(ticker, session.openMs, session.closeMs).then((prints) => {
        expect(prints.length).toBeGreaterThan(0);
        for (const p of prints) {
          const k = `${p.expiry}|${p.strike}|${p.right === "C" ? 1 : 0}`;
          fromRecords.set(k, (fromRecords.get(k) ?? 0) + p.size);
        }
        // The sizes path on the market's own quoted board at the open as the grid (no printGridSync).
        const fromSizes = new Map<string, number>();
        simulatedOptionSessionSizes(market, ticker, day, (grid, row, size) => {
          const k = contractKey(grid, row);
          fromSizes.set(k, (fromSizes.get(k) ?? 0) + size);
        });
        expect(fromSizes).toEqual(fromRecords);
      });
    });
  }

  it("gives the same contracts and sizes whatever the board's quotes", () => {
    for (let i = 0; i < 4; i++) {
      const ticker = pick(["SPXW", "SPY", pick(quiet).ticker]);
      const session = sessionBounds(pick(days));
      const minuteMs = session.openMs + 60_000 * Math.floor(rand() * 380);
      const chain = market.chainSync(ticker, minuteMs)!;
      const spotUsd = market.spotSync(chain.underlying, minuteMs)!;
      const root = chain.expiryRoot[0];
      // Quotes moved far from the board's: every bid zero, asks tripled, vols halved.
      const skewed: ChainSnapshot = { ...chain, bid: chain.bid.map(() => 0), ask: chain.ask.map((a) => 3 * a + 0.05), iv: chain.iv.map((v) => v / 2) };
      const input = {
        seed: SEED,
        root,
        minuteMs,
        session,
        spotUsd,
        sessionOpenUsd: spotUsd * 0.99,
        profile: optionPrintProfile(root, ticker === "SPXW" ? "index" : "etf"),
      };
      const a = optionPrintsForMinute({ ...input, chain, grid: chain });
      const b = optionPrintsForMinute({ ...input, chain: skewed, grid: chain });
      expect(b.map((p) => [p.symbol, p.size])).toEqual(a.map((p) => [p.symbol, p.size]));
      // ...while the prices do read the quotes.
      if (a.length > 0) expect(b.some((p, j) => p.price !== a[j].price || p.nbboBid !== a[j].nbboBid)).toBe(true);
    }
  });

  it("builds a session's grid with exactly its board's rows", () => {
    const engine = new SimEngine(SEED);
    const cal = simCalendar();
    for (const ticker of ["SPXW", "SPY", pick(quiet).ticker]) {
      const spec = engine.spec(ticker)!;
      const d = cal.dayIndex.get(pick(days))!;
      const grid = buildSessionGrid(engine, spec, d);
      const board = buildSessionBoard(engine, spec, d);
      expect(grid.n).toBe(board.n);
      expect(Array.from(grid.expStart)).toEqual(Array.from(board.expStart));
      expect(Array.from(grid.strike)).toEqual(Array.from(board.strike));
      expect(Array.from(grid.right)).toEqual(Array.from(board.right));
      expect(grid.expirations.map((e) => e.expiry)).toEqual(board.expirations.map((e) => e.expiry));
    }
  });
});
