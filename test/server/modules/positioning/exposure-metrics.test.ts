// Issue 37: metric=delta|charm|vomma on the heatmap, replay, levels and stream routes (the same
// numbers as the library on the same board, units in meta), bad metrics answered 400 with the
// allowed values, and the two board-shape routes: /v1/gex/buckets (buckets add up to the board's
// total) and /v1/gex/profile (crossing zero at the levels' zero gamma), in this thread over the
// fake market and in the statistics workers over the simulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { etInstant } from "../../../../lib/time";
import { createSimulatedMarket, fixedClock } from "../../../../lib/market";
import { exposureGrid, keyLevels } from "../../../../lib/positioning";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { moduleStateOf, positioningModule } from "../../../../server/modules";
import { buildBoardState } from "../../../../server/modules/positioning/board-source";
import { computeBoardShape } from "../../../../server/modules/positioning/board-shapes";
import { boardQueryOf, streamQuery } from "../../../../server/modules/positioning/stream-query";
import { type Harness, makeHarness, NOW_MS } from "../../_harness";

type Cell = { strike: number; value: number; nodeType: string };
type Point = { spot: number; value: number };

let h: Harness;
const json = async (path: string, status = 200) => {
  const res = await h.get(path);
  const body = await res.json();
  expect(res.status, `${path}: ${JSON.stringify(body).slice(0, 300)}`).toBe(status);
  return body;
};

beforeAll(() => {
  h = makeHarness({ credits: 100_000 });
});

const UNITS = { delta: "usd_per_1pct", charm: "usd_per_day", vomma: "usd_vega_per_vol_point" } as const;

describe("metric=delta|charm|vomma on the board routes", () => {
  it.each(["delta", "charm", "vomma"] as const)("/v1/heatmap and /v1/historical with %s serve the library's grid of the same board, with its unit", async (metric) => {
    const chain = (await h.market.chain("SPY", NOW_MS))!;
    const grid = exposureGrid(chain, { metric }, h.app.services.kernels);
    const live = await json(`/v1/heatmap?symbols=SPY&metric=${metric}`);
    expect(live.meta).toMatchObject({ metric, unit: UNITS[metric], mode: "live" });
    expect(live.data.symbols[0].strikes.map((c: Cell) => [c.strike, c.value])).toEqual(Array.from(grid.strikes, (s, i) => [s, grid.net[i]]));
    expect(live.data.symbols[0].strikes.filter((c: Cell) => c.nodeType === "king")).toHaveLength(1);
    const replay = await json(`/v1/historical?symbols=SPY&metric=${metric}&at=${new Date(NOW_MS).toISOString()}`);
    expect(replay.meta).toMatchObject({ metric, unit: UNITS[metric], mode: "historical" });
    expect(replay.data.symbols[0].strikes.map((c: Cell) => c.value)).toEqual(Array.from(grid.net));
  });

  it("/v1/gex/levels: delta has walls and nodes but no cumulative flip; charm keeps the flip; zero gamma is gamma's for every metric", async () => {
    const gamma = (await json("/v1/gex/levels?symbols=SPY")).data.symbols[0];
    const delta = await json("/v1/gex/levels?symbols=SPY&metric=delta");
    expect(delta.meta).toMatchObject({ metric: "delta", unit: "usd_per_1pct" });
    const d = delta.data.symbols[0];
    expect(d.summary.flip).toBeNull();
    expect(d.summary.zeroCrossings).toEqual([]);
    expect(d.kingNode).not.toBeNull();
    expect(d.summary.positiveWall).not.toBeNull();
    expect(d.summary.zeroGamma).toEqual(gamma.summary.zeroGamma);
    const chain = (await h.market.chain("SPY", NOW_MS))!;
    const charm = (await json("/v1/gex/levels?symbols=SPY&metric=charm")).data.symbols[0];
    const lib = keyLevels(chain, { metric: "charm" }, h.app.services.kernels);
    expect(charm.summary.flip).toEqual(lib.summary.flip);
    expect(charm.summary.zeroCrossings).toEqual(lib.summary.zeroCrossings);
    expect(charm.levels).toEqual(lib.levels);
  });

  it("the stream's board for metric=charm is the heatmap's, and its velocity event names the metric", async () => {
    const state = moduleStateOf(h.app.services, positioningModule);
    const q = boardQueryOf(streamQuery.parse({ symbols: "SPY", metric: "charm" }));
    const board = await buildBoardState(state, "SPY", q, NOW_MS);
    expect(board.kind).toBe("board");
    if (board.kind !== "board") return;
    const heat = (await json("/v1/heatmap?symbols=SPY&metric=charm")).data.symbols[0];
    expect((board.snapshot.strikes as Cell[]).map((c) => c.value)).toEqual(heat.strikes.map((c: Cell) => c.value));
    expect((board.velocity as { metric?: string } | undefined)?.metric).toBe("charm");
  });

  it.each([
    ["/v1/heatmap?symbols=SPY", "gamma, vanna, delta, charm, vomma"],
    ["/v1/historical?symbols=SPY&at=2024-03-06T15:00:00Z", "gamma, vanna, delta, charm, vomma"],
    ["/v1/gex/levels?symbols=SPY", "gamma, vanna, delta, charm, vomma"],
    ["/v1/stream?symbols=SPY", "gamma, vanna, delta, charm, vomma"],
    ["/v1/gex/buckets?symbols=SPY", "gamma, vanna, delta, charm, vomma"],
    ["/v1/gex/profile?symbols=SPY", "gamma, vanna"],
  ])("%s&metric=theta is 400 invalid_parameter naming metric and the allowed values", async (path, allowed) => {
    const body = await json(`${path}&metric=theta`, 400);
    expect(body.error.code).toBe("invalid_parameter");
    expect(body.error.message).toContain("`metric`");
    expect(body.error.message).toContain(`must be one of ${allowed}.`);
  });
});

describe("/v1/gex/buckets", () => {
  it.each(["gamma", "charm"] as const)("%s: the buckets add up to the total, the whole board's sum of heatmap values", async (metric) => {
    const body = await json(`/v1/gex/buckets?symbols=SPY,SPXW&metric=${metric}`);
    expect(body.meta).toMatchObject({ metric, mode: "live" });
    for (const e of body.data.symbols) {
      expect(e.buckets.map((b: { bucket: string }) => b.bucket)).toEqual(["0dte", "1-7", "8-30", "31-90", "beyond"]);
      const sum = e.buckets.reduce((s: number, b: { value: number }) => s + b.value, 0);
      expect(Math.abs(sum - e.total)).toBeLessThanOrEqual(1e-12 * Math.max(...e.buckets.map((b: { value: number }) => Math.abs(b.value))));
      // The heatmap over every strike and expiration, empty strikes kept, sums to the same total.
      const heat = (await json(`/v1/heatmap?symbols=${e.symbol}&metric=${metric}&maxStrikes=all&maxExpirations=all&includeEmpty=true`)).data.symbols[0];
      expect(e.total).toBeCloseTo(
        heat.strikes.reduce((s: number, c: Cell) => s + c.value, 0),
        6,
      );
      expect(e.buckets.flatMap((b: { expirations: string[] }) => b.expirations)).toEqual(heat.expirations);
    }
    // The fake board lists today and the next two sessions: 0DTE, then 1-7 days.
    const spy = body.data.symbols[0];
    expect(spy.buckets[0].expirations).toEqual(["2024-03-06"]);
    expect(spy.buckets[1].expirations).toEqual(["2024-03-07", "2024-03-08"]);
  });

  it("an unknown expiration is 404 expiration_not_found, an unknown symbol 404 symbol_not_found", async () => {
    expect((await json("/v1/gex/buckets?symbols=SPY&expirations=2030-01-18", 404)).error.code).toBe("expiration_not_found");
    expect((await json("/v1/gex/buckets?symbols=NOPE", 404)).error.code).toBe("symbol_not_found");
  });
});

describe("/v1/gex/profile", () => {
  it("crosses zero at the zero-gamma level /v1/gex/levels reports", async () => {
    const body = await json("/v1/gex/profile?symbols=SPY,SPXW");
    expect(body.meta).toMatchObject({ metric: "gamma", unit: "usd_per_1pct" });
    const levels = (await json("/v1/gex/levels?symbols=SPY,SPXW")).data.symbols;
    let found = 0;
    for (const [i, e] of body.data.symbols.entries()) {
      const zg = levels[i].summary.zeroGamma;
      expect(e.points).toHaveLength(201);
      expect(e.zero.level).toBe(zg.level);
      if (zg.level === null) continue;
      found++;
      // Independently: the bracketing points' sign change, interpolated linearly, lands on the level.
      const pts: Point[] = e.points;
      const k = pts.findIndex((p, j) => j > 0 && pts[j - 1].spot <= zg.level && p.spot >= zg.level);
      const [a, b] = [pts[k - 1], pts[k]];
      expect(Math.sign(a.value) * Math.sign(b.value)).toBeLessThanOrEqual(0);
      expect(a.spot + ((b.spot - a.spot) * a.value) / (a.value - b.value)).toBeCloseTo(zg.level, 9);
    }
    expect(found).toBeGreaterThan(0);
  });

  it("takes its own grid; more than 2001 points is 400 naming stepPct", async () => {
    const e = (await json("/v1/gex/profile?symbols=SPY&metric=vanna&rangePct=2&stepPct=0.5")).data.symbols[0];
    expect(e.points).toHaveLength(9);
    expect(e.rangePct).toBe(2);
    const err = await json("/v1/gex/profile?symbols=SPY&rangePct=50&stepPct=0.01", 400);
    expect(err.error.code).toBe("invalid_parameter");
    expect(err.error.message).toContain("stepPct");
  });
});

describe("board shapes in the statistics workers (simulated market)", () => {
  const nowMs = etInstant("2024-03-15", "11:00");
  const clock = fixedClock(nowMs);
  const sim = createSimulatedMarket({ seed: 11, clock });
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { key } = accounts.createAccount({ plan: "top", credits: 10_000 });
  const app = createApp({ market: sim, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock, requestTimeoutMs: 60_000 });
  const state = moduleStateOf(app.services, positioningModule);
  afterAll(async () => {
    await state.shutdown(0);
    accounts.close();
  });

  it("answer what this thread computes from the same board, off the request loop", async () => {
    const get = async (path: string) => (await app.request(path, { headers: { Authorization: `Bearer ${key}` } })).json();
    const buckets = await get("/v1/gex/buckets?symbols=SPY");
    const curve = await get("/v1/gex/profile?symbols=SPY");
    const b = await computeBoardShape(sim, app.services.kernels, { kind: "buckets", symbol: "SPY", nowMs, options: { maxStrikes: "all", maxExpirations: "all" } });
    const c = await computeBoardShape(sim, app.services.kernels, { kind: "curve", symbol: "SPY", nowMs, options: {} });
    if (!b.ok || !c.ok || !b.shape || !c.shape) throw new Error("no board");
    expect(buckets.data.symbols[0].buckets).toEqual((b.shape as { buckets: unknown }).buckets);
    expect(curve.data.symbols[0].points).toEqual((c.shape as { points: unknown }).points);
    // Both ran in the workers.
    expect(state.statsPool()?.stats().completed).toBe(2);
  });
});
