// Minute billing through the account service's group commit (docs/api.md#stream-billing): the
// debits of every stream billing in one event-loop turn share one commit, each keeps its own
// outcome (a refused debit closes only its stream), intervals are debited exactly once and in
// order, and a stream that ends while a debit is in flight says `credits` before its last event.
// In-process hub with fake transports and hand-driven deadlines (the ticker is slowed down).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAccountService, type SqliteAccountService } from "../../../server/accounts";
import { createApp, type OptionscopeApp } from "../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import { boardQueryOf, moduleStateOf, positioningModule, positioningStreamHub, streamQuery } from "../../../server/modules";
import type { StreamConnection } from "../../../server/streams/connection";
import { configureStreams } from "../../../server/streams/settings";
import type { OutFrame, StreamSink } from "../../../server/streams/sink";
import type { StreamHub } from "../../../server/streams/stream-hub";
import { fixedClock } from "../../../lib/market/clock";
import { movingMarket, SESSION_MS } from "./_server";
import { sleep } from "./_sse";

const MINUTE_MS = 60_000;

interface FakeSink extends StreamSink {
  frames: OutFrame[];
  ended: string | null;
  events(): { event: string; data: any }[];
}

function fakeSink(): FakeSink {
  const frames: OutFrame[] = [];
  const sink: FakeSink = {
    frames,
    ended: null,
    write: (f) => void frames.push(f),
    end(code = "closed") {
      sink.ended = code;
    },
    abort() {
      sink.ended = "aborted";
    },
    events: () => frames.filter((f) => !f.ping).map((f) => ({ event: f.shared?.event ?? f.event!, data: JSON.parse(f.shared?.data ?? f.data!) })),
  };
  return sink;
}

let accounts: SqliteAccountService;
let app: OptionscopeApp;
let hub: StreamHub;
let reqNo = 0;

beforeEach(() => {
  // A pinned market clock: the stream clock is then wall time, so the hub's own ticker (slowed to
  // 1 s) reaches no billing deadline during a test; the test moves the deadlines by hand.
  const clock = fixedClock(SESSION_MS);
  accounts = openAccountService({ dbPath: ":memory:" });
  app = createApp({
    market: movingMarket(clock),
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    clock,
  });
  configureStreams(app.services, { tickMs: 1000, revalidateMs: 60_000 });
  hub = positioningStreamHub(moduleStateOf(app.services, positioningModule));
});

afterEach(async () => {
  await hub.shutdown(50);
  accounts.close();
});

async function open(credits: number, symbols: string[]): Promise<{ conn: StreamConnection; sink: FakeSink; accountId: string; requestId: string; startMs: number }> {
  const { accountId, key } = accounts.createAccount({ plan: "top", credits });
  const principal = accounts.authenticate(`Bearer ${key}`);
  const requestId = `req_test_${++reqNo}`;
  const conn = await hub.open({
    principal,
    symbols,
    query: boardQueryOf(streamQuery.parse({ symbols: symbols.join(",") })),
    requestId,
    lastEventId: null,
    transport: "sse",
    creditsRemaining: credits,
  });
  const sink = fakeSink();
  const startMs = hub.lifeNow();
  conn.start(sink, startMs);
  return { conn, sink, accountId, requestId, startMs };
}

async function until(pred: () => boolean, timeoutMs = 3000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) throw new Error("timeout");
    await sleep(5);
  }
}

function minuteDebits(accountId: string, requestId: string) {
  return accounts
    .ledger(accountId, { limit: 100 })
    .filter((e) => e.requestId?.startsWith(`${requestId}.m`))
    .sort((a, b) => a.id - b.id);
}

describe("minute billing through group commit", () => {
  it("the minute debits of streams due in the same turn share one commit; each is exact", async () => {
    const streams = await Promise.all(Array.from({ length: 8 }, (_, i) => open(100, i % 2 ? ["SPY", "AAPL"] : ["SPY"])));
    const before = accounts.groupCommitStats();
    const wall = hub.internals.wallNow();
    for (const s of streams) s.conn.tick(s.startMs + MINUTE_MS, wall);
    // nothing is acknowledged before the commit
    expect(streams.every((s) => !s.sink.events().some((e) => e.event === "credits"))).toBe(true);
    await until(() => streams.every((s) => s.sink.events().some((e) => e.event === "credits")));
    const after = accounts.groupCommitStats();
    expect(after.batches - before.batches).toBe(1);
    expect(after.ops - before.ops).toBe(8);
    for (const s of streams) {
      const n = s.conn.symbols.length;
      const rows = minuteDebits(s.accountId, s.requestId);
      expect(rows.map((r) => [r.requestId, r.kind, r.delta, r.route])).toEqual([[`${s.requestId}.m1`, "debit", -n, "/v1/stream"]]);
      const credits = s.sink.events().find((e) => e.event === "credits")!;
      expect(credits.data).toEqual({ remaining: 100 - n, charged: n, interval: 1 });
      expect(rows[0].balanceAfter).toBe(100 - n);
    }
  });

  it("a refused debit in the shared commit closes only its own stream, with its reason", async () => {
    const rich = [await open(100, ["SPY"]), await open(100, ["AAPL"])];
    const poor = await open(1, ["SPY", "AAPL"]); // 2 credits per minute, 1 left
    const before = accounts.groupCommitStats();
    const wall = hub.internals.wallNow();
    for (const s of [rich[0], poor, rich[1]]) s.conn.tick(s.startMs + MINUTE_MS, wall);
    await until(() => poor.sink.ended !== null && rich.every((s) => s.sink.events().some((e) => e.event === "credits")));
    expect(accounts.groupCommitStats().batches - before.batches).toBe(1);
    const last = poor.sink.events().at(-1)!;
    expect(last).toMatchObject({ event: "closed", data: { reason: "insufficient_credits", reconnectable: false } });
    expect(poor.sink.ended).toBe("closed");
    expect(minuteDebits(poor.accountId, poor.requestId)).toEqual([]);
    expect(accounts.getAccount(poor.accountId).creditsBalance).toBe(1);
    for (const s of rich) {
      expect(minuteDebits(s.accountId, s.requestId).map((r) => r.delta)).toEqual([-1]);
      expect(s.sink.ended).toBeNull();
    }
  });

  it("deadlines that pass while a debit is in flight are debited afterwards, once each, in order", async () => {
    const s = await open(100, ["SPY", "AAPL"]);
    s.conn.tick(s.startMs + 3 * MINUTE_MS + 1, hub.internals.wallNow());
    await until(() => s.sink.events().filter((e) => e.event === "credits").length === 3);
    const credits = s.sink
      .events()
      .filter((e) => e.event === "credits")
      .map((e) => e.data);
    expect(credits).toEqual([
      { remaining: 98, charged: 2, interval: 1 },
      { remaining: 96, charged: 2, interval: 2 },
      { remaining: 94, charged: 2, interval: 3 },
    ]);
    const rows = minuteDebits(s.accountId, s.requestId);
    expect(rows.map((r) => [r.requestId, r.delta, r.balanceAfter])).toEqual([
      [`${s.requestId}.m1`, -2, 98],
      [`${s.requestId}.m2`, -2, 96],
      [`${s.requestId}.m3`, -2, 94],
    ]);
  });

  it("owed intervals stop at the first refusal: nothing is debited after it", async () => {
    const s = await open(5, ["SPY", "AAPL"]); // two minutes of 2, then 1 left
    s.conn.tick(s.startMs + 4 * MINUTE_MS + 1, hub.internals.wallNow());
    await until(() => s.sink.ended !== null);
    const ev = s.sink.events();
    expect(ev.filter((e) => e.event === "credits").map((e) => e.data.remaining)).toEqual([3, 1]);
    expect(ev.at(-1)).toMatchObject({ event: "closed", data: { reason: "insufficient_credits" } });
    expect(minuteDebits(s.accountId, s.requestId).map((r) => r.requestId)).toEqual([`${s.requestId}.m1`, `${s.requestId}.m2`]);
    expect(accounts.getAccount(s.accountId).creditsBalance).toBe(1);
  });

  it("a reconnect decided while a debit is in flight comes after that debit's credits event", async () => {
    const s = await open(100, ["SPY"]);
    s.conn.tick(s.startMs + MINUTE_MS, hub.internals.wallNow());
    s.conn.reconnect("max_duration");
    await until(() => s.sink.ended !== null);
    const tail = s.sink.events().slice(-2);
    expect(tail.map((e) => e.event)).toEqual(["credits", "reconnect"]);
    expect(tail[1].data).toEqual({ reason: "max_duration" });
    expect(s.sink.ended).toBe("reconnect");
    expect(minuteDebits(s.accountId, s.requestId)).toHaveLength(1);
  });

  it("a debit refused while a reconnect waits turns the end into closed with the refusal's reason", async () => {
    const s = await open(1, ["SPY", "AAPL"]);
    s.conn.tick(s.startMs + MINUTE_MS, hub.internals.wallNow());
    s.conn.reconnect("max_duration");
    await until(() => s.sink.ended !== null);
    expect(s.sink.events().at(-1)).toMatchObject({ event: "closed", data: { reason: "insufficient_credits" } });
    expect(s.sink.events().some((e) => e.event === "reconnect")).toBe(false);
    expect(s.sink.ended).toBe("closed");
  });

  it("a stream dropped while its debit is in flight keeps the debit (the minute had begun) and writes nothing more", async () => {
    const s = await open(100, ["SPY"]);
    s.conn.tick(s.startMs + MINUTE_MS, hub.internals.wallNow());
    const written = s.sink.frames.length;
    s.conn.abort();
    await sleep(30);
    expect(s.sink.frames.length).toBe(written);
    expect(minuteDebits(s.accountId, s.requestId).map((r) => r.delta)).toEqual([-1]);
    expect(hub.stats().connections).toBe(0);
  });
});
