/**
 * The app's stream hub: admission (server-wide and per-account caps), the shared boards, the
 * resume store, one ticker for every connection's deadlines, key/account re-checks, and shutdown.
 * Timings run on the stream clock: the market clock's elapsed time or wall time, whichever is
 * further (so a scaled clock runs an hour in seconds and a pinned clock still pings and bills).
 * See docs/api.md#streams.
 */
import { SLOT_STREAM_SYMBOLS, type AccountService, type Principal } from "../accounts/types";
import { ApiError } from "../errors";
import { attribution } from "../attribution";
import type { AppServices } from "../services";
import { createBoardHub, type BoardHub, type BoardState, type TopicSource, type TopicState } from "./board-hub";
import { closeReasonOf, StreamConnection } from "./connection";
import { formatEventId } from "./event-id";
import { createReplayStore, type Lineage, type LoggedEvent, type ReplayStore } from "./replay-store";
import { streamSettings, type StreamSettings } from "./settings";

/** What a connection needs from its hub. */
export interface StreamHubInternals {
  settings: StreamSettings;
  replay: ReplayStore;
  accounts: AccountService;
  /** Stream-clock now, ms. */
  lifeNow(): number;
  /** Monotonic real milliseconds. */
  wallNow(): number;
  log(line: Record<string, unknown>): void;
  remove(conn: StreamConnection): void;
}

/** A validated, charged request to open a stream. */
export interface OpenStreamRequest<Q> {
  principal: Principal;
  /** Known symbols, de-duplicated, in request order. */
  symbols: string[];
  query: Q;
  /** Request id of the opening debit. */
  requestId: string;
  /** `Last-Event-ID` header, else `lastEventId` query; null when neither. */
  lastEventId: string | null;
  transport: "sse" | "ws";
  /** Balance after the opening debit, when known. */
  creditsRemaining: number | null;
}

/** Counters for tests and the soak bench. */
export interface StreamHubStats {
  connections: number;
  topics: number;
  lineages: number;
  retainedEvents: number;
  queuedEvents: number;
  tickerRunning: boolean;
}

/** Resume key of a connection: its symbols (any order) and options. */
function queryKeyOf(symbols: readonly string[], optionsKey: string): string {
  return [[...symbols].sort().join(","), optionsKey].join("|");
}

function streamLimitReached(max: number, inUse: number, asked: number, retryAfterS: number): ApiError {
  return new ApiError(429, "stream_limit_reached", `This account may stream at most ${max} symbols at once (${inUse} in use, ${asked} asked).`, {
    headers: { "Retry-After": String(retryAfterS) },
    details: { retry_after: retryAfterS },
  });
}

function capacity(code: "stream_capacity" | "stream_unavailable", message: string, retryAfterS: number): ApiError {
  return new ApiError(503, code, message, { headers: { "Retry-After": String(retryAfterS) }, details: { retry_after: retryAfterS } });
}

/**
 * Create a hub over a module's topic source (one per source and app; the module keeps it).
 * @example const hub = createStreamHub(services, source); const conn = hub.open({ ... }); conn.start(sink, hub.lifeNow());
 */
export function createStreamHub<Q, S extends TopicState = BoardState>(services: AppServices, source: TopicSource<Q, S>) {
  const settings = streamSettings(services);
  const connections = new Set<StreamConnection>();
  const boards: BoardHub<Q, S> = createBoardHub(services, source, { fanoutBatch: settings.fanoutBatch });
  const replay: ReplayStore = (services.resumeStore ?? createReplayStore)({
    maxEvents: settings.replayMaxEvents,
    windowMs: settings.replayWindowS * 1000,
    maxLineages: Math.max(settings.maxLineages, settings.maxConnections),
    // A resume elsewhere (another instance on Redis) claimed the lineage: its writer here stops.
    onTakenOver: (owner) => (owner as StreamConnection).abort(),
  });
  const wallNow = () => performance.now();
  const wallBase = wallNow();
  const simBase = services.clock.now();
  const lifeNow = () => simBase + Math.max(services.clock.now() - simBase, wallNow() - wallBase);
  let ticker: ReturnType<typeof setInterval> | null = null;
  let lastRevalidate = wallNow();
  let lastSweep = wallNow();
  let shuttingDown = false;
  let nextId = 0;

  const internals: StreamHubInternals = {
    settings,
    replay,
    accounts: services.accounts,
    lifeNow,
    wallNow,
    log: (line) => {
      try {
        services.logger({ ts: new Date(services.wallNowMs()).toISOString(), level: "info", ...line });
      } catch {
        // a failing log sink never fails a stream
      }
    },
    remove(conn) {
      connections.delete(conn);
      if (connections.size === 0 && ticker) {
        clearInterval(ticker);
        ticker = null;
      }
    },
  };

  function revalidate(): void {
    // Maintenance: every open stream is asked to reconnect (its reconnect is refused with
    // 503 api_paused and Retry-After until the pause is lifted, then it resumes without a gap).
    if (services.control.state().mode === "paused") {
      for (const c of [...connections]) c.reconnect("api_paused");
      return;
    }
    const byKey = new Map<string, StreamConnection[]>();
    for (const c of connections) {
      if (c.disposed) continue;
      const list = byKey.get(c.principal.keyId);
      if (list) list.push(c);
      else byKey.set(c.principal.keyId, [c]);
    }
    for (const list of byKey.values()) {
      // A fresh principal carries the current plan and OPRA agreement: access is re-checked with it.
      const apply = (fresh: Principal) => {
        for (const c of list) {
          c.principal = fresh;
          c.recheckAccess();
        }
      };
      const refuse = (error: unknown) => {
        const reason = closeReasonOf(error);
        for (const c of list) c.close(reason);
      };
      try {
        // A networked store answers later; the embedded one at once (no microtask per tick).
        const fresh = services.accounts.revalidate(list[0].principal);
        if (fresh instanceof Promise) fresh.then(apply, refuse);
        else apply(fresh);
      } catch (error) {
        refuse(error);
      }
    }
  }

  function tick(): void {
    const wall = wallNow();
    const life = lifeNow();
    boards.tick(services.clock.now()).catch(() => {});
    if (wall - lastRevalidate >= settings.revalidateMs) {
      lastRevalidate = wall;
      revalidate();
    }
    for (const c of [...connections]) c.tick(life, wall);
    if (wall - lastSweep >= 5000) {
      lastSweep = wall;
      replay.sweep(life);
    }
  }

  function ensureTicker(): void {
    if (ticker) return;
    ticker = setInterval(tick, settings.tickMs);
    (ticker as { unref?: () => void }).unref?.();
  }

  return {
    internals,
    settings,
    lifeNow,

    /**
     * Admit a stream (after the pipeline authenticated, validated and charged the open): caps,
     * account slots, resume lookup. Throws `ApiError` 503 `stream_unavailable` / `stream_capacity`
     * or 429 `stream_limit_reached`; the caller then starts the connection with its transport.
     */
    async open(req: OpenStreamRequest<Q>): Promise<StreamConnection> {
      const retry = settings.capacityRetryAfterS;
      if (shuttingDown) throw capacity("stream_unavailable", "The server is shutting down; reconnect to another instance.", retry);
      const now = lifeNow();
      const queryKey = queryKeyOf(req.symbols, source.optionsKey(req.query));
      let lineage: Lineage | null = null;
      let replayEvents: LoggedEvent[] = [];
      let resumeFromSeq = 0;
      let resumed: Record<string, unknown> | null = null;
      if (req.lastEventId !== null) {
        // The shared (Redis) store answers asynchronously; it claims the lineage for this open.
        const found = await replay.lookup(req.lastEventId, req.principal.accountId, queryKey, now);
        if (found.kind === "resume") {
          lineage = found.lineage;
          replayEvents = found.replay;
          resumeFromSeq = found.afterSeq;
          // One writer per lineage: a resume takes over from a connection the server still holds.
          const owner = lineage.owner as StreamConnection | null;
          if (owner && !owner.disposed) owner.abort();
          resumed = {
            lastEventId: formatEventId(lineage.id, found.afterSeq),
            gap: false,
            replayed: replayEvents.length,
            fromId: replayEvents.length ? formatEventId(lineage.id, replayEvents[0].seq) : null,
            toId: replayEvents.length ? formatEventId(lineage.id, replayEvents[replayEvents.length - 1].seq) : null,
            lineage: lineage.id,
          };
        } else {
          resumed = { lastEventId: req.lastEventId.slice(0, 200), gap: true, reason: found.reason, replayed: 0, fromId: null, toId: null };
        }
      }
      if (connections.size >= settings.maxConnections) {
        throw capacity("stream_capacity", `The server is streaming to ${settings.maxConnections} connections; retry shortly.`, retry);
      }
      const newTopics = req.symbols.filter((s) => !boards.has(s, req.query)).length;
      if (boards.size + newTopics > settings.maxTopics) {
        throw capacity("stream_capacity", "The server streams as many distinct boards as it can; retry shortly.", retry);
      }
      const max = req.principal.limits.streamSymbolsConcurrent;
      // A shared limiter (Redis) answers asynchronously; the slot is held across instances.
      const release = await services.concurrency.tryAcquire(req.principal.accountId, SLOT_STREAM_SYMBOLS, max, req.symbols.length);
      if (!release) {
        throw streamLimitReached(max, await services.concurrency.inUse(req.principal.accountId, SLOT_STREAM_SYMBOLS), req.symbols.length, settings.limitRetryAfterS);
      }
      if (!lineage) {
        lineage = replay.create(req.principal.accountId, queryKey, now);
        if (resumed) resumed.lineage = lineage.id;
      }
      const n = req.symbols.length;
      const simulated = services.market.simulated;
      const conn = new StreamConnection(
        internals,
        {
          id: `str_${(++nextId).toString(36)}_${lineage.id.slice(0, 6)}`,
          principal: req.principal,
          symbols: req.symbols,
          subscribe: (symbol, listener) => boards.subscribe(symbol, req.query, listener),
          requestId: req.requestId,
          lineage,
          resumeFromSeq,
          replay: replayEvents,
          resumed,
          transport: req.transport,
          connected: {
            format: "v2",
            transport: req.transport,
            lineage: lineage.id,
            symbols: req.symbols,
            ...source.connectedFields(req.query),
            creditsRemaining: req.creditsRemaining,
            creditsPerMinute: (n * 60) / settings.billingIntervalS,
            billingIntervalSeconds: settings.billingIntervalS,
            maxDurationSeconds: settings.maxDurationS,
            keepaliveSeconds: settings.keepaliveS,
            resumeWindow: { events: settings.replayMaxEvents, seconds: settings.replayWindowS },
            simulated,
            attribution: attribution(simulated),
          },
        },
        release,
      );
      lineage.owner = conn;
      connections.add(conn);
      ensureTicker();
      boards.tick(services.clock.now()).catch(() => {});
      return conn;
    },

    /**
     * Ask every open stream to reconnect elsewhere (`reconnect` with `server_shutdown`), refuse new
     * opens with 503 `stream_unavailable`, and resolve once all have ended (or `graceMs` passed).
     */
    async shutdown(graceMs = 2000): Promise<void> {
      shuttingDown = true;
      for (const c of [...connections]) c.reconnect("server_shutdown");
      const deadline = wallNow() + graceMs;
      while (connections.size > 0 && wallNow() < deadline) await new Promise((r) => setTimeout(r, 10));
      for (const c of [...connections]) c.abort();
    },

    stats(): StreamHubStats {
      let queued = 0;
      for (const c of connections) queued += c.queued;
      return {
        connections: connections.size,
        topics: boards.size,
        lineages: replay.size,
        retainedEvents: replay.retainedEvents(),
        queuedEvents: queued,
        tickerRunning: ticker !== null,
      };
    },

    /** The open connections (tests). */
    connections(): StreamConnection[] {
      return [...connections];
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a hub of any query type; `unknown` would reject its callbacks (parameters are contravariant)
export type StreamHub<Q = any, S extends TopicState = BoardState> = ReturnType<typeof createStreamHub<Q, S>>;
