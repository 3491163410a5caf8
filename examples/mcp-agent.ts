// An MCP agent's configuration (mcp-agent.json: the compact agent toolset, the key from the
// environment) and what an agent does with it, through the MCP SDK's client: list the tools,
// ask for a symbol's key levels. Paste mcp-agent.json into your MCP client's configuration.
//   OPTIONSCOPE_KEY=... npx tsx examples/mcp-agent.ts SPY
import { readFileSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

interface ServerConfig {
  url: string;
  headers: Record<string, string>;
}

/** The optionscope entry of mcp-agent.json with `${VAR}`s filled from `env`. */
export function serverConfig(env: Record<string, string | undefined>): ServerConfig {
  const file = JSON.parse(readFileSync(new URL("./mcp-agent.json", import.meta.url), "utf8")) as { mcpServers: { optionscope: ServerConfig } };
  const fill = (s: string) => s.replace(/\$\{(\w+)\}/g, (_, name: string) => env[name] ?? "");
  const { url, headers } = file.mcpServers.optionscope;
  return { url: fill(url), headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, fill(v)])) };
}

export interface AgentOptions {
  env: Record<string, string | undefined>;
  symbol: string;
  /** Replaces the URL's origin (a server elsewhere than localhost:8080). */
  origin?: string;
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/** Connect, list the tools, call explain_levels; returns the tool names and the answer's summary. */
export async function main(options: AgentOptions): Promise<{ tools: string[]; summary: string; cost: number }> {
  const config = serverConfig(options.env);
  const url = new URL(config.url);
  if (options.origin) {
    const o = new URL(options.origin);
    url.protocol = o.protocol;
    url.host = o.host;
  }
  const client = new Client({ name: "optionscope-example-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers }, ...(options.fetch ? { fetch: options.fetch } : {}) }));
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const result = await client.callTool({ name: "explain_levels", arguments: { symbol: options.symbol } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
    const out = result.structuredContent as { summary: string; meta: { cost: number } };
    return { tools, summary: out.summary, cost: out.meta.cost };
  } finally {
    await client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await main({ env: process.env, symbol: process.argv[2] ?? "SPY" });
  console.log(`${r.tools.length} tools: ${r.tools.join(", ")}\n${r.summary} (${r.cost} credits)`);
}
