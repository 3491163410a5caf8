// Resumption: Last-Event-ID (header, or lastEventId query; the header wins) replays exactly what
// the client missed, then `resumed`; an id outside the window, garbage, or another account's id
// gets an explicit `resumed` with gap: true and a new lineage, never silence and never a 5xx.
import fc from "fast-check";
import { EventSource } from "eventsource";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventData } from "../../../server/streams/replay-store";
import { openRaw, sequenced, seqOf, sleep, type Frame } from "./_sse";
import { startStreamServer, type StreamServer } from "./_server";

let s: StreamServer;
beforeAll(async () => {
  s = await startStreamServer({ speed: 600 });
});
afterAll(() => s.close());

/** The server's record of a lineage (what it published, in order). */
function published(lineageId: string) {
  return s.hub().internals.replay.peek(lineageId)!.events;
}

describe("resume", () => {
  it("replays the events after the id, says so in `resumed`, then continues the same sequence", async () => {
    const a = await openRaw(s.url, s.key, "symbols=SPY,AAPL");
    await a.waitFor((f) => sequenced([f]).length === 1 && seqOf(f.id) >= 6);
    a.abort();
    const got = sequenced(a.frames);
    const cursor = got[2].id!;
    const b = await openRaw(s.url, s.key, "symbols=SPY,AAPL", { lastEventId: cursor });
    const resumed = await b.waitFor((f) => f.event === "resumed");
    const connected = b.frames[0];
    expect(connected.event).toBe("connected");
    expect(connected.id).toBe(cursor);
    expect(resumed.data).toMatchObject({ gap: false, lastEventId: cursor });
    const replayed = sequenced(b.frames).slice(0, resumed.data.replayed);
    // everything the first connection received after the cursor comes again, identical
    expect(replayed.slice(0, got.length - 3)).toEqual(got.slice(3));
    expect(seqOf(resumed.id)).toBe(seqOf(cursor) + resumed.data.replayed + 1);
    await b.waitFor((f) => f.event === "snapshot" && seqOf(f.id) > seqOf(resumed.id));
    b.abort();
    const all = [...got.slice(0, 3), ...sequenced(b.frames)];
    expect(all.map((f) => seqOf(f.id))).toEqual(all.map((_, i) => i + 1));
    // no board is sent twice within a lineage
    const boards = all.filter((f) => f.event === "snapshot").map((f) => `${f.data.symbol}@${f.data.asOf}`);
    expect(new Set(boards).size).toBe(boards.length);
  });

  it("the header wins over the query parameter", async () => {
    const a = await openRaw(s.url, s.key, "symbols=SPY");
    const first = await a.waitFor((f) => f.event === "snapshot");
    a.abort();
    const b = await openRaw(s.url, s.key, "symbols=SPY&lastEventId=garbage", { lastEventId: first.id! });
    expect((await b.waitFor((f) => f.event === "resumed")).data.gap).toBe(false);
    b.abort();
    const c = await openRaw(s.url, s.key, `symbols=SPY&lastEventId=${encodeURIComponent(first.id!)}`);
    expect((await c.waitFor((f) => f.event === "resumed")).data).toMatchObject({ gap: false, lastEventId: first.id });
    c.abort();
  });

  it("garbage, unknown and expired ids get resumed { gap: true } with a reason and a new lineage", async () => {
    const g = await openRaw(s.url, s.key, "symbols=SPY", { lastEventId: "not-an-id\u00e9" });
    expect(g.status).toBe(200);
    const gr = await g.waitFor((f) => f.event === "resumed");
    expect(gr.data).toMatchObject({ gap: true, reason: "malformed", replayed: 0 });
    expect(seqOf(gr.id)).toBe(1);
    g.abort();
    const u = await openRaw(s.url, s.key, "symbols=SPY", { lastEventId: "aaaaaaaaaaaaaaaa.5" });
    expect((await u.waitFor((f) => f.event === "resumed")).data).toMatchObject({ gap: true, reason: "unknown" });
    u.abort();
  });

  it("an id from another account gives nothing of that account's", async () => {
    const a = await openRaw(s.url, s.key, "symbols=AAPL");
    const snap = await a.waitFor((f) => f.event === "snapshot");
    const other = s.accounts.createAccount({ plan: "top", credits: 1000 });
    const b = await openRaw(s.url, other.key, "symbols=AAPL", { lastEventId: snap.id! });
    const r = await b.waitFor((f) => f.event === "resumed");
    expect(r.data).toMatchObject({ gap: true, reason: "unknown", replayed: 0 });
    expect(r.data.lineage).not.toBe(snap.id!.split(".")[0]);
    expect(b.frames.filter((f) => f.id?.startsWith(snap.id!.split(".")[0]))).toEqual([]);
    a.abort();
    b.abort();
  });

  it("an id older than the window (events evicted) is a gap: reason expired", async () => {
    const small = await startStreamServer({ speed: 600, tuning: { replayMaxEvents: 5 } });
    try {
      const a = await openRaw(small.url, small.key, "symbols=SPY,AAPL");
      const firstSnap = await a.waitFor((f) => f.event === "snapshot");
      await a.waitFor((f) => seqOf(f.id) >= 12);
      a.abort();
      const b = await openRaw(small.url, small.key, "symbols=SPY,AAPL", { lastEventId: firstSnap.id! });
      expect((await b.waitFor((f) => f.event === "resumed")).data).toMatchObject({ gap: true, reason: "expired" });
      b.abort();
    } finally {
      await small.close();
    }
  });
});

describe("property: random drops and resumes deliver the exact published sequence", () => {
  it("holds for random drop points", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 2, maxLength: 4 }), async (drops) => {
        const received: Frame[] = [];
        let cursor: string | undefined;
        let lineage = "";
        for (const k of [...drops, 3]) {
          const raw = await openRaw(s.url, s.key, "symbols=SPY,AAPL", cursor === undefined ? {} : { lastEventId: cursor });
          const connected = await raw.waitFor((f) => f.event === "connected");
          lineage ||= connected.data.lineage;
          expect(connected.data.lineage).toBe(lineage);
          const startLen = received.length;
          await raw.waitFor(() => sequenced(raw.frames).length >= k);
          raw.abort();
          // what the client saw before the drop (the socket may have lost more: the server replays it)
          const seen = sequenced(raw.frames).filter((f) => f.event !== "resumed");
          received.push(...seen);
          if (received.length > startLen || cursor === undefined) cursor = raw.frames.filter((f) => f.id !== null).at(-1)!.id!;
          await sleep(5);
        }
        const publishedEvents = published(lineage).filter((e) => e.event !== "resumed");
        expect(publishedEvents[0].seq).toBe(1);
        const want = publishedEvents.slice(0, received.length).map((e) => ({ id: `${lineage}.${e.seq}`, event: e.event, data: JSON.parse(eventData(e)) }));
        expect(received.map((f) => ({ id: f.id, event: f.event, data: f.data }))).toEqual(want);
      }),
      { numRuns: 8 },
    );
  }, 60_000);
});

describe("the `eventsource` package (a standard EventSource with a custom fetch for the header)", () => {
  it("receives named events with ids and resumes with Last-Event-ID after the server's reconnect", async () => {
    const short = await startStreamServer({ speed: 600, streams: { maxDurationS: 300 } });
    const sentIds: (string | null)[] = [];
    const es = new EventSource(`${short.url}/v1/stream?symbols=SPY`, {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        sentIds.push(headers.get("last-event-id"));
        headers.set("Authorization", `Bearer ${short.key}`);
        return fetch(input, { ...init, headers });
      },
    });
    const seen: { type: string; id: string; data: any }[] = [];
    const record = (type: string) => (e: MessageEvent) => seen.push({ type, id: e.lastEventId, data: JSON.parse(e.data) });
    for (const t of ["connected", "snapshot", "velocity", "credits", "reconnect", "resumed"]) es.addEventListener(t, record(t));
    try {
      const t0 = Date.now();
      while (!seen.some((e) => e.type === "resumed") && Date.now() - t0 < 15_000) await sleep(20);
      const reconnect = seen.find((e) => e.type === "reconnect")!;
      expect(reconnect.data).toEqual({ reason: "max_duration" });
      expect(sentIds[0]).toBeNull();
      expect(sentIds[1]).toBe(reconnect.id);
      const resumed = seen.find((e) => e.type === "resumed")!;
      expect(resumed.data).toMatchObject({ gap: false, replayed: 0, lastEventId: reconnect.id });
      expect(seqOf(resumed.id)).toBe(seqOf(reconnect.id) + 1);
    } finally {
      es.close();
      await short.close();
    }
  }, 30_000);
});
