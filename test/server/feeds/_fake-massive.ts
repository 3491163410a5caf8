// A loopback fake of Massive (formerly Polygon.io) speaking its documented wire format: the option
// chain snapshot (`GET /v3/snapshot/options/{underlyingAsset}`, paged by `next_url`, `apiKey`
// checked, 429 with Retry-After on demand), minute aggregates over REST, and the `options`,
// `stocks` and `indices` WebSocket clusters (connected -> auth -> subscribe -> events).
// Field names follow the vendor's fixtures (docs/data.md#massive-live-feed).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import nodeAdapter from "crossws/adapters/node";

/** One contract of the fixture, as the snapshot lists it. */
export interface FakeContract {
  ticker: string;
  type: "call" | "put";
  expiration: string;
  strike: number;
  iv?: number;
  oi: number;
  bid?: number;
  ask?: number;
  volume?: number;
  close?: number;
}

/** What a test can do to the fake. */
export interface FakeMassive {
  restUrl: string;
  wsUrl: string;
  /** Contracts per vendor underlying (`SPY`, `I:SPX`); replace to change the next snapshot. */
  chains: Map<string, FakeContract[]>;
  /** Underlying price per vendor underlying. */
  prices: Map<string, number>;
  /** Minute aggregates REST answers (per vendor ticker). */
  aggs: Map<string, Array<{ t: number; o: number; h: number; l: number; c: number; v: number }>>;
  /** The next `n` REST requests answer 429 with `Retry-After: retryAfterS`. */
  rateLimitNext(n: number, retryAfterS?: number): void;
  /** Every REST request waits this long first (a slow feed). */
  delayMs: number;
  /** REST answers 503 and new sockets are refused while true (an outage). */
  outage: boolean;
  /** REST requests received, by path (query removed). */
  requests: string[];
  /** Subscriptions received per cluster. */
  subscriptions: Map<string, Set<string>>;
  /** Send events (a JSON array) to every authenticated peer of a cluster. */
  send(cluster: string, events: unknown[]): void;
  /** Send a raw frame (a malformed message). */
  sendRaw(cluster: string, text: string): void;
  /** Close every socket (the client reconnects). */
  dropSockets(): void;
  /** Authenticated peers per cluster now. */
  peers(cluster: string): number;
  close(): Promise<void>;
}

const PAGE = 250;

function snapshotResult(c: FakeContract, underlying: string, price: number, updatedNs: number) {
  return {
    break_even_price: c.type === "call" ? c.strike + (c.ask ?? 0) : c.strike - (c.ask ?? 0),
    day: { close: c.close ?? ((c.bid ?? 0) + (c.ask ?? 0)) / 2, volume: c.volume ?? 0, last_updated: updatedNs },
    details: { contract_type: c.type, exercise_style: "american", expiration_date: c.expiration, shares_per_contract: 100, strike_price: c.strike, ticker: c.ticker },
    greeks: { delta: 0.5, gamma: 0.01, theta: -0.1, vega: 0.2 },
    ...(c.iv === undefined ? {} : { implied_volatility: c.iv }),
    last_quote: {
      ask: c.ask ?? 0,
      ask_size: 10,
      bid: c.bid ?? 0,
      bid_size: 10,
      last_updated: updatedNs,
      midpoint: ((c.bid ?? 0) + (c.ask ?? 0)) / 2,
      timeframe: "REAL-TIME",
    },
    open_interest: c.oi,
    underlying_asset: { change_to_break_even: 0, last_updated: updatedNs, price, ticker: underlying, timeframe: "REAL-TIME" },
  };
}

/**
 * Start the fake on loopback with `apiKey` as the only accepted key.
 * @example const fake = await startFakeMassive("test-key"); fake.chains.set("SPY", contracts);
 */
export async function startFakeMassive(apiKey: string, nowNs: () => number = () => Date.now() * 1e6): Promise<FakeMassive> {
  let limited = 0;
  let limitedRetryS = 0;
  const authed = new Map<string, Set<{ send: (t: string) => void; close: () => void }>>();
  const all = new Set<{ close: () => void }>();
  const subscriptions = new Map<string, Set<string>>();
  const clusterOf = (url: string) => new URL(url, "http://x").pathname.replace(/^\//, "");
  const ws = nodeAdapter({
    hooks: {
      open(peer) {
        if (fake.outage) {
          peer.close(1011, "outage");
          return;
        }
        all.add(peer);
        peer.send(JSON.stringify([{ ev: "status", status: "connected", message: "Connected Successfully" }]));
      },
      message(peer, message) {
        const cluster = clusterOf(peer.request.url);
        let msg: { action?: string; params?: string };
        try {
          msg = JSON.parse(message.text());
        } catch {
          return;
        }
        if (msg.action === "auth") {
          if (msg.params === apiKey) {
            const set = authed.get(cluster) ?? new Set();
            authed.set(cluster, set);
            set.add(peer);
            peer.send(JSON.stringify([{ ev: "status", status: "auth_success", message: "authenticated" }]));
          } else {
            peer.send(JSON.stringify([{ ev: "status", status: "auth_failed", message: "authentication failed" }]));
            peer.close();
          }
        } else if (msg.action === "subscribe" && authed.get(cluster)?.has(peer)) {
          const set = subscriptions.get(cluster) ?? new Set<string>();
          subscriptions.set(cluster, set);
          for (const p of (msg.params ?? "").split(",")) set.add(p);
          peer.send(JSON.stringify([{ ev: "status", status: "success", message: `subscribed to: ${msg.params}` }]));
        }
      },
      close(peer) {
        all.delete(peer);
        for (const set of authed.values()) set.delete(peer);
      },
    },
  });
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    fake.requests.push(url.pathname);
    if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.searchParams.get("apiKey") !== apiKey) return json(401, { status: "ERROR", request_id: "r", error: "Unknown API Key" });
    if (fake.outage) return json(503, { status: "ERROR", error: "Service Unavailable" });
    if (limited > 0) {
      limited--;
      return json(429, { status: "ERROR", error: "You've exceeded the maximum requests per minute" }, { "Retry-After": String(limitedRetryS) });
    }
    const snap = /^\/v3\/snapshot\/options\/([^/]+)$/.exec(url.pathname);
    if (snap) {
      const underlying = decodeURIComponent(snap[1]);
      const chain = fake.chains.get(underlying);
      if (!chain) return json(404, { status: "NOT_FOUND", request_id: "r", message: "Ticker not found" });
      const price = fake.prices.get(underlying) ?? 100;
      const limit = Math.min(PAGE, Number(url.searchParams.get("limit") ?? 10));
      const cursor = Number(url.searchParams.get("cursor") ?? 0);
      const page = chain.slice(cursor, cursor + limit).map((c) => snapshotResult(c, underlying, price, nowNs()));
      const next =
        cursor + limit < chain.length ? `${fake.restUrl}/v3/snapshot/options/${encodeURIComponent(underlying)}?cursor=${cursor + limit}&limit=${limit}` : undefined;
      return json(200, { status: "OK", request_id: "r", results: page, ...(next ? { next_url: next } : {}) });
    }
    const aggs = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/1\/minute\/(\d+)\/(\d+)$/.exec(url.pathname);
    if (aggs) {
      const [, t, from, to] = aggs;
      const rows = (fake.aggs.get(decodeURIComponent(t)) ?? []).filter((r) => r.t >= Number(from) && r.t <= Number(to));
      return json(200, { ticker: t, status: "OK", resultsCount: rows.length, results: rows.map((r) => ({ ...r, vw: r.c, n: 1 })) });
    }
    return json(404, { status: "NOT_FOUND", message: "not found" });
  });
  server.on("upgrade", (req, socket, head) => {
    void ws.handleUpgrade(req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeMassive = {
    restUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    chains: new Map(),
    prices: new Map(),
    aggs: new Map(),
    rateLimitNext(n, retryAfterS = 0) {
      limited = n;
      limitedRetryS = retryAfterS;
    },
    delayMs: 0,
    outage: false,
    requests: [],
    subscriptions,
    send(cluster, events) {
      for (const p of authed.get(cluster) ?? []) p.send(JSON.stringify(events));
    },
    sendRaw(cluster, text) {
      for (const p of authed.get(cluster) ?? []) p.send(text);
    },
    dropSockets() {
      for (const p of [...all]) p.close();
    },
    peers: (cluster) => authed.get(cluster)?.size ?? 0,
    async close() {
      ws.closeAll(1001, "bye", true);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
