// A loopback reverse proxy that adds fixed headers (an `Authorization: Bearer <key>`) to every
// request and forwards everything else unchanged, streaming both ways (SSE included). It exists
// because the MCP conformance CLI cannot set request headers, while the tool server refuses
// requests without credentials. `Host` and `Origin` pass through as the client sent them, so
// Host/Origin checks on the server see what the client sent, not the proxy's own address.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A listening proxy. */
export interface AuthProxy {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** Requests forwarded so far (a run that never reached the server shows 0). */
  readonly forwarded: number;
  close(): Promise<void>;
}

/** Per RFC 9110 7.6.1 these belong to one connection and are never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "proxy-authorization",
  "proxy-authenticate",
]);

function forwardable(headers: IncomingHttpHeaders, add: Record<string, string>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  for (const [name, value] of Object.entries(add)) out[name.toLowerCase()] = value;
  return out;
}

/**
 * Start a proxy on 127.0.0.1 (port 0) that forwards to `target` (an origin), adding `headers`.
 * @example
 * const proxy = await startAuthProxy("http://127.0.0.1:8080", { Authorization: `Bearer ${key}` });
 * await fetch(`${proxy.origin}/mcp`, { method: "POST", ... }); // arrives at :8080/mcp with the key
 * await proxy.close();
 */
export async function startAuthProxy(target: string, headers: Record<string, string>): Promise<AuthProxy> {
  const upstream = new URL(target);
  let forwarded = 0;
  const server = createServer((req, res) => {
    forwarded += 1;
    const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: forwardable(req.headers, headers) }, (upRes) => {
      const resHeaders = forwardable(upRes.headers, {});
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, resHeaders);
      // Send the head now: an SSE stream's first event may be a long way off.
      res.flushHeaders();
      upRes.pipe(res);
      upRes.on("error", () => res.destroy());
    });
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "Content-Type": "application/json" }).end('{"error":"bad_gateway"}');
      else res.destroy();
    });
    // The client went away (e.g. it cancelled an SSE read): drop the upstream exchange too.
    res.on("close", () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get forwarded() {
      return forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
