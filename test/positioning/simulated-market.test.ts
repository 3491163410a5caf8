// The positioning functions on the simulated market's boards (lib/market): engines agree, the
// windowed board that daily statistics read gives the same grid as the full board, IVs re-solved
// from the simulated mids reproduce the grid.
import { describe, expect, it } from "vitest";
import { jsKernels, loadKernelsSync } from "../../lib/kernels";
import { exposureGrid, heatmapFrame, keyLevels, strikeWindow } from "../../lib/positioning";
import { etInstant } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2025-03-07T00:00:00Z"));
const t = etInstant("2025-03-05", "11:00");
const spxw = market.chainSync("SPXW", t)!;

describe("positioning on simulated boards", () => {
  it("SPXW: WASM and JS engines give the same frame; one king; key levels are consistent", () => {
    const wasm = loadKernelsSync();
    const a = exposureGrid(spxw, {}, wasm);
    const b = exposureGrid(spxw, {}, jsKernels);
    expect(a.meta.engine).toBe(wasm.name);
    expect(Array.from(a.strikes)).toEqual(Array.from(b.strikes));
    a.net.forEach((v, i) => {
      expect(Math.abs(v - b.net[i])).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b.net[i])));
    });
    const f = heatmapFrame(a);
    expect(f.strikes.filter((c) => c.nodeType === "king")).toHaveLength(1);
    expect(a.expirations[0]).toBe("2025-03-05"); // 0DTE is on the board before the close
    const lv = keyLevels(spxw, {}, wasm);
    expect(lv.kingNode!.strike).toBe(f.strikes.find((c) => c.nodeType === "king")!.strike);
    expect(lv.summary.netExposure).toBeCloseTo(a.total, 3);
  });

  it("the windowed board (chainWindowSync with strikeWindow) yields the same default grid as the full board", () => {
    const select = { maxExpirations: 5, strikeWindow: (k: Float64Array, s: number) => strikeWindow(k, s, 92) };
    for (const sym of ["SPXW", "SPY"]) {
      const full = exposureGrid(market.chainSync(sym, t)!, {}, jsKernels);
      const win = exposureGrid(market.chainWindowSync(sym, t, select)!, {}, jsKernels);
      expect(win.expirations).toEqual(full.expirations);
      expect(Array.from(win.strikes)).toEqual(Array.from(full.strikes));
      expect(Array.from(win.matrix)).toEqual(Array.from(full.matrix));
    }
  });

  it("IVs solved from the simulated two-sided bid/ask mids reproduce the grid closely", () => {
    // Quotes are on the tick grid (docs/methodology.md#tick-grid): an option worth less than one
    // tick has a zero bid and its mid (half a tick) carries no vol information, so those rows keep
    // the board's IV; every row with a bid has its IV solved from the mid.
    const spy = market.chainSync("SPY", t)!;
    const iv = new Float64Array(spy.iv.length).fill(Number.NaN);
    for (let i = 0; i < iv.length; i++) if (!(spy.bid[i] > 0)) iv[i] = spy.iv[i];
    const noIv = { ...spy, iv };
    const a = exposureGrid(spy, { maxStrikes: 30 }, jsKernels);
    const b = exposureGrid(noIv, { maxStrikes: 30 }, jsKernels);
    expect(b.meta.contracts.ivSolved).toBeGreaterThan(0.5 * b.meta.contracts.selected);
    const m = Math.max(...Array.from(a.net, Math.abs));
    a.net.forEach((v, i) => {
      expect(Math.abs(b.net[i] - v)).toBeLessThan(0.02 * m);
    });
  });
});
