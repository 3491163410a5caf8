// The market-wide flow screens as MCP tools: the reference's tool names are listed, a call is
// charged the REST cost, and a bad argument is an uncharged tool error naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./_mcp-harness";

const TOOLS = ["top_underlyings_daily", "top_underlyings_weekly", "top_contracts_weekly", "unusual_volume", "unusual_oi", "sector_flow", "market_breadth", "market_tide"];

describe("market-wide flow tools", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness({ credits: 1000 });
  });
  afterAll(() => h.close());

  it("lists every tool under the reference's name", async () => {
    const names = (await (await h.connect()).listTools()).tools.map((t) => t.name);
    for (const t of TOOLS) expect(names, t).toContain(t);
  });

  it("charges the REST cost: sector_flow 3, top_contracts_weekly 1", async () => {
    const client = await h.connect();
    let before = h.accounts.balance(h.accountId);
    const sector = await client.callTool({ name: "sector_flow", arguments: { sector: "Technology", top_n: 5 } });
    expect(sector.isError).toBeFalsy();
    expect((sector.structuredContent as any).data).toMatchObject({ sector: "Information Technology", etf: "XLK" });
    expect(h.accounts.balance(h.accountId)).toBe(before - 3);
    before = h.accounts.balance(h.accountId);
    const weekly = await client.callTool({ name: "top_contracts_weekly", arguments: { ticker: "SPY", limit: 5 } });
    expect(weekly.isError, JSON.stringify(weekly.content)).toBeFalsy();
    expect((weekly.structuredContent as any).data).toEqual([]); // the fake market prints nothing
    expect(h.accounts.balance(h.accountId)).toBe(before - 1);
  });

  it("a bad argument or unknown sector is an error naming it, uncharged", async () => {
    const client = await h.connect();
    const before = h.accounts.balance(h.accountId);
    const bad = await client.callTool({ name: "unusual_volume", arguments: { avg_period: "1d" } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("avg_period");
    const unknown = await client.callTool({ name: "sector_flow", arguments: { sector: "Crypto" } });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain("sector");
    expect(h.accounts.balance(h.accountId)).toBe(before);
  });

  it("aggregate_score refuses a prototype name among its timeframes (once served free at a NaN cost)", async () => {
    const client = await h.connect();
    const before = h.accounts.balance(h.accountId);
    for (const timeframes of ["1d,4h,1h,constructor", "__proto__", "1d,toString"]) {
      const r = await client.callTool({ name: "aggregate_score", arguments: { ticker: "SPY", timeframes } });
      expect(r.isError, timeframes).toBe(true);
      expect(JSON.stringify(r.content), timeframes).toContain("timeframes");
    }
    expect(h.accounts.balance(h.accountId)).toBe(before);
  });
});
