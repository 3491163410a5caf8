// Issue 37: the example data folder's boards carry open interest as real boards do (calls and puts
// differ at every strike), so its net gamma heatmap is not zero: put-heavy strikes below 510 come
// out negative, call-heavy ones above it positive (docs/methodology.md sign model: calls +, puts -).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { jsKernels } from "../../lib/kernels";
import { fixedClock } from "../../lib/market/clock";
import { exposureGrid, heatmapFrame } from "../../lib/positioning";
import { loadFileMarket } from "../../server/data";

const DATA = fileURLToPath(new URL("../fixtures/data/", import.meta.url));

describe("example data open interest", () => {
  it("calls and puts differ at every strike of every snapshot", () => {
    const rows = readFileSync(`${DATA}chains.csv`, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));
    const oi = new Map<string, number>();
    for (const r of rows) oi.set(`${r[0]}|${r[4]}|${r[5]}|${r[6]}`, Number(r[11]));
    let pairs = 0;
    for (const [key, calls] of oi) {
      if (!key.endsWith("|C")) continue;
      expect(calls, key).not.toBe(oi.get(key.replace(/\|C$/, "|P")));
      pairs++;
    }
    expect(pairs).toBe(30); // 3 snapshots x 2 expirations x 5 strikes
  });

  it("gives a non-zero gamma heatmap, negative below 510 and positive above", async () => {
    const market = await loadFileMarket(DATA, { clock: fixedClock(Date.UTC(2024, 2, 15, 19, 0)) });
    const board = await market.chain("SPY", Date.UTC(2024, 2, 15, 16, 0));
    const frame = heatmapFrame(exposureGrid(board!, { metric: "gamma" }, jsKernels));
    expect(frame.strikes.map((s) => s.strike)).toEqual([508, 509, 510, 511, 512]);
    expect(frame.strikes.map((s) => Math.sign(s.value))).toEqual([-1, -1, -1, 1, 1]);
  });
});
