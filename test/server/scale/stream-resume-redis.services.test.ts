// Stream resumption across instances: three apps (each its own hub, Redis connection and listener)
// on one redis-server, one accounts store and one simulated market clock (600x, so boards change
// and minutes bill every 100 ms). A client reads from instance A, drops, resumes on B with
// Last-Event-ID (SSE) and on C (WebSocket): one lineage, seqs 1..N without a gap or a repeat, the
// missed events replayed exactly as first written, no board sent twice.
import WebSocket from "crossws/websocket";
import { describe, expect, it } from "vitest";
import { openRaw, sequenced, seqOf, sleep, type Frame } from "../streams/_sse";
import { useRedisApps } from "./_redis-instances";

const cluster = useRedisApps({ speed: 600 });
const instances = cluster.instances;

const account = () => cluster.accounts.createAccount({ plan: "top", credits: 100_000 });

/** Board identities in a list of frames. */
const boardsOf = (frames: { event: string; data?: any }[]) => frames.filter((f) => f.event === "snapshot").map((f) => `${f.data.symbol}@${f.data.asOf}`);

/** A WebSocket stream client (as test/server/streams/websocket.test.ts). */
function connectWs(baseUrl: string, key: string, query: string) {
  const ws = new (WebSocket as any)(`${baseUrl.replace("http", "ws")}/v1/stream/ws?${query}`, [], { headers: { Authorization: `Bearer ${key}` } });
  const messages: Frame[] = [];
  ws.addEventListener("message", (e: any) => {
    const m = JSON.parse(String(e.data));
    messages.push({ id: m.id ?? null, event: m.event, data: m.data, ping: m.event === "ping" || undefined });
  });
  const closed = new Promise<void>((resolve) => ws.addEventListener("close", () => resolve()));
  const waitFor = async (pred: (m: Frame) => boolean, timeoutMs = 8000) => {
    const t0 = Date.now();
    for (;;) {
      const hit = messages.find(pred);
      if (hit) return hit;
      if (Date.now() - t0 > timeoutMs) throw new Error(`timeout; got ${messages.map((m) => m.event).join(",")}`);
      await sleep(10);
    }
  };
  return { ws, messages, waitFor, closed };
}

describe("stream resume across instances on one Redis", () => {
  it("A (SSE) -> B (SSE, Last-Event-ID) -> C (WebSocket, lastEventId): one lineage, no gap, no repeat, replay identical", async () => {
    const { key } = account();
    const q = "symbols=SPY,AAPL";
    const a = await openRaw(instances[0]!.url, key, q);
    expect(a.status).toBe(200);
    await a.waitFor((f) => sequenced([f]).length === 1 && seqOf(f.id) >= 8);
    a.abort();
    const gotA = sequenced(a.frames);
    const lineage = gotA[0]!.id!.split(".")[0];
    // Resume from the middle of what A sent: B replays the rest exactly as A wrote it.
    const cursor = gotA[3]!.id!;
    const b = await openRaw(instances[1]!.url, key, q, { lastEventId: cursor });
    expect(b.status).toBe(200);
    const resumedB = await b.waitFor((f) => f.event === "resumed");
    expect(b.frames[0]).toMatchObject({ event: "connected", id: cursor });
    expect(resumedB.data).toMatchObject({ gap: false, lastEventId: cursor, lineage });
    const replayedB = sequenced(b.frames).slice(0, resumedB.data.replayed);
    expect(resumedB.data.replayed).toBeGreaterThanOrEqual(gotA.length - 4);
    expect(replayedB.slice(0, gotA.length - 4)).toEqual(gotA.slice(4));
    await b.waitFor((f) => f.event === "snapshot" && seqOf(f.id) > seqOf(resumedB.id));
    b.abort();
    const gotB = sequenced(b.frames);
    // The client's record after B: A's events up to the cursor, then everything B sent.
    const seen = [...gotA.slice(0, 4), ...gotB];
    expect(seen.map((f) => seqOf(f.id))).toEqual(seen.map((_, i) => i + 1));
    // C over WebSocket, from the last id the client saw on B (nothing to replay or everything after it).
    const last = gotB[gotB.length - 1]!.id!;
    const c = connectWs(instances[2]!.url, key, `${q}&lastEventId=${encodeURIComponent(last)}`);
    const resumedC = await c.waitFor((m) => m.event === "resumed");
    expect(resumedC.data).toMatchObject({ gap: false, lastEventId: last, lineage });
    await c.waitFor((m) => m.event === "snapshot" && seqOf(m.id) > seqOf(resumedC.id));
    c.ws.close();
    await c.closed;
    const all = [...seen, ...sequenced(c.messages)];
    expect(all.every((f) => f.id!.startsWith(`${lineage}.`))).toBe(true);
    expect(all.map((f) => seqOf(f.id))).toEqual(all.map((_, i) => i + 1));
    const boards = boardsOf(all);
    expect(new Set(boards).size).toBe(boards.length);
    // asOf never goes backwards per symbol across the three instances.
    for (const symbol of ["SPY", "AAPL"]) {
      const asOfs = all.filter((f) => f.event === "snapshot" && f.data.symbol === symbol).map((f) => Date.parse(f.data.asOf));
      expect(asOfs).toEqual([...asOfs].sort((x, y) => x - y));
    }
  });

  it("a resume on B ends the connection A still holds (one writer per lineage), and the ids stay one sequence", async () => {
    const { key, accountId } = account();
    const a = await openRaw(instances[0]!.url, key, "symbols=SPXW");
    const first = await a.waitFor((f) => f.event === "snapshot");
    // The client noticed the drop first: A still holds its connection when B resumes.
    const cursor = (await a.waitFor((f) => sequenced([f]).length === 1 && seqOf(f.id) >= 3)).id!;
    const b = await openRaw(instances[1]!.url, key, "symbols=SPXW", { lastEventId: cursor });
    const resumed = await b.waitFor((f) => f.event === "resumed");
    expect(resumed.data).toMatchObject({ gap: false, lineage: first.id!.split(".")[0] });
    // A learns of the claim at its next write (minutes bill every 100 ms here) and ends without a final event.
    await Promise.race([a.ended, sleep(5000).then(() => Promise.reject(new Error("A kept its connection")))]);
    await b.waitFor((f) => f.event === "credits" && seqOf(f.id) > seqOf(resumed.id));
    b.abort();
    const fromB = sequenced(b.frames);
    expect(fromB.map((f) => seqOf(f.id))).toEqual(fromB.map((_, i) => seqOf(cursor) + 1 + i));
    await sleep(100);
    // Both connections ended: their symbol slots are free on the shared limiter.
    expect(await instances[2]!.slots.inUse(accountId, "stream-symbols")).toBe(0);
  });

  it("another account's id, another stream's id and an id beyond the lineage are gaps on every instance", async () => {
    const owner = account();
    const other = account();
    const a = await openRaw(instances[0]!.url, owner.key, "symbols=SPY");
    const snap = await a.waitFor((f) => f.event === "snapshot");
    a.abort();
    const lineage = snap.id!.split(".")[0];
    const stranger = await openRaw(instances[1]!.url, other.key, "symbols=SPY", { lastEventId: snap.id! });
    const r1 = await stranger.waitFor((f) => f.event === "resumed");
    expect(r1.data).toMatchObject({ gap: true, reason: "unknown", replayed: 0 });
    expect(r1.data.lineage).not.toBe(lineage);
    expect(stranger.frames.filter((f) => f.id?.startsWith(lineage))).toEqual([]);
    stranger.abort();
    const otherStream = await openRaw(instances[2]!.url, owner.key, "symbols=SPY,AAPL", { lastEventId: snap.id! });
    expect((await otherStream.waitFor((f) => f.event === "resumed")).data).toMatchObject({ gap: true, reason: "different_stream" });
    otherStream.abort();
    const beyond = await openRaw(instances[1]!.url, owner.key, "symbols=SPY", { lastEventId: `${lineage}.999999` });
    expect((await beyond.waitFor((f) => f.event === "resumed")).data).toMatchObject({ gap: true, reason: "unknown" });
    beyond.abort();
  });
});
