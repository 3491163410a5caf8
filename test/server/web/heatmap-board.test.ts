// Issue 17 part 2: /v1/board (the heatmap page's one fetch) and the page's in-browser computation
// over it. The cells the page computes from the board must be the cells /v1/historical serves
// for the same minute (layout=matrix), for every control the page offers.
import { describe, expect, it } from "vitest";
import { loadKernels } from "../../../lib/kernels";
import { BOARD_COST } from "../../../server/modules/positioning";
import { chainFromBoard, computeView, DEFAULT_SETTINGS, SIGN_CONVENTIONS, type ViewSettings } from "../../../server/web/heatmap/app/model";
import { makeHarness, NOW_MS } from "../_harness";

const AT = new Date(NOW_MS - 37 * 60_000).toISOString();

/** |a - b| <= 1e-9 * max(|a|, |b|, 1): the agreement rule. */
function expectClose(actual: number[][], expected: number[][]) {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) => {
    expect(row.length).toBe(expected[i].length);
    row.forEach((v, j) => {
      const e = expected[i][j];
      expect(Math.abs(v - e)).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(v), Math.abs(e), 1));
    });
  });
}

describe("/v1/board", () => {
  it("charges 5 credits and serves a columnar board whose contracts all carry open interest", async () => {
    const h = makeHarness({ credits: 100 });
    const res = await h.get(`/v1/board?symbol=SPY&at=${AT}`);
    expect(res.status).toBe(200);
    expect(h.accounts.balance(h.accountId)).toBe(100 - BOARD_COST);
    const { data, meta } = await res.json();
    const n = data.contracts.oi.length;
    expect(n).toBeGreaterThan(0);
    expect(meta.contracts).toBe(n);
    for (const col of ["strikeIndex", "expIndex", "right", "bid", "ask", "iv"]) expect(data.contracts[col]).toHaveLength(n);
    expect(data.contracts.oi.every((v: number) => v > 0)).toBe(true);
    expect(data.strikes).toEqual([...data.strikes].sort((a: number, b: number) => a - b));
    expect(data.expirySettleMs).toHaveLength(data.expirations.length);
    expect(Date.parse(data.asOf)).toBeLessThanOrEqual(Date.parse(AT));
  });

  const cases: [string, Partial<ViewSettings>, string][] = [
    ["gamma, defaults of the page", {}, "maxStrikes=40&maxExpirations=5"],
    ["vanna, 2 expirations, all strikes", { metric: "vanna", maxExpirations: 2, maxStrikes: "all" }, "metric=vanna&maxStrikes=all&maxExpirations=2"],
    ["gamma, every expiration, 20 strikes", { maxExpirations: "all", maxStrikes: 20 }, "maxStrikes=20&maxExpirations=all"],
  ];
  for (const [name, settings, query] of cases) {
    it(`the page's cells from the board equal /v1/historical?layout=matrix (${name})`, async () => {
      const h = makeHarness({ credits: 100 });
      const board = (await (await h.get(`/v1/board?symbol=SPY&at=${AT}`)).json()).data;
      const api = (await (await h.get(`/v1/historical?symbols=SPY&at=${AT}&layout=matrix&${query}`)).json()).data.symbols[0];
      const view = computeView(chainFromBoard(board), { ...DEFAULT_SETTINGS, ...settings }, await loadKernels());
      expect(view.frame.asOf).toBe(api.asOf);
      expect(view.grid.expirations).toEqual(api.expirations);
      expect(Array.from(view.grid.strikes)).toEqual(api.strikes.map((s: { strike: number }) => s.strike));
      expect(view.frame.matrix!.length).toBeGreaterThan(0);
      expectClose(view.frame.matrix!, api.matrix);
      expect(view.frame.strikes.map((s) => s.nodeType)).toEqual(api.strikes.map((s: { nodeType: string }) => s.nodeType));
    });
  }

  it("the key levels the page computes equal /v1/gex/levels for the same board", async () => {
    const h = makeHarness({ credits: 100, nowMs: NOW_MS });
    const board = (await (await h.get(`/v1/board?symbol=SPY`)).json()).data;
    const lv = (await (await h.get(`/v1/gex/levels?symbols=SPY&maxStrikes=40&maxExpirations=5`)).json()).data.symbols[0];
    const view = computeView(chainFromBoard(board), DEFAULT_SETTINGS, await loadKernels());
    expect(view.levels.kingNode?.strike ?? null).toBe(lv.kingNode?.strike ?? null);
    expect(view.levels.summary.flip?.level ?? null).toBeCloseTo(lv.summary.flip?.level ?? null, 9);
    if (lv.summary.zeroGamma.level === null) expect(view.zeroGamma).toBeNull();
    else expect(view.zeroGamma).toBeCloseTo(lv.summary.zeroGamma.level, 6);
  });

  it("the sign conventions flip the sign of the calls' or puts' contribution", async () => {
    const h = makeHarness({ credits: 100 });
    const chain = chainFromBoard((await (await h.get(`/v1/board?symbol=SPY&at=${AT}`)).json()).data);
    const engine = await loadKernels();
    const std = computeView(chain, { ...DEFAULT_SETTINGS, maxStrikes: "all" }, engine);
    const inv = computeView(chain, { ...DEFAULT_SETTINGS, maxStrikes: "all", sign: "inverted" }, engine);
    expect(SIGN_CONVENTIONS.inverted.model).toEqual({ calls: -1, puts: 1 });
    // Inverting both signs negates every cell exactly (the window is the same: all strikes).
    expectClose(
      Array.from(inv.grid.net, (v) => [v]),
      Array.from(std.grid.net, (v) => [-v]),
    );
  });

  it("a what-if spot recomputes the grid at that spot (the board's spot replaced, nothing else)", async () => {
    const h = makeHarness({ credits: 100 });
    const board = (await (await h.get(`/v1/board?symbol=SPY&at=${AT}`)).json()).data;
    const engine = await loadKernels();
    const moved = computeView(chainFromBoard(board), { ...DEFAULT_SETTINGS, whatIfSpot: board.spot * 1.02 }, engine);
    const direct = computeView(chainFromBoard({ ...board, spot: board.spot * 1.02 }), DEFAULT_SETTINGS, engine);
    expect(moved.grid.spot).toBe(board.spot * 1.02);
    expectClose(moved.frame.matrix!, direct.frame.matrix!);
    // The spot profile is spot-free (centred on the board's spot); only its nearest crossing follows the what-if spot.
    const still = computeView(chainFromBoard(board), DEFAULT_SETTINGS, engine);
    expect(Array.from(moved.profile.totals)).toEqual(Array.from(still.profile.totals));
    expect(moved.profile.spots[100]).toBeCloseTo(board.spot, 9);
  });

  it("bad input is a 400 naming the parameter, unknown symbols 404, no replay plan 403; none charged", async () => {
    const h = makeHarness({ credits: 100 });
    const before = h.accounts.balance(h.accountId);
    const bad = await h.get(`/v1/board?symbol=SPY&at=yesterday`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain("at");
    expect((await h.get(`/v1/board?symbol=SPY&at=2023-01-03T15:00:00Z`)).status).toBe(400);
    expect((await h.get(`/v1/board?symbol=SPY&at=2099-01-03T15:00:00Z`)).status).toBe(400);
    const two = await h.get(`/v1/board?symbol=SPY,QQQ`);
    expect(two.status).toBe(400);
    expect((await two.json()).error.message).toContain("symbol");
    expect((await h.get(`/v1/board`)).status).toBe(400);
    const unknown = await h.get(`/v1/board?symbol=NOPE`);
    expect(unknown.status).toBe(404);
    expect(h.accounts.balance(h.accountId)).toBe(before);
    const flow = makeHarness({ credits: 100, plan: "flow" });
    expect((await flow.get(`/v1/board?symbol=SPY`)).status).toBe(403);
  });
});
