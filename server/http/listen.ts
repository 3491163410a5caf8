import { plugin as wsPlugin } from "crossws/server";
import { serve } from "h3";
import type { IncomingMessage, Server as NodeServer, ServerResponse } from "node:http";
import type { OptionscopeApp } from "../app";
import { handleClientError, handleConnect, rejectWithoutHost } from "./client-error";
import { closeWhenBodyUnread } from "./unread-body";

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
  /**
   * How often Node looks for connections past `headersTimeoutMs` / `requestTimeoutMs`, ms. Node's
   * default (30 s) lets a 10 s headers timeout fire anywhere in 10-40 s; the default here is a
   * twentieth of the shorter timeout, between 50 and 500 ms, so it fires within 5% of its value.
   */
  connectionsCheckingIntervalMs?: number;
  /**
   * Backstop on any request body read through srvx, bytes; default 8 MiB. Each reader has its own
   * smaller limit and answers 413 (OAuth 16 KiB, MCP 4 MiB); this only bounds a reader that forgot.
   */
  maxRequestBodyBytes?: number;
}

/** Default `maxRequestBodyBytes`: above every endpoint's own limit. */
const MAX_REQUEST_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The checking interval for a pair of timeouts (see `ListenOptions.connectionsCheckingIntervalMs`).
 * @example checkingIntervalMs(10_000, 30_000) // 500
 */
export function checkingIntervalMs(headersTimeoutMs: number, requestTimeoutMs: number): number {
  const shortest = Math.min(...[headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0));
  return Number.isFinite(shortest) ? Math.min(500, Math.max(50, Math.floor(shortest / 20))) : 500;
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
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const server = serve(app.h3, {
    port: options.port,
    hostname: options.hostname ?? "127.0.0.1",
    silent: true,
    gracefulShutdown: false,
    maxRequestBodySize: options.maxRequestBodyBytes ?? MAX_REQUEST_BODY_BYTES,
    // WebSocket upgrades (the /v1/stream/ws route) resolve their hooks through the app's fetch.
    plugins: [wsPlugin({})],
    node: {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? checkingIntervalMs(headersTimeout, requestTimeout),
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      maxHeaderSize: options.maxHeaderSize ?? 16_384,
      // Checked in `rejectWithoutHost` instead: Node's own check answers a bare 400.
      requireHostHeader: false,
    },
  });
  const node = server.node!.server as NodeServer;
  node.on("clientError", handleClientError);
  node.on("connect", handleConnect);
  // The Host check and the unread-body close wrap the app's listener(s), which stay as they are.
  const appListeners = node.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  node.removeAllListeners("request");
  // Requests received and not yet answered in full (open streams included): a metrics gauge.
  let inFlight = 0;
  const unregister = app.services.metrics?.gauge(
    "optionscope_http_requests_in_flight",
    "HTTP requests received and not yet answered in full (open streams included).",
    () => inFlight,
  );
  node.on("request", (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    res.once("close", () => inFlight--);
    if (rejectWithoutHost(req, res)) return;
    closeWhenBodyUnread(req, res);
    for (const listener of appListeners) listener.call(node, req, res);
  });
  await server.ready();
  const address = node.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.hostname ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    node,
    close: async (force = false) => {
      unregister?.();
      node.closeIdleConnections?.();
      await server.close(force);
    },
  };
}
