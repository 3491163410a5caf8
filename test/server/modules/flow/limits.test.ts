// Plans, the flow module's in-flight cap and time limit, and the flow routes as MCP tools.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "../../mcp/_mcp-harness";
import { body, flowHarness } from "./_flow-harness";

describe("plan entitlements on flow routes", () => {
  it("the flow-only plan reads flow and gets 403 not_entitled on positioning", async () => {
    const h = flowHarness({ plan: "flow" });
    expect((await h.get("/v1/chain-ratio/AAPL?timeframe=5m")).status).toBe(200);
    const pos = await h.get("/v1/heatmap?symbols=SPY");
    expect(pos.status).toBe(403);
    expect((await body(pos)).error.code).toBe("not_entitled");
  });

  it("the index/ETF plan reads flow for its symbols only, uncharged when refused", async () => {
    const h = flowHarness({ plan: "index-etf" });
    expect((await h.get("/v1/chain-ratio/SPY?timeframe=5m")).status).toBe(200);
    const before = h.accounts.balance(h.accountId);
    for (const path of ["/v1/chain-ratio/AAPL", "/v1/flow/AAPL", "/v1/contract-ratio/AAPL__240315C00180000", "/v1/market/overview?tickers=SPY,AAPL"]) {
      const res = await h.get(path);
      expect(res.status, path).toBe(403);
      const b = await body(res);
      expect(b.error.code).toBe("NOT_ENTITLED");
      expect(b.error.symbols).toContain("AAPL");
    }
    expect(h.accounts.balance(h.accountId)).toBe(before);
  });
});

describe("in-flight cap and time limit", () => {
  it("a fifth concurrent flow query is 429 TOO_MANY_CONCURRENT_QUERIES with Retry-After, retry_after and docs_url, not charged", async () => {
    const h = flowHarness();
    let release!: () => void;
    h.gate.wait = new Promise<void>((r) => (release = r));
    const held = [1, 2, 3, 4].map((i) => h.get(`/v1/flow/AAPL?limit=${i}`));
    await new Promise((r) => setTimeout(r, 100));
    const before = h.accounts.balance(h.accountId);
    const res = await h.get("/v1/chain-ratio/AAPL");
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("1");
    const b = await body(res);
    expect(b.error).toMatchObject({ code: "TOO_MANY_CONCURRENT_QUERIES", retry_after: 1 });
    expect(typeof b.error.docs_url).toBe("string");
    expect(h.accounts.balance(h.accountId)).toBe(before);
    release();
    h.gate.wait = null;
    for (const r of await Promise.all(held)) expect(r.status).toBe(200);
    // Slots are free again.
    expect((await h.get("/v1/chain-ratio/AAPL")).status).toBe(200);
  });

  it("a query past the time limit is 504 GATEWAY_TIMEOUT and refunded", async () => {
    const h = flowHarness({ requestTimeoutMs: 150 });
    h.gate.wait = new Promise<void>(() => {});
    const before = h.accounts.balance(h.accountId);
    const res = await h.get("/v1/flow/AMZN");
    expect(res.status).toBe(504);
    expect((await body(res)).error.code).toBe("GATEWAY_TIMEOUT");
    expect(h.accounts.balance(h.accountId)).toBe(before);
    expect(res.headers.get("X-Credits-Remaining")).toBe(String(before));
  });
});

describe("flow routes as MCP tools", () => {
  let m: McpHarness;
  beforeAll(async () => {
    m = await startMcpHarness({ plan: "flow" });
  });
  afterAll(() => m.close());

  it("carry the reference tool names", async () => {
    const client = await m.connect();
    const names = new Set((await client.listTools()).tools.map((t) => t.name));
    for (const n of [
      "flow_feed",
      "top_contracts_daily",
      "contract_rvol",
      "underlying_rvol",
      "contract_ratio",
      "chain_ratio",
      "flow_search",
      "option_chain",
      "market_overview",
      "underlying_history",
      "sweeps",
      "flow_tide",
      "flow_momentum",
    ]) {
      expect(names.has(n), n).toBe(true);
    }
  });

  it("accept the reference argument names and answer the REST data; errors carry the flow code, free", async () => {
    const client = await m.connect();
    const r: any = await client.callTool({ name: "chain_ratio", arguments: { ticker: "AAPL", option_type: "put", timeframe: "1h" } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.data).toMatchObject({ ticker: "AAPL", timeframe: "1h", tradeCount: 0 });
    const feed: any = await client.callTool({ name: "flow_feed", arguments: { ticker: "AAPL", limit: 5, min_premium: 1000 } });
    expect(feed.structuredContent.data.trades).toEqual([]);
    const before = m.accounts.balance(m.accountId);
    const bad: any = await client.callTool({ name: "flow_feed", arguments: { ticker: "ZZZZQ" } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("SYMBOL_NOT_FOUND");
    expect(m.accounts.balance(m.accountId)).toBe(before);
  });
});
