// `oi=flow` on the live board routes (docs/api.md#flow-open-interest, docs/methodology.md#flow-open-interest):
// opt-in, the default unchanged; the heatmap over the simulated market changes once the session has
// prints and equals the exchange's on a day without any; levels and the stream take the same board;
// `meta.oi` says which open interest was used; a bad value is 400 naming the allowed ones; with a
// compute pool the tape is read there (FLOW_OI tasks), with the same answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatedMarket } from "../../../../lib/market";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { FLOW_OI, type ComputePool, type ComputeTask } from "../../../../server/daily-store/compute-pool";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { moduleStateOf, positioningModule } from "../../../../server/modules";
import { buildBoardState } from "../../../../server/modules/positioning/board-source";
import { FlowOiSessions } from "../../../../server/modules/positioning/flow-oi-sessions";
import { HeatmapQuerySchema } from "../../../../lib/api/positioning";
import { WorkerPoolUnavailable } from "../../../../server/workers/worker-pool";
import { etInstant } from "../../../../lib/time";
import { routeTools } from "../../../../server/mcp/route-tools";
import { heatmapRoute } from "../../../../server/modules/positioning/heatmap";
import { levelsRoute } from "../../../../server/modules/positioning/levels";
import { makeHarness } from "../../_harness";

// Tuesday 2024-03-05, 11:30 ET: two hours of SPY prints.
const NOW = etInstant("2024-03-05", "11:30");
const market = createSimulatedMarket({ seed: 42, clock: { now: () => NOW } });
const accounts = openAccountService({ dbPath: ":memory:" });
const { key } = accounts.createAccount({ plan: "top", credits: 1_000_000, dailyCapCredits: null, requestsPerMinute: 100_000 });
const core = { market, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock: { now: () => NOW }, requestTimeoutMs: 120_000 };
const app = createApp(core);

/** A compute pool whose "worker" is a FlowOiSessions over the same market: flow tasks answered, the rest refused. */
const tasks: ComputeTask[] = [];
const worker = new FlowOiSessions(market);
const pool: ComputePool = {
  run: async <T>(task: ComputeTask) => {
    tasks.push(task);
    if (task.kind === FLOW_OI) return (await worker.estimate(task.symbol, task.session, task.uptoMs)) as T;
    throw new WorkerPoolUnavailable("no workers in this test");
  },
  prestart: () => {},
  stats: () => ({ workers: 0, queued: 0, running: 0, completed: 0 }) as unknown as ReturnType<ComputePool["stats"]>,
  close: async () => {},
};
const pooledApp = createApp({ ...core, computePool: pool });

const getOn = async (a: typeof app, path: string) => {
  const res = await a.request(path, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
};
const get = (path: string) => getOn(app, path);

type Entry = { strikes: { strike: number; value: number }[] };
const values = (body: { data: { symbols: Entry[] } }) => body.data.symbols[0].strikes.map((s) => [s.strike, s.value]);

let exchange: { data: { symbols: Entry[] }; meta: Record<string, unknown> };
let flow: { data: { symbols: Entry[] }; meta: Record<string, unknown> };

beforeAll(async () => {
  const [a, b] = await Promise.all([get("/v1/heatmap?symbols=SPY"), get("/v1/heatmap?symbols=SPY&oi=flow")]);
  expect([a.status, b.status]).toEqual([200, 200]);
  exchange = a.body;
  flow = b.body;
}, 120_000);
afterAll(() => accounts.close());

describe("oi=flow on /v1/heatmap", () => {
  it("is opt-in: the default is the exchange's open interest, and meta says which was used", async () => {
    expect(exchange.meta.oi).toBe("exchange");
    expect(flow.meta.oi).toBe("flow");
    const explicit = await get("/v1/heatmap?symbols=SPY&oi=exchange");
    expect(explicit.body.data).toEqual(exchange.data);
    expect(explicit.body.meta.oi).toBe("exchange");
  });

  it("changes the board on a day with prints", () => {
    const a = values(exchange);
    const b = values(flow);
    expect(b.length).toBeGreaterThan(0);
    const changed = b.filter(([k, v]) => {
      const e = a.find(([k2]) => k2 === k);
      return !e || Math.abs(e[1] - v) > 1e-6 * Math.max(1, Math.abs(v));
    });
    expect(changed.length).toBeGreaterThan(0);
  });

  it("leaves the board as it is on a day without prints (meta still says flow)", async () => {
    const h = makeHarness(); // the fake market prints nothing
    const [a, b] = await Promise.all([(await h.get("/v1/heatmap?symbols=SPY")).json(), (await h.get("/v1/heatmap?symbols=SPY&oi=flow")).json()]);
    expect(b.data).toEqual(a.data);
    expect([a.meta.oi, b.meta.oi]).toEqual(["exchange", "flow"]);
    h.accounts.close();
  });

  it("answers a bad oi with 400 invalid_parameter naming the allowed values, on every route that takes it", async () => {
    for (const path of ["/v1/heatmap?symbols=SPY&oi=live", "/v1/gex/levels?symbols=SPY&oi=FLOW", "/v1/stream?symbols=SPY&oi=estimate"]) {
      const { status, body } = await get(path);
      expect([path, status, body.error.code]).toEqual([path, 400, "invalid_parameter"]);
      expect(body.error.message, path).toMatch(/oi.*exchange, flow/);
    }
  });

  it("with a compute pool the tape is read there, with the same answer", async () => {
    const pooled = await getOn(pooledApp, "/v1/heatmap?symbols=SPY&oi=flow");
    expect(pooled.body.data).toEqual(flow.data);
    const flowTasks = tasks.filter((t) => t.kind === FLOW_OI);
    // The board's minute and the velocity board's, five minutes earlier.
    expect(flowTasks.map((t) => t.kind === FLOW_OI && [t.symbol, t.session])).toEqual([
      ["SPY", "2024-03-05"],
      ["SPY", "2024-03-05"],
    ]);
  });
});

describe("oi=flow on /v1/gex/levels and the stream", () => {
  it("levels read the same board and say which open interest", async () => {
    const [a, b] = await Promise.all([get("/v1/gex/levels?symbols=SPY"), get("/v1/gex/levels?symbols=SPY&oi=flow")]);
    expect([a.body.meta.oi, b.body.meta.oi]).toEqual(["exchange", "flow"]);
    // Net exposure over the levels' board is the heatmap's net over the same window (same parameters).
    const net = (body: { data: { symbols: Entry[] } }) => body.data.symbols[0].strikes.reduce((s, x) => s + x.value, 0);
    expect(b.body.data.symbols[0].summary.netExposure).not.toBeCloseTo(a.body.data.symbols[0].summary.netExposure, 0);
    expect(Math.sign(b.body.data.symbols[0].summary.netExposure - a.body.data.symbols[0].summary.netExposure)).toBe(Math.sign(net(flow) - net(exchange)));
  });

  it("a stream with oi=flow carries the flow board", async () => {
    const state = moduleStateOf(app.services, positioningModule);
    const { symbols: _s, ...query } = HeatmapQuerySchema.parse({ symbols: "SPY", oi: "flow" });
    const s = await buildBoardState(state, "SPY", query, NOW);
    expect(s.kind).toBe("board");
    if (s.kind !== "board") return;
    const strikes = (s.snapshot as { strikes: { strike: number; value: number }[] }).strikes.map((x) => [x.strike, x.value]);
    expect(strikes).toEqual(values(flow));
  });
});

describe("oi in the OpenAPI document and the MCP tools", () => {
  it("is documented on the heatmap, levels and stream routes, and offered by their tools", async () => {
    const res = await app.request("/v1/openapi.json");
    const doc = await res.json();
    for (const path of ["/v1/heatmap", "/v1/gex/levels", "/v1/stream", "/v1/stream/ws"]) {
      const oi = doc.paths[path].get.parameters.find((p: { name: string }) => p.name === "oi");
      expect([path, oi?.schema]).toMatchObject([path, { enum: ["exchange", "flow"], default: "exchange" }]);
    }
    for (const tool of routeTools([heatmapRoute, levelsRoute])) {
      expect((tool.inputSchema.properties as Record<string, unknown>).oi, tool.name).toMatchObject({ enum: ["exchange", "flow"] });
    }
  });
});
