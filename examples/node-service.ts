// A Node service over optionscope: `GET /levels/SPY` answers the symbol's King node, flip and
// walls from `/v1/gex/levels`, caching each symbol for a minute (the board changes once a minute).
//   OPTIONSCOPE_URL=http://localhost:8080 OPTIONSCOPE_KEY=... npx tsx examples/node-service.ts
//   curl http://localhost:3000/levels/SPY
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ServiceOptions {
  baseUrl: string;
  apiKey: string;
  port?: number;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** Start the service; resolves with its URL and a close function. */
export async function main(options: ServiceOptions): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const doFetch = options.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const cache = new Map<string, { untilMs: number; body: string }>();
  const server = createServer(async (req, res) => {
    const m = /^\/levels\/([A-Za-z0-9.]{1,16})$/.exec(req.url ?? "");
    if (!m) {
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":"try /levels/SPY"}');
      return;
    }
    const symbol = m[1].toUpperCase();
    const hit = cache.get(symbol);
    if (hit && hit.untilMs > Date.now()) {
      res.writeHead(200, { "Content-Type": "application/json", "X-Cache": "hit" }).end(hit.body);
      return;
    }
    const upstream = await doFetch(`${options.baseUrl}/v1/gex/levels?symbols=${symbol}`, { headers: { Authorization: `Bearer ${options.apiKey}` } });
    const json = (await upstream.json()) as { data?: { symbols: Record<string, unknown>[] }; error?: { code: string; message: string } };
    if (!upstream.ok || !json.data) {
      res.writeHead(upstream.status, { "Content-Type": "application/json" }).end(JSON.stringify(json.error ?? { code: "upstream" }));
      return;
    }
    const levels = json.data.symbols[0];
    const body = JSON.stringify({
      symbol,
      asOf: levels.asOf,
      spot: levels.spot,
      kingNode: levels.kingNode,
      flip: levels.flip,
      creditsRemaining: Number(upstream.headers.get("X-Credits-Remaining")),
    });
    cache.set(symbol, { untilMs: Date.now() + 60_000, body });
    res.writeHead(200, { "Content-Type": "application/json", "X-Cache": "miss" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 3000, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await main({ baseUrl: process.env.OPTIONSCOPE_URL ?? "http://localhost:8080", apiKey: process.env.OPTIONSCOPE_KEY ?? "" });
  console.log(`levels service on ${url}/levels/SPY`);
}
