// The volatility tools: every /v1/vol route under its reference tool name with the reference
// argument names, charged as its route; and vol_context (intelligence toolset), 2 credits, built
// from /v1/vol/iv and /v1/vol/cones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./_mcp-harness";

describe("volatility tools", () => {
  let h: McpHarness;
  const rest = async (path: string) => {
    const res = await fetch(`${h.origin}${path}`, { headers: { Authorization: `Bearer ${h.key}` } });
    expect(res.status).toBe(200);
    return res.json();
  };
  beforeAll(async () => {
    h = await startMcpHarness({ credits: 1000 });
  });
  afterAll(() => h.close());

  it("lists the reference tempest_* names with their argument names", async () => {
    const client = await h.connect();
    const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    for (const name of [
      "tempest_iv",
      "tempest_term",
      "tempest_cones",
      "tempest_sigma",
      "tempest_surface",
      "tempest_tilt",
      "tempest_events",
      "tempest_snapshot",
      "tempest_history",
    ]) {
      expect(tools.get(name)?.inputSchema.required).toContain("symbols");
    }
    for (const name of ["tempest_market", "tempest_status", "tempest_symbols"]) expect(tools.has(name)).toBe(true);
    const screener = tools.get("tempest_screener")!.inputSchema.properties as Record<string, unknown>;
    for (const arg of ["curve", "limit", "offset", "order", "sector", "sort", "min_iv_rank", "max_svx30"]) expect(screener).toHaveProperty(arg);
    const history = tools.get("tempest_history")!.inputSchema.properties as Record<string, unknown>;
    for (const arg of ["symbols", "fields", "from", "to"]) expect(history).toHaveProperty(arg);
  });

  it("tempest_sigma is charged as its route and returns the REST data", async () => {
    const client = await h.connect();
    const before = h.accounts.balance(h.accountId);
    const r = await client.callTool({ name: "tempest_sigma", arguments: { symbols: "SPY" } });
    expect(r.isError).toBeFalsy();
    expect(h.accounts.balance(h.accountId)).toBe(before - 1);
    const out = r.structuredContent as { data: any };
    expect(out.data).toEqual((await rest("/v1/vol/sigma?symbols=SPY")).data);
  });

  it("vol_context restates /v1/vol/iv and /v1/vol/cones, costs 2", async () => {
    const client = await h.connect(undefined, `${h.mcpUrl}?toolset=intelligence`);
    const before = h.accounts.balance(h.accountId);
    const r = await client.callTool({ name: "vol_context", arguments: { symbol: "SPY" } });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { summary: string; data: Record<string, any>; meta: Record<string, unknown> };
    expect(out.meta).toEqual({ cost: 2, creditsRemaining: before - 2, asOf: out.data.asOf, partial: false });
    expect(h.accounts.balance(h.accountId)).toBe(before - 2);
    const iv = (await rest("/v1/vol/iv?symbols=SPY")).data.symbols[0].iv;
    const cones = (await rest("/v1/vol/cones?symbols=SPY")).data.symbols[0].cones;
    expect(out.data.svx30).toBe(iv.svx30);
    expect(out.data.iv_rank).toBe(iv.iv_rank);
    expect(out.data.curve).toBe(iv.curve);
    expect(out.data.horizons.map((x: any) => x.name)).toEqual(cones.horizons.filter((x: any) => x !== null).map((x: any) => x.name));
    expect(out.summary).toContain("SPY");
  });

  it("vol_context on a plan without volatility data is a free tool error carrying not_entitled", async () => {
    const other = await startMcpHarness({ credits: 1000, plan: "index-etf" });
    try {
      const client = await other.connect(undefined, `${other.mcpUrl}?toolset=intelligence`);
      const r = await client.callTool({ name: "vol_context", arguments: { symbol: "SPY" } });
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.content)).toContain("not_entitled");
      expect(other.accounts.balance(other.accountId)).toBe(1000);
    } finally {
      await other.close();
    }
  });
});
