/**
 * One Massive WebSocket cluster connection (`/options`, `/stocks`, `/indices`): connect, send the
 * `auth` message, subscribe once `auth_success` arrives, hand every frame's events on, and on a
 * close reconnect with backoff and subscribe again. Node 20 has no global WebSocket: the client is
 * crossws's (the `ws` package it bundles), already a dependency of the server's own streams.
 * @see docs/data.md#massive-live-feed
 */
import WebSocket from "crossws/websocket";
import { parseFrame, type MassiveEvent } from "../../../lib/market/massive/wire";
import type { FeedPartStatus, FeedState } from "../market-feed";

/** Options of `openClusterSocket`. */
export interface ClusterSocketOptions {
  /** `wss://socket.massive.com/options` or the fake's loopback URL. */
  url: string;
  name: string;
  apiKey: string;
  /** Wall-clock source, ms (last message). */
  now: () => number;
  /** Market-clock source, ms: the instants of a gap (`onResumed`); default `now`. */
  dataNow?: () => number;
  onEvents(events: MassiveEvent[]): void;
  /** Called with the number of unreadable events of a frame. */
  onMalformed(count: number, sample: string): void;
  /** After a reconnect has authenticated: `[disconnectedAtMs, reconnectedAtMs]`. */
  onResumed?(fromMs: number, toMs: number): void;
  /** The key was refused (`auth_failed`): no reconnect. */
  onAuthFailed?(message: string): void;
  log: (line: Record<string, unknown>) => void;
  /** First reconnect delay, ms (doubles to `maxBackoffMs`); default 1000. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

/** A cluster connection. */
export interface ClusterSocket {
  /** Add subscriptions (`T.O:SPY...`, `AM.SPY`); sent now when authenticated, else after auth. */
  subscribe(params: readonly string[]): void;
  /** Resolves true once authenticated, false when the key was refused or `timeoutMs` passed. */
  authenticated(timeoutMs: number): Promise<boolean>;
  status(): FeedPartStatus;
  close(): void;
}

/** Subscriptions per `subscribe` message (the params string stays a few tens of KB). */
const SUBSCRIBE_CHUNK = 500;

/**
 * Open and keep open one cluster connection.
 * @example const s = openClusterSocket({ url: "wss://socket.massive.com/options", name: "options", apiKey, now: Date.now, onEvents, onMalformed, log });
 */
export function openClusterSocket(o: ClusterSocketOptions): ClusterSocket {
  const subs = new Set<string>();
  let ws: WebSocket | null = null;
  let authed = false;
  let closed = false;
  let refused = false;
  let state: FeedState = "connecting";
  let lastMessageMs: number | null = null;
  let lastError: string | null = null;
  let reconnects = 0;
  let attempt = 0;
  let downSinceMs: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const waiters: Array<(ok: boolean) => void> = [];
  const settle = (ok: boolean) => {
    for (const w of waiters.splice(0)) w(ok);
  };
  const sendSubs = (params: readonly string[]) => {
    for (let i = 0; i < params.length; i += SUBSCRIBE_CHUNK) {
      ws?.send(JSON.stringify({ action: "subscribe", params: params.slice(i, i + SUBSCRIBE_CHUNK).join(",") }));
    }
  };
  const connect = () => {
    if (closed) return;
    const socket = new WebSocket(o.url);
    ws = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify({ action: "auth", params: o.apiKey }));
    };
    socket.onmessage = (m: MessageEvent) => {
      lastMessageMs = o.now();
      const text = typeof m.data === "string" ? m.data : String(m.data);
      const { events, malformed } = parseFrame(text);
      if (malformed > 0) o.onMalformed(malformed, text.slice(0, 200));
      const data: MassiveEvent[] = [];
      for (const e of events) {
        if (e.ev !== "status") {
          data.push(e);
          continue;
        }
        if (e.status === "auth_success") {
          authed = true;
          state = "live";
          attempt = 0;
          if (subs.size > 0) sendSubs([...subs]);
          if (downSinceMs !== null) o.onResumed?.(downSinceMs, (o.dataNow ?? o.now)());
          downSinceMs = null;
          o.log({ ts: new Date().toISOString(), level: "info", msg: "feed_socket_live", feed: "massive", cluster: o.name, reconnects });
          settle(true);
        } else if (e.status === "auth_failed") {
          refused = true;
          state = "down";
          lastError = `auth_failed: ${e.message ?? ""}`.slice(0, 200);
          o.onAuthFailed?.(e.message ?? "auth_failed");
          settle(false);
          socket.close();
        } else if (e.status === "max_connections" || e.status === "error") {
          lastError = `${e.status}: ${e.message ?? ""}`.slice(0, 200);
        }
      }
      if (data.length > 0) o.onEvents(data);
    };
    socket.onerror = (e: Event) => {
      lastError = String((e as ErrorEvent).message ?? "socket error").slice(0, 200);
    };
    socket.onclose = () => {
      if (ws !== socket) return;
      ws = null;
      const wasAuthed = authed;
      authed = false;
      if (closed || refused) {
        state = "down";
        return;
      }
      if (wasAuthed || downSinceMs === null) downSinceMs ??= (o.dataNow ?? o.now)();
      state = "degraded";
      attempt++;
      reconnects++;
      const base = o.backoffMs ?? 1000;
      // Full jitter keeps a fleet of servers from reconnecting in step after a vendor restart.
      const delay = Math.min(o.maxBackoffMs ?? 30_000, base * 2 ** Math.min(attempt - 1, 10)) * (0.5 + Math.random() / 2);
      o.log({ ts: new Date().toISOString(), level: "warn", msg: "feed_socket_closed", feed: "massive", cluster: o.name, retryInMs: Math.round(delay), error: lastError });
      timer = setTimeout(connect, delay);
      timer.unref?.();
    };
  };
  connect();
  return {
    subscribe(params) {
      const fresh = params.filter((p) => !subs.has(p));
      for (const p of fresh) subs.add(p);
      if (authed && fresh.length > 0) sendSubs(fresh);
    },
    authenticated(timeoutMs) {
      if (authed) return Promise.resolve(true);
      if (refused) return Promise.resolve(false);
      return new Promise((resolve) => {
        const t = setTimeout(() => resolve(false), timeoutMs);
        t.unref?.();
        waiters.push((ok) => {
          clearTimeout(t);
          resolve(ok);
        });
      });
    },
    status: () => ({ name: o.name, state, lastMessageMs, lastError, reconnects }),
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      settle(false);
      ws?.close();
    },
  };
}
