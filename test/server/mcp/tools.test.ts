// The tool server driven by the official MCP SDK client over real HTTP: the tool list comes from
// the route table, calls are charged exactly like REST (checked against the ledger), failures are
// free, and protocol errors use the JSON-RPC codes of the spec (Errors, "Tool server errors").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ProtocolError } from "@modelcontextprotocol/client";
import { allRoutes, defineRoute } from "../../../server/modules";
import { startMcpHarness, rawRpc, type McpHarness } from "./_mcp-harness";

/** Names the reference catalogue (tools.json) gives these endpoints. */
const REFERENCE_NAMES: Record<string, string> = {
  "/v1/heatmap": "heat_heatmap",
  "/v1/historical": "heat_historical_heatmap",
  "/v1/gex/levels": "heat_levels",
  "/v1/stats/daily": "heat_stats_daily",
  "/v1/symbols": "heat_symbols",
  "/v1/account": "account_usage",
};

const textOf = (r: { content?: unknown }) => (r.content as { type: string; text: string }[])[0]?.text ?? "";

async function expectProtocolError(p: Promise<unknown>, code: number): Promise<void> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  expect((error as ProtocolError).code).toBe(code);
}

describe("tool list (generated from the route table)", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness();
  });
  afterAll(() => h.close());

  it("has one tool per keyed endpoint, reference names where the endpoint exists there, and no API descriptions", async () => {
    const client = await h.connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    const keyed = allRoutes.filter((r) => r.auth !== "none" && !/\/stream(\/|$)/.test(r.path));
    expect(tools).toHaveLength(keyed.length);
    for (const [path, name] of Object.entries(REFERENCE_NAMES)) {
      if (allRoutes.some((r) => r.path === path && r.host !== "atlas")) expect(names).toContain(name);
    }
    expect(names.some((n) => /openapi/i.test(n))).toBe(false);
    for (const t of tools) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(t.description?.length).toBeGreaterThan(10);
      expect(t.inputSchema.type).toBe("object");
    }
  });

  it("takes symbol lists as one comma-separated string, as the REST API does", async () => {
    const client = await h.connect();
    const heatmap = (await client.listTools()).tools.find((t) => t.name === "heat_heatmap")!;
    const props = heatmap.inputSchema.properties as Record<string, { type?: string; enum?: string[] }>;
    expect(props.symbols!.type).toBe("string");
    expect(props.metric!.enum).toEqual(["gamma", "vanna", "delta", "charm", "vomma"]);
    expect(heatmap.inputSchema.required).toContain("symbols");
    expect((heatmap.inputSchema as { additionalProperties?: boolean }).additionalProperties).toBe(false);
    expect((heatmap.outputSchema as { required?: string[] }).required).toEqual(["data", "meta"]);
  });

  it("serves account_usage: balance and limits, free", async () => {
    const client = await h.connect();
    const before = h.accounts.balance(h.accountId);
    const r = await client.callTool({ name: "account_usage", arguments: {} });
    const data = (r.structuredContent as { data: { creditsBalance: number; limits: Record<string, number> } }).data;
    expect(data.creditsBalance).toBe(before);
    expect(data.limits.requestsPerMinute).toBe(120);
    expect(r._meta?.creditsRemaining).toBe(before);
    expect(h.accounts.balance(h.accountId)).toBe(before);
  });
});

describe("a new route becomes a tool without touching the MCP code", () => {
  it("lists and calls a route that only the route table knows", async () => {
    const echo = defineRoute({
      host: "base",
      module: "positioning",
      method: "GET",
      path: "/v1/test/echo",
      operationId: "getTestEcho",
      cost: 3,
      entitlement: "positioning",
      query: z.object({ word: z.string().meta({ description: "A word." }) }),
      data: z.object({ echoed: z.string() }),
      summary: "Echo a word",
      description: "Returns the word it was given.",
      tags: ["test"],
      handler: ({ query }) => ({ data: { echoed: query.word.toUpperCase() } }),
    });
    const h = await startMcpHarness({ extraRoutes: [echo] });
    try {
      const client = await h.connect();
      const tool = (await client.listTools()).tools.find((t) => t.name === "test_echo");
      expect(tool?.inputSchema.required).toEqual(["word"]);
      const before = h.accounts.balance(h.accountId);
      const r = await client.callTool({ name: "test_echo", arguments: { word: "gamma" } });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ data: { echoed: "GAMMA" } });
      expect(h.accounts.balance(h.accountId)).toBe(before - 3);
      expect(r._meta?.creditsRemaining).toBe(before - 3);
    } finally {
      await h.close();
    }
  });
});

describe("same key, same credits", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness({ credits: 500 });
  });
  afterAll(() => h.close());

  it("charges each call exactly the REST cost, with creditsRemaining equal to the ledger's balance after it", async () => {
    const client = await h.connect();
    const calls: [string, Record<string, unknown>, string, number][] = [
      ["heat_heatmap", { symbols: "SPY", maxStrikes: 5 }, "/v1/heatmap", 1],
      ["heat_historical_heatmap", { symbols: "SPY", at: "2024-03-05T15:00:00Z" }, "/v1/historical", 5],
      ["heat_stats_daily", { symbols: "SPY", from: "2024-03-05", to: "2024-03-05" }, "/v1/stats/daily", 5],
      ["heat_levels", { symbols: "SPY,SPXW" }, "/v1/gex/levels", -1],
    ];
    for (const [name, args, route, cost] of calls) {
      const lastId = h.accounts.ledger(h.accountId, { limit: 1 })[0]!.id;
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError, textOf(r)).toBeFalsy();
      const entries = h.accounts.ledger(h.accountId, { limit: 10 }).filter((e) => e.id > lastId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ kind: "debit", route });
      if (cost > 0) expect(entries[0]!.delta).toBe(-cost);
      expect(r._meta?.creditsRemaining).toBe(entries[0]!.balanceAfter);
      expect(entries[0]!.balanceAfter).toBe(h.accounts.balance(h.accountId));
    }
  });

  it("returns the REST data as structuredContent (same call, same clock)", async () => {
    const client = await h.connect();
    const r = await client.callTool({ name: "heat_stats_daily", arguments: { symbols: "SPY", from: "2024-03-04", to: "2024-03-05" } });
    const rest = await fetch(`${h.origin}/v1/stats/daily?symbols=SPY&from=2024-03-04&to=2024-03-05`, { headers: { Authorization: `Bearer ${h.key}` } });
    const body = (await rest.json()) as { data: unknown };
    expect((r.structuredContent as { data: unknown }).data).toEqual(body.data);
    expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
  });

  it("makes failed calls free: isError with the API code in the text, refund in the ledger", async () => {
    const client = await h.connect();
    const before = h.accounts.balance(h.accountId);
    const lastId = h.accounts.ledger(h.accountId, { limit: 1 })[0]!.id;
    const notFound = await client.callTool({ name: "heat_heatmap", arguments: { symbols: "NOSUCH" } });
    expect(notFound.isError).toBe(true);
    expect(textOf(notFound)).toMatch(/^symbol_not_found\b/);
    expect(notFound._meta?.creditsRemaining).toBe(before);
    const badValue = await client.callTool({ name: "heat_heatmap", arguments: { symbols: "SPY", metric: "theta" } });
    expect(badValue.isError).toBe(true);
    expect(textOf(badValue)).toMatch(/^invalid_parameter\b/);
    const tooMany = await client.callTool({ name: "heat_heatmap", arguments: { symbols: "A,B,C,D,E,F,G,H,I,J,K" } });
    expect(textOf(tooMany)).toMatch(/^invalid_parameter\b/);
    expect(h.accounts.balance(h.accountId)).toBe(before);
    const entries = h.accounts.ledger(h.accountId, { limit: 20 }).filter((e) => e.id > lastId);
    expect(entries.reduce((s, e) => s + e.delta, 0)).toBe(0);
  });

  it("says insufficient_credits with the balance when the account cannot pay", async () => {
    const h2 = await startMcpHarness({ credits: 2 });
    try {
      const client = await h2.connect();
      const r = await client.callTool({ name: "heat_historical_heatmap", arguments: { symbols: "SPY", at: "2024-03-05T15:00:00Z" } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^insufficient_credits\b/);
      expect(r._meta?.creditsRemaining).toBe(2);
      expect(h2.accounts.balance(h2.accountId)).toBe(2);
    } finally {
      await h2.close();
    }
  });

  it("keeps plan entitlements: a tier without replay gets not_entitled, free", async () => {
    const h2 = await startMcpHarness({ plan: "flow", credits: 100 });
    try {
      const client = await h2.connect();
      const r = await client.callTool({ name: "heat_heatmap", arguments: { symbols: "SPY" } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^not_entitled\b/);
      expect(h2.accounts.balance(h2.accountId)).toBe(100);
    } finally {
      await h2.close();
    }
  });
});

describe("protocol errors (JSON-RPC)", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness();
  });
  afterAll(() => h.close());

  it("-32602 for a list where a comma-separated string is required, an unknown argument, a missing one, an unknown tool; nothing charged", async () => {
    const client = await h.connect();
    const before = h.accounts.balance(h.accountId);
    await expectProtocolError(client.callTool({ name: "heat_heatmap", arguments: { symbols: ["SPY", "QQQ"] } }), -32602);
    await expectProtocolError(client.callTool({ name: "heat_heatmap", arguments: { symbols: "SPY", symbol: "QQQ" } }), -32602);
    await expectProtocolError(client.callTool({ name: "heat_heatmap", arguments: { symbols: 5 } }), -32602);
    await expectProtocolError(client.callTool({ name: "heat_heatmap", arguments: { metric: "gamma" } }), -32602);
    await expectProtocolError(client.callTool({ name: "no_such_tool", arguments: {} }), -32602);
    expect(h.accounts.balance(h.accountId)).toBe(before);
  });

  it("-32700 parse error, -32600 invalid request, -32601 unknown method", async () => {
    const auth = { Authorization: `Bearer ${h.key}` };
    const parse = await rawRpc(h.mcpUrl, "{not json", auth);
    expect(parse.json.error.code).toBe(-32700);
    const invalid = await rawRpc(h.mcpUrl, JSON.stringify({ jsonrpc: "1.0", id: 1, method: 5 }), auth);
    expect(invalid.json.error.code).toBe(-32600);
    const unknown = await rawRpc(h.mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/frobnicate", params: {} }), auth);
    expect(unknown.json.error.code).toBe(-32601);
    expect(unknown.json.id).toBe(7);
  });

  it("answers POST (the documented exception to GET-only); GET gives no stream (405)", async () => {
    const res = await fetch(h.mcpUrl, { headers: { Authorization: `Bearer ${h.key}`, Accept: "text/event-stream" } });
    expect(res.status).toBe(405);
  });
});

describe("credentials on the tool endpoint", () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness();
  });
  afterAll(() => h.close());

  it("401 with an OAuth body and a WWW-Authenticate header naming the protected-resource metadata (RFC 9728)", async () => {
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    for (const headers of [{}, { "X-API-Key": h.key }] as Record<string, string>[]) {
      const res = await rawRpc(h.mcpUrl, init, headers);
      expect(res.status).toBe(401);
      expect(res.json.error).toBe("unauthorized");
      expect(typeof res.json.error_description).toBe("string");
      const challenge = res.headers.get("www-authenticate")!;
      expect(challenge).toMatch(/^Bearer /);
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
      expect(metadataUrl).toBe(`${h.origin}/.well-known/oauth-protected-resource/mcp`);
      const prm = (await (await fetch(metadataUrl)).json()) as { resource: string; authorization_servers: string[] };
      expect(prm.resource).toBe(h.mcpUrl);
      expect(prm.authorization_servers).toEqual([h.origin]);
    }
  });

  it("accepts the bare key too, and refuses a revoked key with the REST code (403 forbidden)", async () => {
    const bare = await h.connect({ Authorization: h.key });
    expect((await bare.listTools()).tools.length).toBeGreaterThan(0);
    const { keyId, key } = h.accounts.createKey(h.accountId);
    h.accounts.revokeKey(keyId);
    const res = await rawRpc(h.mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }), { Authorization: `Bearer ${key}` });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
  });
});

describe("host-name mode", () => {
  it("serves the tool endpoint and its discovery documents on the configured tool host", async () => {
    const { makeHarness } = await import("../_harness");
    const h = makeHarness({ hosts: { mcp: "mcp.example.test" } });
    const post = (url: string, headers: Record<string, string>) =>
      h.app.fetch(
        new Request(url, {
          method: "POST",
          headers: { Host: "mcp.example.test", "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
        }),
      );
    const anonymous = await post("http://mcp.example.test/mcp", {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain('resource_metadata="http://mcp.example.test/.well-known/oauth-protected-resource/mcp"');
    const prm = await h.app.fetch(new Request("http://mcp.example.test/.well-known/oauth-protected-resource/mcp", { headers: { Host: "mcp.example.test" } }));
    expect(((await prm.json()) as { resource: string }).resource).toBe("http://mcp.example.test/mcp");
    const keyed = await post("http://mcp.example.test/mcp", { Authorization: `Bearer ${h.key}` });
    expect(keyed.status).toBe(200);
    expect(await keyed.text()).toContain("heat_heatmap");
  });
});
