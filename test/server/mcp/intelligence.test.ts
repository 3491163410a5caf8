// Issue 16, item 4: the intelligence toolset (?toolset=intelligence): explain_levels and
// whats_changed, charged as the sum of the REST calls they stand for, free when they fail.
import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOW_MS } from "../_harness";
import { startMcpHarness, type McpHarness } from "./_mcp-harness";

describe("intelligence tools", () => {
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

  it("are listed only on ?toolset=intelligence, and the default list does not include them", async () => {
    const intel = await h.connect(undefined, `${h.mcpUrl}?toolset=intelligence`);
    expect((await intel.listTools()).tools.map((t) => t.name).sort()).toEqual(["explain_levels", "flow_context", "market_brief", "vol_context", "whats_changed"]);
    const plain = await h.connect();
    const names = (await plain.listTools()).tools.map((t) => t.name);
    expect(names).toContain("heat_levels");
    expect(names).not.toContain("explain_levels");
  });

  it("refuses an unknown toolset with 400 naming the parameter", async () => {
    const res = await fetch(`${h.mcpUrl}?toolset=everything`, {
      method: "POST",
      headers: { Authorization: `Bearer ${h.key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("invalid_parameter");
    expect(body.error.message).toContain("toolset");
  });

  it("explain_levels restates /v1/gex/levels, costs 1, and says so in meta", async () => {
    const client = await h.connect(undefined, `${h.mcpUrl}?toolset=intelligence`);
    const before = h.accounts.balance(h.accountId);
    const r = await client.callTool({ name: "explain_levels", arguments: { symbol: "SPY" } });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { summary: string; data: Record<string, any>; meta: Record<string, unknown> };
    expect(h.accounts.balance(h.accountId)).toBe(before - 1);
    expect(out.meta).toEqual({ cost: 1, creditsRemaining: before - 1, asOf: out.data.asOf, partial: false });
    const levels = (await rest("/v1/gex/levels?symbols=SPY")).data.symbols[0];
    expect(out.data.kingNode).toEqual(levels.kingNode);
    expect(out.data.netExposure).toBe(levels.summary.netExposure);
    expect(out.data.topLevels).toEqual(levels.levels.slice(0, 5));
    expect(out.summary).toContain(`King node ${levels.kingNode.strike}`);
  });

  it("whats_changed compares the replayed board with the live one, costs 6", async () => {
    const client = await h.connect(undefined, `${h.mcpUrl}?toolset=intelligence`);
    const since = new Date(NOW_MS - 2 * 3_600_000).toISOString();
    const before = h.accounts.balance(h.accountId);
    const r = await client.callTool({ name: "whats_changed", arguments: { symbol: "SPY", since } });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { data: Record<string, any>; meta: Record<string, unknown> };
    expect(out.meta.cost).toBe(6);
    expect(h.accounts.balance(h.accountId)).toBe(before - 6);
    // Independent: the two REST boards, the largest |change| computed here.
    const then = (await rest(`/v1/historical?symbols=SPY&at=${since}`)).data.symbols[0];
    const now = (await rest("/v1/heatmap?symbols=SPY")).data.symbols[0];
    const value = (board: { strikes: { strike: number; value: number }[] }, k: number) => board.strikes.find((s) => s.strike === k)?.value ?? 0;
    const strikes = [...new Set([...then.strikes, ...now.strikes].map((s: { strike: number }) => s.strike))];
    const biggest = strikes.reduce((best, k) => (Math.abs(value(now, k) - value(then, k)) > Math.abs(value(now, best) - value(then, best)) ? k : best));
    expect(out.data.largestChanges[0].strike).toBe(biggest);
    expect(out.data.spotChange).toBeCloseTo(now.spot - then.spot, 12);
  });

  it("a failing call is free (what succeeded is refunded), and unknown arguments are -32602", async () => {
    const client = await h.connect(undefined, `${h.mcpUrl}?toolset=intelligence`);
    const market = h.app.services.market as { chain: (s: string, t: number) => Promise<unknown> };
    const chain = market.chain.bind(market);
    // Boards of the past exist, the live one does not: the replay (5) succeeds, the heatmap fails.
    market.chain = async (s, t) => (t >= NOW_MS - 60_000 ? null : chain(s, t));
    try {
      const before = h.accounts.balance(h.accountId);
      const r = await client.callTool({ name: "whats_changed", arguments: { symbol: "SPY", since: "2024-03-06T14:00:00Z", metric: "vanna" } });
      expect(r.isError).toBe(true);
      expect((r._meta as { error: { code: string } }).error.code).toBe("no_data");
      // The replay was charged, then refunded with the failure: the tool call is free.
      expect(h.accounts.balance(h.accountId)).toBe(before);
      expect(r._meta?.creditsRemaining).toBe(before);
    } finally {
      market.chain = chain;
    }
    const error = await client.callTool({ name: "explain_levels", arguments: { symbol: "SPY", strikes: "5" } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
  });
});
