// Issue 13, item 10: tool-call responses carry the rate-limit headers and X-Credits-Remaining,
// as every REST response does (spec: "every response carries them").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRpc, startMcpHarness, type McpHarness } from "./_mcp-harness";

describe("MCP tool-call responses carry the REST headers", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness({ credits: 500 });
  });
  afterAll(() => h.close());

  const call = (name: string, args: Record<string, unknown>) =>
    rawRpc(h.mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } }), {
      Authorization: `Bearer ${h.key}`,
      "Mcp-Protocol-Version": "2025-06-18",
    });

  it("a charged call: X-RateLimit-* of the key and the balance after the debit", async () => {
    const r = await call("heat_heatmap", { symbols: "SPY" });
    expect(r.status).toBe(200);
    expect(r.json.result.isError).toBeFalsy();
    expect(r.headers.get("x-ratelimit-limit")).toBe("120");
    expect(Number(r.headers.get("x-ratelimit-remaining"))).toBeLessThan(120);
    expect(Number(r.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
    expect(r.headers.get("x-credits-remaining")).toBe(String(h.accounts.balance(h.accountId)));
    expect(r.json.result._meta.creditsRemaining).toBe(h.accounts.balance(h.accountId));
  });

  it("a request that calls no tool states the figures without counting itself", async () => {
    const list = () =>
      rawRpc(h.mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list", params: {} }), {
        Authorization: `Bearer ${h.key}`,
        "Mcp-Protocol-Version": "2025-06-18",
      });
    const first = await list();
    const second = await list();
    expect(first.headers.get("x-ratelimit-limit")).toBe("120");
    expect(second.headers.get("x-ratelimit-remaining")).toBe(first.headers.get("x-ratelimit-remaining"));
  });

  it("a failed call: the headers too, the balance unchanged", async () => {
    const before = h.accounts.balance(h.accountId);
    const r = await call("heat_heatmap", { symbols: "NOPE" });
    expect(r.json.result.isError).toBe(true);
    expect(r.headers.get("x-ratelimit-limit")).toBe("120");
    expect(r.headers.get("x-credits-remaining")).toBe(String(before));
  });
});
