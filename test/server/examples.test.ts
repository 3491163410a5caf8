// Issue 34: every script in examples/ runs, against one app over the simulated market (seed 7,
// 2024-03-06 10:00 ET, universe SPY); each example's HTTP goes to the app in process through the
// `fetch` it accepts, and the node service listens on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main as browserHeatmap } from "../../examples/browser-heatmap";
import { main as mcpAgent } from "../../examples/mcp-agent";
import { main as nodeService } from "../../examples/node-service";
import { main as tradingView } from "../../examples/tradingview-datafeed";
import { main as paging } from "../../examples/typed-client-paging";
import { body, flowHarness, NOW_MS, type FlowHarness } from "./modules/flow/_flow-harness";

let h: FlowHarness;
const ORIGIN = "http://optionscope.test";
/** Absolute URLs of ORIGIN answered by the app in process. */
const inProcess = (url: string | URL, init?: RequestInit) => {
  const u = new URL(url);
  return h.app.request(u.pathname + u.search, init);
};

beforeAll(() => {
  h = flowHarness({ credits: 100_000, universe: ["SPY"] });
});

describe("examples/", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of closers) await c();
  });

  it("node-service.ts answers /levels/SPY from /v1/gex/levels, then from its cache", async () => {
    const service = await nodeService({ baseUrl: ORIGIN, apiKey: h.key, port: 0, fetch: inProcess });
    closers.push(service.close);
    const first = await fetch(`${service.url}/levels/SPY`);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("miss");
    const levels = (await body(await h.get("/v1/gex/levels?symbols=SPY"))).data.symbols[0];
    const out = await first.json();
    expect(out).toMatchObject({ symbol: "SPY", spot: levels.spot, kingNode: levels.kingNode });
    expect((await fetch(`${service.url}/levels/SPY`)).headers.get("x-cache")).toBe("hit");
  });

  it("browser-heatmap.ts computes the server's gamma per strike from the raw board", async () => {
    const { heatmap } = await browserHeatmap({ baseUrl: ORIGIN, apiKey: h.key, symbol: "SPY", fetch: inProcess as typeof fetch });
    const server = (await body(await h.get("/v1/heatmap?symbols=SPY&maxStrikes=all&maxExpirations=all"))).data.symbols[0];
    const off: string[] = [];
    for (const s of server.strikes as { strike: number; value: number }[]) {
      const mine = heatmap.net[heatmap.strikes.indexOf(s.strike)];
      if (!(Math.abs(mine - s.value) <= 1e-6 * Math.max(1, Math.abs(s.value)))) off.push(`${s.strike}: ${mine} vs ${s.value}`);
    }
    expect(off).toEqual([]);
    expect(server.strikes.length).toBeGreaterThan(10);
  });

  it("mcp-agent.json connects an MCP client to the agent toolset, mcp-agent.ts asks for levels", async () => {
    const r = await mcpAgent({ env: { OPTIONSCOPE_KEY: h.key }, symbol: "SPY", origin: ORIGIN, fetch: inProcess });
    expect(r.tools).toContain("explain_levels");
    expect(r.tools.length).toBeLessThanOrEqual(15);
    expect(r.summary).toContain("SPY");
    expect(r.cost).toBe(1);
  });

  it("tradingview-datafeed.ts loads config, the symbol and bars with the key in Authorization", async () => {
    const to = NOW_MS / 1000;
    const r = await tradingView({ atlasUrl: `${ORIGIN}/atlas`, apiKey: h.key, fetch: inProcess, symbol: "SPY", resolution: "60", to, countBack: 5 });
    expect(r.config).toHaveProperty("supported_resolutions");
    expect(r.info.ticker).toBe("SPY");
    const history = await (await h.get(`/atlas/v1/history?symbol=SPY&resolution=60&from=${to - 30 * 86400}&to=${to}&countback=5`)).json();
    expect(r.bars.map((b) => b.time)).toEqual(history.t.map((t: number) => t * 1000));
    expect(r.bars.map((b) => b.close)).toEqual(history.c);
  });

  it("typed-client-paging.ts reads consecutive pages without repeating a trade", async () => {
    const r = await paging({ baseUrl: ORIGIN, apiKey: h.key, ticker: "SPY", limit: 50, maxPages: 3, fetch: inProcess });
    expect(r.pages).toBe(3);
    expect(r.trades).toHaveLength(150);
    expect(new Set(r.trades.map((t) => t.tradeId)).size).toBe(150);
    expect(r.creditsRemaining).toBe(h.accounts.balance(h.accountId));
  });
});
