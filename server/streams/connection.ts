/**
 * One open stream: its lifecycle deadlines on the stream clock (keep-alive, per-interval billing,
 * maximum duration), its bounded outgoing queue (newest board per symbol wins), and the lineage it
 * writes into. Transport-agnostic: SSE and WebSocket give it a `StreamSink`.
 * See docs/api.md#streams.
 */
import type { AccountService, BalanceResult, Entitlement, LedgerRef, Principal } from "../accounts/types";
import { ApiError } from "../errors";
import type { BoardListener, BoardState, EventsState, TopicState, PositionedEvent } from "./board-hub";
import { formatEventId } from "./event-id";
import { eventData, type Lineage, type LoggedEvent } from "./replay-store";
import type { OutFrame, SharedEvent, StreamSink } from "./sink";
import type { StreamHubInternals } from "./stream-hub";

/** The spec's `closed` reasons (`access_withdrawn`: the plan or OPRA agreement stopped covering the stream, see `requireEntitlement`). */
export type CloseReason =
  | "insufficient_credits"
  | "account_suspended"
  | "monthly_cap_reached"
  | "daily_cap_reached"
  | "credit_check_failed"
  | "key_revoked"
  | "access_withdrawn";

/** The spec's `reconnect` reasons. */
export type ReconnectReason = "max_duration" | "server_shutdown" | "api_paused";

/** The SSE `retry` field sent with `connected`, ms. */
const RETRY_MS = 1000;

/** Ledger route of every stream debit. */
const STREAM_ROUTE = "/v1/stream";

/**
 * Map an accounts error to a `closed` reason: 402 codes as they are, a revoked or expired key
 * (403 `forbidden`) is `key_revoked`, a suspended or blocked account `account_suspended`, and
 * anything else (store down, unexpected) `credit_check_failed`.
 */
export function closeReasonOf(error: unknown): CloseReason {
  if (error instanceof ApiError) {
    switch (error.code) {
      case "insufficient_credits":
      case "daily_cap_reached":
      case "monthly_cap_reached":
        return error.code;
      case "forbidden":
        return "key_revoked";
      case "account_suspended":
      case "account_blocked":
        return "account_suspended";
    }
  }
  return "credit_check_failed";
}

/**
 * Debit through the account service's group commit (one fsync for every debit of the same
 * event-loop turn) when it has one, else the synchronous `debit`; always settles asynchronously.
 * @example await debitAsyncOf(accounts, principal, 2, { requestId: "req_1.m1", route: STREAM_ROUTE })
 */
function debitAsyncOf(accounts: AccountService, p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult> {
  if (accounts.debitAsync) return accounts.debitAsync(p, credits, ref);
  return new Promise((resolve) => resolve(accounts.debit(p, credits, ref)));
}

/** `refund` through group commit when available (see `debitAsyncOf`). */
export function refundAsyncOf(accounts: AccountService, p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult> {
  if (accounts.refundAsync) return accounts.refundAsync(p, credits, ref);
  return new Promise((resolve) => resolve(accounts.refund(p, credits, ref)));
}

const CLOSE_MESSAGES: Record<CloseReason, string> = {
  insufficient_credits: "The credit balance does not cover the next minute.",
  account_suspended: "API access for this account is suspended.",
  monthly_cap_reached: "The account's monthly spend cap is reached.",
  daily_cap_reached: "The plan's daily credit cap is reached.",
  credit_check_failed: "The credit balance could not be verified; reconnect to continue.",
  key_revoked: "The API key of this stream was revoked or has expired.",
  access_withdrawn: "The account's plan or OPRA agreement no longer covers this stream's data.",
};

type EndItem = { kind: "end"; event: "closed" | "reconnect"; data: string; code: "closed" | "reconnect" | "shutdown" };

type Item =
  | { kind: "event"; event: string; data: string; id?: string }
  | EndItem
  | { kind: "replay"; ev: LoggedEvent }
  | { kind: "board"; symbol: string }
  | { kind: "events"; symbol: string }
  | { kind: "velocity"; symbol: string }
  | { kind: "ping" };

/** What a connection starts from. */
export interface ConnectionInit {
  id: string;
  principal: Principal;
  symbols: string[];
  /** Subscribe to one symbol's topic under the connection's options; returns the unsubscribe. */
  subscribe: (symbol: string, listener: BoardListener) => () => void;
  /** Request id of the opening request (its debit); minute debits use `<requestId>.m<k>`. */
  requestId: string;
  lineage: Lineage;
  /** Seq the client already has (0 on a fresh lineage). */
  resumeFromSeq: number;
  replay: LoggedEvent[];
  /** `resumed` payload to send after the replay, or null when no `Last-Event-ID` was sent. */
  resumed: Record<string, unknown> | null;
  connected: Record<string, unknown>;
  transport: "sse" | "ws";
}

export class StreamConnection {
  readonly id: string;
  principal: Principal;
  readonly symbols: string[];
  private readonly subscribe: ConnectionInit["subscribe"];
  readonly transport: "sse" | "ws";
  readonly lineage: Lineage;
  private readonly requestId: string;
  private readonly hub: StreamHubInternals;
  private sink: StreamSink | null = null;
  private queue: Item[] = [];
  private pendingBoards = new Map<string, { state: Extract<BoardState, { kind: "board" }>; lagged: boolean }>();
  private pendingVelocity = new Map<string, { asOfMs: number; event: SharedEvent }>();
  /** Per symbol, the newest `events` state not fully written (it carries the older ones' events). */
  private pendingEvents = new Map<string, EventsState>();
  private unsubscribes: (() => void)[] = [];
  private writing = false;
  private writeSinceWallMs = 0;
  private finishing = false;
  disposed = false;
  private nextPingMs = 0;
  private nextBillMs = 0;
  private endMs = 0;
  private minutesBilled = 0;
  /** A minute debit is waiting for its commit; the next one waits for it (ledger order, no overdraw). */
  private billing = false;
  /** Billing deadlines that passed while a debit was in flight. */
  private billsOwed = 0;
  /** The final event, held back until the debit in flight settles (its `credits` goes first). */
  private deferredEnd: EndItem | null = null;
  private releaseSlot: () => void;
  private onDispose: (() => void)[] = [];
  /** What the stream's data needs, re-checked after every re-validation and before every debit (null: nothing beyond the key and account). */
  private access: { entitlement: Exclude<Entitlement, "none">; symbols: readonly string[] } | null = null;

  constructor(hub: StreamHubInternals, init: ConnectionInit, releaseSlot: () => void) {
    this.hub = hub;
    this.id = init.id;
    this.principal = init.principal;
    this.symbols = init.symbols;
    this.subscribe = init.subscribe;
    this.transport = init.transport;
    this.lineage = init.lineage;
    this.requestId = init.requestId;
    this.releaseSlot = releaseSlot;
    const resumePoint = formatEventId(init.lineage.id, init.resumeFromSeq);
    this.queue.push({ kind: "event", event: "connected", id: resumePoint, data: JSON.stringify({ ...init.connected, resumeFrom: resumePoint }) });
    for (const ev of init.replay) this.queue.push({ kind: "replay", ev });
    if (init.resumed) this.queue.push({ kind: "event", event: "resumed", data: JSON.stringify(init.resumed) });
  }

  /** Attach the transport and start: deadlines, board subscriptions, first writes. */
  start(sink: StreamSink, lifeNowMs: number): void {
    if (this.disposed) {
      sink.abort();
      return;
    }
    this.sink = sink;
    const s = this.hub.settings;
    this.nextPingMs = lifeNowMs + s.keepaliveS * 1000;
    this.nextBillMs = lifeNowMs + s.billingIntervalS * 1000;
    this.endMs = lifeNowMs + s.maxDurationS * 1000;
    for (const symbol of this.symbols) {
      this.unsubscribes.push(this.subscribe(symbol, (sym, state) => this.offerBoard(sym, state)));
    }
    this.pump();
  }

  /**
   * Keep checking that the principal may read `entitlement` for `symbols`, as the route checked at
   * the open: after every re-validation of the key (`revalidateMs`, a second) and before every
   * debit. Once the plan, its symbol list or the OPRA agreement no longer covers them the stream
   * ends with `closed` `access_withdrawn` and no further interval is charged. Every stream sets it
   * when it opens (`openOnHub`). See docs/api.md#stream-events.
   */
  requireEntitlement(entitlement: Exclude<Entitlement, "none">, symbols: readonly string[] = []): void {
    this.access = { entitlement, symbols };
  }

  /**
   * Null while the principal is still entitled, else the close reason: `access_withdrawn` for a
   * refusal (403), `credit_check_failed` when the store could not answer.
   */
  private accessDenied(): CloseReason | null {
    if (this.access === null) return null;
    const refused = (error: unknown): CloseReason => (error instanceof ApiError && error.status === 403 ? "access_withdrawn" : "credit_check_failed");
    try {
      const pending = this.hub.accounts.assertEntitled(this.principal, this.access.entitlement, this.access.symbols);
      // A store that answers later: its refusal ends the stream when it comes.
      if (pending instanceof Promise) pending.catch((error) => this.close(refused(error)));
      return null;
    } catch (error) {
      return refused(error);
    }
  }

  /** After the hub re-validated the principal: end the stream at once if its access is gone. */
  recheckAccess(): void {
    if (this.finishing || this.disposed) return;
    const denied = this.accessDenied();
    if (denied) this.close(denied);
  }

  /** Run at a cleanup (transport gone, abort listeners). */
  addDisposer(fn: () => void): void {
    if (this.disposed) fn();
    else this.onDispose.push(fn);
  }

  /** Events still waiting to be written (bench and tests). */
  get queued(): number {
    return this.queue.length;
  }

  /** Minute debits started so far. */
  get billedIntervals(): number {
    return this.minutesBilled;
  }

  // --- lifecycle ---

  /** Process every deadline up to `lifeNowMs` in time order; drop a reader stuck past the limit. */
  tick(lifeNowMs: number, wallNowMs: number): void {
    if (this.disposed || !this.sink) return;
    if (this.writing && wallNowMs - this.writeSinceWallMs > this.hub.settings.slowReaderMs) {
      this.hub.log({ level: "warn", msg: "stream_slow_reader_dropped", streamId: this.id, accountId: this.principal.accountId });
      this.abort();
      return;
    }
    const s = this.hub.settings;
    while (!this.finishing && !this.disposed) {
      const next = Math.min(this.nextPingMs, this.nextBillMs, this.endMs);
      if (next > lifeNowMs) break;
      if (next === this.endMs) {
        this.reconnect("max_duration");
        break;
      }
      if (next === this.nextBillMs) {
        this.bill();
        this.nextBillMs += s.billingIntervalS * 1000;
        continue;
      }
      this.nextPingMs += s.keepaliveS * 1000;
      this.enqueue({ kind: "ping" });
    }
  }

  /**
   * Debit one billing interval through group commit: every stream billing in the same event-loop
   * turn shares one commit. One debit in flight per stream; deadlines that pass meanwhile are owed
   * and debited in order after it, so each interval is charged exactly once, in sequence.
   */
  private bill(): void {
    if (this.billing) {
      this.billsOwed += 1;
      return;
    }
    const denied = this.accessDenied();
    if (denied) {
      this.billsOwed = 0;
      this.close(denied);
      return;
    }
    this.billing = true;
    const n = this.symbols.length;
    const interval = ++this.minutesBilled;
    const ref = { requestId: `${this.requestId}.m${interval}`, route: STREAM_ROUTE };
    let pending: Promise<BalanceResult>;
    try {
      pending = debitAsyncOf(this.hub.accounts, this.principal, n, ref);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (r) => this.billed({ ok: true, data: JSON.stringify({ remaining: r.balance, charged: n, interval }) }),
      (error) => this.billed({ ok: false, reason: closeReasonOf(error) }),
    );
  }

  private billed(outcome: { ok: true; data: string } | { ok: false; reason: CloseReason }): void {
    this.billing = false;
    if (this.disposed) return;
    if (outcome.ok) {
      this.enqueue({ kind: "event", event: "credits", data: outcome.data });
      if (this.billsOwed > 0) {
        this.billsOwed -= 1;
        this.bill();
        return;
      }
    } else {
      this.billsOwed = 0;
      if (!this.finishing) {
        this.close(outcome.reason);
        return;
      }
      // The debit was due before the end was decided: its refusal outranks a `reconnect`.
      if (this.deferredEnd?.event === "reconnect") this.deferredEnd = this.closedItem(outcome.reason);
    }
    const end = this.deferredEnd;
    this.deferredEnd = null;
    if (end) this.enqueue(end);
  }

  private closedItem(reason: CloseReason): EndItem {
    return {
      kind: "end",
      event: "closed",
      code: "closed",
      data: JSON.stringify({ reason, message: CLOSE_MESSAGES[reason], reconnectable: reason === "credit_check_failed" }),
    };
  }

  /** End with a final `closed` event. */
  close(reason: CloseReason): void {
    if (this.finishing || this.disposed) return;
    this.finish(this.closedItem(reason));
  }

  /** End with a `reconnect` event (the client reconnects at once with its last id). */
  reconnect(reason: ReconnectReason): void {
    if (this.finishing || this.disposed) return;
    this.finish({ kind: "end", event: "reconnect", code: reason === "server_shutdown" ? "shutdown" : "reconnect", data: JSON.stringify({ reason }) });
  }

  private finish(item: EndItem): void {
    this.finishing = true;
    // Boards and pings not yet written are dropped (they never got ids, so nothing is skipped).
    this.queue = this.queue.filter((q) => q.kind === "event" || q.kind === "replay");
    this.pendingBoards.clear();
    this.pendingVelocity.clear();
    this.pendingEvents.clear();
    for (const off of this.unsubscribes.splice(0)) off();
    if (this.billing) this.deferredEnd = item;
    else this.enqueue(item);
  }

  /** Tear down at once, without a final event. */
  abort(): void {
    if (this.disposed) return;
    this.sink?.abort();
    this.dispose();
  }

  /** Free everything: slots, subscriptions, the lineage, the hub's entry. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.queue = [];
    this.pendingBoards.clear();
    this.pendingVelocity.clear();
    this.pendingEvents.clear();
    for (const off of this.unsubscribes.splice(0)) off();
    this.releaseSlot();
    if (this.lineage.owner === this) {
      this.lineage.owner = null;
      this.lineage.detachedAtMs = this.hub.lifeNow();
    }
    for (const fn of this.onDispose.splice(0)) {
      try {
        fn();
      } catch {
        // cleanup must not throw
      }
    }
    this.hub.remove(this);
  }

  // --- boards ---

  private offerBoard(symbol: string, state: TopicState): void {
    if (this.finishing || this.disposed) return;
    if (state.kind === "events") {
      const queued = this.pendingEvents.has(symbol);
      this.pendingEvents.set(symbol, state);
      if (!queued) this.enqueue({ kind: "events", symbol });
      return;
    }
    if (state.kind === "unavailable") {
      if (this.lineage.unavailable.has(symbol) && !this.pendingBoards.has(symbol)) return;
      this.enqueue({
        kind: "event",
        event: "symbol_unavailable",
        data: JSON.stringify({ symbol, reason: state.reason, message: state.message, ...state.fields }),
      });
      return;
    }
    if ((this.lineage.lastBoardMs.get(symbol) ?? -Infinity) >= state.asOfMs) return;
    const pending = this.pendingBoards.get(symbol);
    // The same board offered twice (at subscribe and by the fan-out) is not "lagged".
    if (pending?.state === state) return;
    if (pending) {
      pending.state = state;
      pending.lagged = true;
    } else {
      this.pendingBoards.set(symbol, { state, lagged: false });
      this.enqueue({ kind: "board", symbol });
    }
    if (state.velocityEvent && state.velocity && (this.lineage.lastVelocityMs.get(symbol) ?? -Infinity) < state.asOfMs) {
      const hadVelocity = this.pendingVelocity.has(symbol);
      this.pendingVelocity.set(symbol, { asOfMs: Date.parse(state.velocity.asOf), event: state.velocityEvent });
      if (!hadVelocity) this.enqueue({ kind: "velocity", symbol });
    }
  }

  // --- writing ---

  private enqueue(item: Item): void {
    if (this.disposed) return;
    this.queue.push(item);
    if (this.queue.length > this.hub.settings.queueMaxEvents + 2 * this.symbols.length + 4) {
      this.hub.log({ level: "warn", msg: "stream_queue_overflow", streamId: this.id, accountId: this.principal.accountId });
      this.abort();
      return;
    }
    this.pump();
  }

  /** Turn a queued item into a frame, assigning ids at write time so logged seqs have no holes. */
  private materialize(item: Item): { frame: OutFrame; end?: EndItem["code"] } | null {
    const lineage = this.lineage;
    const now = this.hub.lifeNow();
    const log = (event: string, data: string) => this.hub.replay.append(lineage, event, data, now);
    const resumePoint = () => formatEventId(lineage.id, lineage.seq);
    switch (item.kind) {
      case "ping":
        return { frame: { ping: true } };
      case "replay":
        return { frame: { id: formatEventId(lineage.id, item.ev.seq), event: item.ev.event, data: eventData(item.ev) } };
      case "end":
        return { frame: { id: resumePoint(), event: item.event, data: item.data }, end: item.code };
      case "event": {
        // `retry` makes an EventSource reconnect one second after a server-requested `reconnect`.
        if (item.id !== undefined) return { frame: { id: item.id, event: item.event, data: item.data, retry: RETRY_MS } };
        if (item.event === "symbol_unavailable") {
          const symbol = (JSON.parse(item.data) as { symbol: string }).symbol;
          if (lineage.unavailable.has(symbol)) return null;
          lineage.unavailable.add(symbol);
        }
        return { frame: { id: log(item.event, item.data), event: item.event, data: item.data } };
      }
      case "board": {
        const p = this.pendingBoards.get(item.symbol);
        this.pendingBoards.delete(item.symbol);
        if (!p || (lineage.lastBoardMs.get(item.symbol) ?? -Infinity) >= p.state.asOfMs) return null;
        lineage.lastBoardMs.set(item.symbol, p.state.asOfMs);
        lineage.unavailable.delete(item.symbol);
        // The board's bytes are shared by every subscriber (only the id is this connection's); the
        // log keeps the shared board JSON, not a copy.
        const id = this.hub.replay.append(lineage, p.state.eventName, p.state.snapshotJson, now, p.lagged);
        return { frame: { id, shared: p.lagged ? p.state.laggedSnapshotEvent : p.state.snapshotEvent } };
      }
      case "events":
        return this.nextOfEvents(item);
      case "velocity": {
        const v = this.pendingVelocity.get(item.symbol);
        this.pendingVelocity.delete(item.symbol);
        if (!v || (lineage.lastVelocityMs.get(item.symbol) ?? -Infinity) >= v.asOfMs) return null;
        lineage.lastVelocityMs.set(item.symbol, v.asOfMs);
        return { frame: { id: log("velocity", v.event.data), shared: v.event } };
      }
    }
  }

  /**
   * The next event of a symbol's pending `events` state after the lineage's position (the item is
   * put back at the head of the queue while more remain). More than `eventsBacklogMax` behind: the
   * oldest are skipped and a `lagged` event says how many.
   */
  private nextOfEvents(item: Extract<Item, { kind: "events" }>): { frame: OutFrame } | null {
    const state = this.pendingEvents.get(item.symbol);
    if (!state) return null;
    const lineage = this.lineage;
    const events = state.events;
    const position = lineage.lastBoardMs.get(item.symbol) ?? -Infinity;
    if (position < state.fromPos - 1) {
      // Behind the window (a long-stalled reader): what fell out of it is reported, not replayed.
      lineage.lastBoardMs.set(item.symbol, state.fromPos - 1);
      const missed = Number.isFinite(position) ? state.missedAfter(position) : 0;
      if (missed > 0) {
        this.queue.unshift(item);
        const data = JSON.stringify({ dropped: missed });
        return { frame: { id: this.hub.replay.append(lineage, "lagged", data, this.hub.lifeNow()), event: "lagged", data } };
      }
    }
    const i = firstAfter(events, lineage.lastBoardMs.get(item.symbol) ?? -Infinity);
    if (i >= events.length) {
      this.pendingEvents.delete(item.symbol);
      return null;
    }
    const now = this.hub.lifeNow();
    this.queue.unshift(item);
    const dropped = events.length - i - this.hub.settings.eventsBacklogMax;
    if (dropped > 0) {
      lineage.lastBoardMs.set(item.symbol, events[i + dropped - 1].pos);
      const data = JSON.stringify({ dropped });
      return { frame: { id: this.hub.replay.append(lineage, "lagged", data, now), event: "lagged", data } };
    }
    const ev = events[i];
    lineage.lastBoardMs.set(item.symbol, ev.pos);
    if (i + 1 === events.length) {
      this.queue.shift();
      this.pendingEvents.delete(item.symbol);
    }
    return { frame: { id: this.hub.replay.append(lineage, ev.shared.event, ev.shared.data, now), shared: ev.shared } };
  }

  private pump(): void {
    const sink = this.sink;
    if (!sink) return;
    while (!this.writing && !this.disposed && this.queue.length > 0) {
      const item = this.queue.shift()!;
      const m = this.materialize(item);
      if (!m) continue;
      let pending: void | Promise<void>;
      try {
        pending = sink.write(m.frame);
      } catch {
        this.dispose();
        return;
      }
      if (m.end) {
        // The final frame may still be waiting when the client goes: nothing is left to write after it.
        if (pending) pending.catch(() => {});
        sink.end(m.end);
        this.dispose();
        return;
      }
      if (pending) {
        this.writing = true;
        this.writeSinceWallMs = this.hub.wallNow();
        pending.then(
          () => {
            this.writing = false;
            this.pump();
          },
          () => this.dispose(),
        );
        return;
      }
    }
  }
}

/** Index of the first event with `pos > after` (events are in increasing `pos`). */
function firstAfter(events: readonly PositionedEvent[], after: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].pos <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
