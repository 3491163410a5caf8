import { plugin as wsPlugin } from "crossws/server";
import { serve } from "h3";
import type { Server as NodeServer } from "node:http";
import type { OptionscopeApp } from "../app";
import { handleClientError } from "./client-error";

/** Socket-level limits against slow or oversized clients (see docs/api.md#http). */
export interface ListenOptions {
  port: number;
  hostname?: string;
  /** Time to receive the complete request headers, ms (Node `headersTimeout`); default 10000. */
  headersTimeoutMs?: number;
  /** Time to receive the whole request, ms (Node `requestTimeout`); default 30000. */
  requestTimeoutMs?: number;
  /** Idle keep-alive, ms; default 5000. */
  keepAliveTimeoutMs?: number;
  /** Largest request header block, bytes (larger -> 431); default 16384. */
  maxHeaderSize?: number;
}

/** A listening server. */
export interface Listening {
  url: string;
  port: number;
  node: NodeServer;
  /** Stop accepting, finish in-flight requests (closing idle keep-alives), then resolve. */
  close(force?: boolean): Promise<void>;
}

/**
 * Listen on a port with h3's `serve` (srvx), Node timeouts set and every client error enveloped.
 * @example const s = await listen(app, { port: 0 }); await fetch(`${s.url}/v1/openapi.json`); await s.close();
 */
export async function listen(app: OptionscopeApp, options: ListenOptions): Promise<Listening> {
  const server = serve(app.h3, {
    port: options.port,
    hostname: options.hostname ?? "127.0.0.1",
    silent: true,
    gracefulShutdown: false,
    // WebSocket upgrades (the /v1/stream/ws route) resolve their hooks through the app's fetch.
    plugins: [wsPlugin({})],
    node: {
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      maxHeaderSize: options.maxHeaderSize ?? 16_384,
    },
  });
  const node = server.node!.server as NodeServer;
  node.on("clientError", handleClientError);
  await server.ready();
  const address = node.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.hostname ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    node,
    close: async (force = false) => {
      node.closeIdleConnections?.();
      await server.close(force);
    },
  };
}
