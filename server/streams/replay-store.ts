/**
 * What the server remembers for resumption: per lineage, the last events written (bounded by
 * count and age) and the newest board instant written per symbol, so a resumed connection replays
 * exactly the events the client missed and never re-sends a board it already wrote.
 * See docs/api.md#stream-resumption.
 */
import { formatEventId, newLineageId, parseEventId } from "./event-id";

/** One event as it was written to a client (ids are assigned at write time, so seqs have no holes). */
export interface LoggedEvent {
  seq: number;
  event: string;
  /**
   * The JSON text of `data`, exactly as written; for a snapshot, the board's shared JSON and the
   * `lagged` flag instead (`eventData` rebuilds it), so a retained board is one pointer per
   * lineage rather than a copy.
   */
  data: string;
  lagged?: boolean;
  /** Stream-clock instant of the write, ms. */
  atMs: number;
}

/** A chain of connections that resume each other. */
export interface Lineage {
  id: string;
  accountId: string;
  /** Symbols and board options: a resume must ask for the same stream. */
  queryKey: string;
  /** Last seq assigned. */
  seq: number;
  /** Retained events, ascending and contiguous, the last one being `seq` (when any). */
  events: LoggedEvent[];
  /** Per symbol: `asOf` (ms) of the newest snapshot / velocity written. */
  lastBoardMs: Map<string, number>;
  lastVelocityMs: Map<string, number>;
  /** Symbols whose latest written state is `symbol_unavailable` (so it is not repeated). */
  unavailable: Set<string>;
  /** The connection writing into it, or null. */
  owner: object | null;
  /** Stream-clock instant the last owner left, ms. */
  detachedAtMs: number;
}

/** The answer to a resume request. */
export type ResumeLookup =
  | { kind: "resume"; lineage: Lineage; afterSeq: number; replay: LoggedEvent[] }
  | { kind: "gap"; reason: "malformed" | "unknown" | "expired" | "different_stream" };

/**
 * The `data` text of a logged event as it goes on the wire.
 * @example eventData({ seq: 1, event: "snapshot", data: '{"symbol":"SPY"}', lagged: false, atMs: 0 }) // '{"symbol":"SPY","lagged":false}'
 */
export function eventData(e: Pick<LoggedEvent, "data" | "lagged">): string {
  if (e.lagged === undefined) return e.data;
  return e.data.length > 2 ? `${e.data.slice(0, -1)},"lagged":${e.lagged}}` : `{"lagged":${e.lagged}}`;
}

export interface ReplayStoreOptions {
  maxEvents: number;
  windowMs: number;
  maxLineages: number;
}

/**
 * What the hub and its connections need from a resume store: this in-process one, or the Redis
 * one every instance shares (`redis-replay-store.ts`), whose `lookup` answers asynchronously.
 */
export interface ReplayStore {
  /** Start a new lineage. */
  create(accountId: string, queryKey: string, nowMs: number): Lineage;
  /** Resolve a client's last event id for an account and stream. Never throws for a bad id. */
  lookup(raw: string, accountId: string, queryKey: string, nowMs: number): ResumeLookup | Promise<ResumeLookup>;
  /** Record an event being written; returns its id. `lagged` marks a snapshot given as board JSON. */
  append(l: Lineage, event: string, data: string, nowMs: number, lagged?: boolean): string;
  /** Forget lineages nobody has written into for a whole window. */
  sweep(nowMs: number): void;
  /** A lineage by id, without any account check (tests, diagnostics; never exposed to clients). */
  peek(id: string): Lineage | undefined;
  readonly size: number;
  /** Retained events across all lineages held in this process (bench and tests). */
  retainedEvents(): number;
}

/** The in-process store answers synchronously. */
export interface InProcessReplayStore extends ReplayStore {
  lookup(raw: string, accountId: string, queryKey: string, nowMs: number): ResumeLookup;
}

/** Builds an app's resume store (`createApp({ resumeStore })`; default `createReplayStore`). */
export type ReplayStoreFactory = (options: ReplayStoreOptions & { onTakenOver: (owner: object) => void }) => ReplayStore;

/**
 * Create the store (one per app).
 * @example
 * const store = createReplayStore({ maxEvents: 1000, windowMs: 600_000, maxLineages: 20_000 });
 * const lineage = store.create("acct_1", "SPY|gamma", 0);
 */
export function createReplayStore(options: ReplayStoreOptions): InProcessReplayStore {
  const lineages = new Map<string, Lineage>();

  function prune(l: Lineage, nowMs: number): void {
    const cutoff = nowMs - options.windowMs;
    let drop = Math.max(0, l.events.length - options.maxEvents);
    while (drop < l.events.length && l.events[drop].atMs < cutoff) drop++;
    if (drop > 0) l.events.splice(0, drop);
  }

  function evictOne(): boolean {
    for (const [id, l] of lineages) {
      if (l.owner === null) {
        lineages.delete(id);
        return true;
      }
    }
    return false;
  }

  return {
    /** Start a new lineage. */
    create(accountId: string, queryKey: string, nowMs: number): Lineage {
      while (lineages.size >= options.maxLineages && evictOne()) {
        // evict the oldest detached lineages first (Map keeps insertion order)
      }
      let id = newLineageId();
      while (lineages.has(id)) id = newLineageId();
      const l: Lineage = {
        id,
        accountId,
        queryKey,
        seq: 0,
        events: [],
        lastBoardMs: new Map(),
        lastVelocityMs: new Map(),
        unavailable: new Set(),
        owner: null,
        detachedAtMs: nowMs,
      };
      lineages.set(id, l);
      return l;
    },

    /** Resolve a client's last event id for an account and stream. Never throws. */
    lookup(raw: string, accountId: string, queryKey: string, nowMs: number): ResumeLookup {
      const parsed = parseEventId(raw);
      if (!parsed) return { kind: "gap", reason: "malformed" };
      const l = lineages.get(parsed.lineage);
      // Another account's lineage answers exactly like one that does not exist.
      if (!l || l.accountId !== accountId || parsed.seq > l.seq) return { kind: "gap", reason: "unknown" };
      if (l.queryKey !== queryKey) return { kind: "gap", reason: "different_stream" };
      prune(l, nowMs);
      const oldest = l.events.length > 0 ? l.events[0].seq : l.seq + 1;
      if (parsed.seq < oldest - 1) return { kind: "gap", reason: "expired" };
      return { kind: "resume", lineage: l, afterSeq: parsed.seq, replay: l.events.slice(parsed.seq - oldest + 1) };
    },

    /** Record an event being written; returns its id. `lagged` marks a snapshot given as board JSON. */
    append(l: Lineage, event: string, data: string, nowMs: number, lagged?: boolean): string {
      l.seq += 1;
      l.events.push(lagged === undefined ? { seq: l.seq, event, data, atMs: nowMs } : { seq: l.seq, event, data, atMs: nowMs, lagged });
      if (l.events.length > options.maxEvents * 2) prune(l, nowMs);
      return formatEventId(l.id, l.seq);
    },

    /** Forget lineages nobody has written into for a whole window. */
    sweep(nowMs: number): void {
      for (const [id, l] of lineages) {
        if (l.owner === null && nowMs - l.detachedAtMs > options.windowMs) lineages.delete(id);
        else prune(l, nowMs);
      }
    },

    /** A lineage by id, without any account check (tests, diagnostics; never exposed to clients). */
    peek(id: string): Lineage | undefined {
      return lineages.get(id);
    },

    get size(): number {
      return lineages.size;
    },

    /** Retained events across all lineages (bench and tests). */
    retainedEvents(): number {
      let n = 0;
      for (const l of lineages.values()) n += l.events.length;
      return n;
    },
  };
}
