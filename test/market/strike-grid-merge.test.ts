// The strike grids are built by merging sorted runs (no sort). Boards must stay byte-identical, so
// the merge is checked against the implementation it replaced (push every band's multiples, sort,
// drop repeats), kept here as the oracle, over many levels, vols, tenors and all three types.
import { mulberry32 } from "../../bench/_mulberry32";
import { describe, expect, it } from "vitest";
import { simCalendar } from "../../lib/market/simulated/_calendar";
import { SimEngine } from "../../lib/market/simulated/engine";
import { buildSessionGrid, strikeUnionFrom } from "../../lib/market/simulated/session-board";
import { expiryStrikes, sessionStrikes, strikeSteps } from "../../lib/market/simulated/strike-grid";

type StrikeType = "index" | "etf" | "stock";

// --- The oracle: strike-grid.ts as it was before the merge (sort-based). ---
function oracleBands(s: number) {
  return { fine: Math.min(0.1, 0.03 + 2 * s), mid: Math.min(0.3, 0.08 + 3 * s), down: Math.min(0.8, 0.15 + 5 * s), up: Math.min(0.6, 0.1 + 3.5 * s) };
}
function oracleAdd(out: number[], lo: number, hi: number, step: number, outward = false): void {
  const start = outward ? Math.floor(lo / step + 1e-9) : Math.ceil(lo / step - 1e-9);
  const end = outward ? Math.ceil(hi / step - 1e-9) : Math.floor(hi / step + 1e-9);
  for (let i = Math.max(start, 1); i <= end; i++) out.push(Math.round(i * step * 1000) / 1000);
}
function oracleSortedUnique(values: Float64Array): Float64Array {
  values.sort();
  let n = 0;
  for (let i = 0; i < values.length; i++) if (n === 0 || values[i] !== values[n - 1]) values[n++] = values[i];
  return values.slice(0, n);
}
function oracleExpiry(spot: number, vol: number, t: number, type: StrikeType): Float64Array {
  const [fine, mid, far] = strikeSteps(spot, type);
  const b = oracleBands(vol * Math.sqrt(Math.max(t, 1 / 365)));
  const all: number[] = [];
  oracleAdd(all, spot * (1 - b.fine), spot * (1 + b.fine), fine);
  oracleAdd(all, spot * (1 - b.mid), spot * (1 + Math.min(b.mid, b.up)), mid);
  oracleAdd(all, spot * (1 - b.down), spot * (1 + b.up), far, true);
  return oracleSortedUnique(Float64Array.from(all));
}
function oracleSession(prev: number, open: number, vol: number, t: number, type: StrikeType): Float64Array {
  return oracleSortedUnique(Float64Array.from([...oracleExpiry(prev, vol, t, type), ...oracleExpiry(open, vol, t, type)]));
}

/** Where two grids first differ ("" when identical): one expect per grid, not one per strike. */
function diff(got: Float64Array, want: Float64Array): string {
  if (got.length !== want.length) return `length ${got.length} != ${want.length}`;
  for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) return `at ${i}: ${got[i]} != ${want[i]}`;
  return "";
}

// Levels across every step threshold (and right at them), vols from calm to extreme, tenors from
// minutes to three years.
const LEVELS = [0.8, 4.99, 5, 7.3, 24.99, 25, 61.2, 99.99, 100, 187.4, 249.99, 250, 433, 499.99, 500, 742.1, 999.99, 1000, 2113, 5432.1, 7999.99, 8000, 21_345.6];
const VOLS = [0.05, 0.17, 0.35, 0.8, 1.6];
const TENORS = [60_000 / (365 * 86_400_000), 1 / 365, 2 / 365, 9 / 365, 30 / 365, 93 / 365, 184 / 365, 1, 3];
const TYPES: StrikeType[] = ["index", "etf", "stock"];

describe("strike grids by merge", () => {
  it("expiryStrikes equals the sorted oracle on a lattice of levels, vols, tenors and types", () => {
    for (const type of TYPES)
      for (const spot of LEVELS)
        for (const vol of VOLS)
          for (const t of TENORS) expect(diff(expiryStrikes(spot, vol, t, type), oracleExpiry(spot, vol, t, type)), `${type} ${spot} ${vol} ${t}`).toBe("");
  });

  it("sessionStrikes equals the sorted oracle for random closes, gaps across step thresholds, vols and tenors", () => {
    const u = mulberry32(7);
    for (let i = 0; i < 3000; i++) {
      const type = TYPES[i % 3];
      const prev = Math.exp(Math.log(0.5) + u() * Math.log(40_000));
      // Gaps up to +-40% (earnings, jumps), so the two grids often sit on different steps.
      const open = Math.round(prev * (0.6 + 0.8 * u()) * 100) / 100;
      const vol = 0.04 + 1.2 * u();
      const t = u() < 0.2 ? TENORS[i % TENORS.length] : u() * 3;
      expect(diff(sessionStrikes(prev, open, vol, t, type), oracleSession(prev, open, vol, t, type)), `${type} ${prev} ${open} ${vol} ${t}`).toBe("");
    }
  });

  it("boards' strike unions equal the sorted union of their rows (every root type, several sessions)", () => {
    const engine = new SimEngine(42);
    const cal = simCalendar();
    const days = ["2024-03-15", "2025-06-12", "2025-02-28"].map((day) => cal.dayIndex.get(day)!);
    for (const ticker of ["SPXW", "SPY", "AAPL", "NDXP", "XOP"]) {
      const spec = engine.spec(ticker)!;
      for (const d of days) {
        const grid = buildSessionGrid(engine, spec, d);
        for (const first of [0, 1, Math.floor(grid.expirations.length / 2)]) {
          const start = grid.expStart[first];
          const listed = new Float64Array((grid.n - start) >> 1);
          for (let i = 0; i < listed.length; i++) listed[i] = grid.strike[start + 2 * i];
          const { strikes, strikeIndex } = strikeUnionFrom(grid, first);
          expect(diff(strikes, oracleSortedUnique(listed)), `${ticker} ${d} ${first}`).toBe("");
          let misplaced = 0;
          for (let i = start; i < grid.n; i++) if (strikes[strikeIndex[i - start]] !== grid.strike[i]) misplaced++;
          expect(misplaced).toBe(0);
        }
      }
    }
  });
});
