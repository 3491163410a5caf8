// Issue 34: the compact agent toolset (?toolset=agent), measured with the MCP SDK's own client:
// 12-15 tools, descriptions of one or two sentences, definitions within 8k tokens (the JSON text
// of tools/list over 4 characters a token), every default answer within 8 KB with its numbers
// rounded (docs/methodology.md#agent-toolset-results), `limit`/`fields` for more, and each call
// in the access log. Over the simulated market (seed 7) at 2024-03-06 10:00 ET, one ticker.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_RESULT_BYTES, roundForAgent, shapeForAgent } from "../../../server/mcp/agent-result";
import { builtinModules } from "../../../server/modules";
import { createVolModule } from "../../../server/modules/vol";
import { body, flowHarness, type FlowHarness } from "../modules/flow/_flow-harness";

let h: FlowHarness;
const clients: Client[] = [];

/** An SDK client whose HTTP goes to the app in process. */
async function connect(query: string): Promise<Client> {
  const client = new Client({ name: "agent-toolset-test", version: "1.0.0" });
  const fetchInProcess = (url: string | URL, init?: RequestInit) => {
    const u = new URL(url);
    return h.app.request(u.pathname + u.search, init);
  };
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost/mcp${query}`), {
    requestInit: { headers: { Authorization: `Bearer ${h.key}` } },
    fetch: fetchInProcess,
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const utf8 = (v: unknown) => Buffer.byteLength(typeof v === "string" ? v : JSON.stringify(v), "utf8");

/** Numbers in a JSON value that are not already at the agent rounding. */
function unrounded(value: unknown, path = ""): string[] {
  if (typeof value === "number") return roundForAgent(value) === value ? [] : [`${path}=${value}`];
  if (Array.isArray(value)) return value.flatMap((v, i) => unrounded(v, `${path}[${i}]`));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => unrounded(v, `${path}.${k}`));
  return [];
}

let agent: Client;

beforeAll(async () => {
  // The volatility module over 3 sessions of SPY history, not the default 252: the volatility
  // tools' answers have the same shape and size, and 252 session-close boards were most of this
  // file's CPU.
  const vol = createVolModule({ historySessions: 3, symbols: ["SPY"] });
  h = flowHarness({ credits: 100_000, universe: ["SPY"], modules: builtinModules.map((m) => (m.name === "volatility" ? vol : m)) });
  agent = await connect("?toolset=agent");
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

describe("agent toolset: definitions", () => {
  it("lists 12-15 tools in one or two sentences each, within 8k tokens (chars/4 of the tools/list JSON)", async () => {
    const { tools } = await agent.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(12);
    expect(tools.length).toBeLessThanOrEqual(15);
    for (const name of ["market_brief", "explain_levels", "whats_changed", "flow_context", "vol_context", "account_usage", "get_heatmap", "get_flow"]) {
      expect(tools.map((t) => t.name)).toContain(name);
    }
    // No whole-board bulk tool in the compact list (get_board stays on the default toolset).
    expect(tools.map((t) => t.name)).not.toContain("board");
    const long = tools.filter((t) => (t.description ?? "").split(/(?<=[.!?])\s+/).filter(Boolean).length > 2).map((t) => t.name);
    expect(long).toEqual([]);
    const tokens = JSON.stringify(tools).length / 4;
    expect(tokens).toBeLessThanOrEqual(8000);
  });

  it("leaves the default toolset's reference names and the intelligence toolset as they were", async () => {
    const plain = await connect("");
    const names = (await plain.listTools()).tools.map((t) => t.name);
    for (const name of ["heat_heatmap", "heat_levels", "board", "flow_feed", "tempest_term", "account_usage"]) expect(names).toContain(name);
    const intel = await connect("?toolset=intelligence");
    expect((await intel.listTools()).tools.map((t) => t.name).sort()).toEqual(["explain_levels", "flow_context", "market_brief", "vol_context", "whats_changed"]);
  });
});

describe("agent toolset: answers", () => {
  const calls: [string, Record<string, unknown>][] = [
    ["account_usage", {}],
    ["list_symbols", {}],
    ["get_heatmap", { symbol: "SPY" }],
    ["get_flow", { ticker: "SPY" }],
    ["get_sweeps", { ticker: "SPY" }],
    ["get_iv_term", { symbol: "SPY" }],
    ["get_expirations", { ticker: "SPY" }],
    ["get_option_chain", { ticker: "SPY", expiration: "2024-03-08" }],
    ["get_price_bars", { symbol: "SPY", resolution: "5" }],
    ["explain_levels", { symbol: "SPY" }],
  ];

  it("answers every data tool within 8 KB, numbers rounded, charged meta.cost", async () => {
    const failures: string[] = [];
    for (const [name, args] of calls) {
      const before = h.accounts.balance(h.accountId);
      const r = await agent.callTool({ name, arguments: args });
      const out = r.structuredContent as { summary: string; data: unknown; meta: { cost: number } } | undefined;
      if (r.isError || !out) {
        failures.push(`${name}: ${JSON.stringify(r.content)}`);
        continue;
      }
      const text = (r.content as { type: string; text: string }[])[0].text;
      if (utf8(out) > AGENT_RESULT_BYTES) failures.push(`${name}: structuredContent ${utf8(out)} B`);
      if (utf8(text) > AGENT_RESULT_BYTES) failures.push(`${name}: text ${utf8(text)} B`);
      const loose = unrounded(out.data);
      if (loose.length > 0) failures.push(`${name}: unrounded ${loose.slice(0, 3).join(", ")}`);
      if (h.accounts.balance(h.accountId) !== before - out.meta.cost)
        failures.push(`${name}: charged ${before - h.accounts.balance(h.accountId)}, meta.cost ${out.meta.cost}`);
    }
    expect(failures).toEqual([]);
  });

  it("get_heatmap is the REST board nearest spot, rounded", async () => {
    const rest = (await body(await h.get("/v1/heatmap?symbols=SPY&maxStrikes=20"))).data.symbols[0];
    const r = await agent.callTool({ name: "get_heatmap", arguments: { symbol: "SPY" } });
    const data = (r.structuredContent as { data: { spot: number; strikes: { strike: number; value: number; nodeType: string }[] } }).data;
    expect(data.spot).toBe(roundForAgent(rest.spot));
    expect(data.strikes.map((s) => [s.strike, s.value, s.nodeType])).toEqual(
      rest.strikes.map((s: { strike: number; value: number; nodeType: string }) => [s.strike, roundForAgent(s.value), s.nodeType]),
    );
  });

  it("gives more rows with limit and fewer fields with fields", async () => {
    const r = await agent.callTool({ name: "get_flow", arguments: { ticker: "SPY", limit: 60, fields: "timestamp,premium" } });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { data: { trades: Record<string, unknown>[]; tradeCount: number }; meta: Record<string, unknown> };
    expect(out.data.trades).toHaveLength(Math.min(60, out.data.tradeCount));
    expect(new Set(out.data.trades.flatMap((t) => Object.keys(t)))).toEqual(new Set(["timestamp", "premium"]));
  });

  it("refuses a limit out of range, naming it, free of charge", async () => {
    const before = h.accounts.balance(h.accountId);
    const r = await agent.callTool({ name: "get_flow", arguments: { ticker: "SPY", limit: 5000 } });
    expect(r.isError).toBe(true);
    const text = (r.content as { text: string }[])[0].text;
    expect(text).toContain("invalid_parameter");
    expect(text).toContain("`limit`");
    expect(text).toContain("1 to 500");
    expect(h.accounts.balance(h.accountId)).toBe(before);
  });

  it("writes one access line per tool-server request, naming the tool", async () => {
    const from = h.logs.length;
    await agent.callTool({ name: "account_usage", arguments: {} });
    const lines = h.logs.slice(from).filter((l) => l.msg === "request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      host: "mcp",
      method: "POST",
      route: "/mcp",
      status: 200,
      rpc: "tools/call",
      tool: "account_usage",
      toolset: "agent",
      accountId: h.accountId,
    });
    expect(typeof lines[0].requestId).toBe("string");
  });
});

describe("shapeForAgent", () => {
  it("cuts lists to the limit, then halves the largest until the answer fits 8 KB, and says so", () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ i, x: i / 3, label: "r".repeat(40) }));
    const shaped = shapeForAgent({ summary: "s.", data: { rows, other: [1, 2, 3] }, asOf: "t", partial: false }, { limit: 300 });
    const data = shaped.data as { rows: { i: number; x: number }[]; other: number[] };
    expect(utf8(data)).toBeLessThanOrEqual(AGENT_RESULT_BYTES);
    expect(data.other).toEqual([1, 2, 3]);
    // Halving keeps the first rows, in order.
    expect(data.rows.map((r) => r.i)).toEqual(data.rows.map((_, i) => i));
    expect(data.rows[1].x).toBe(0.333333);
    expect(shaped.truncated).toEqual([{ path: "rows", returned: data.rows.length, total: 400 }]);
    expect(shaped.summary).toContain("pass limit");
  });

  it("rounds to 6 significant digits and at least 2 decimals, integers untouched", () => {
    expect([0.183456789, 6053.499999, 1234567890.1234, -0.00123456789, 42, 1e-9].map(roundForAgent)).toEqual([0.183457, 6053.5, 1234567890.12, -0.00123457, 42, 1e-9]);
  });
});
