// The resume store on a real redis-server answers every resume exactly as the in-process store
// (the same kind, reason and replayed events, on random appends, lookups and stream-clock gaps),
// stores a board once however many lineages wrote it, and refuses with 503 when Redis is gone.
import fc from "fast-check";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRedis } from "../../../server/limits/redis-connection";
import { createRedisReplayStore } from "../../../server/streams/redis-replay-store";
import { createReplayStore, type ResumeLookup } from "../../../server/streams/replay-store";
import { formatEventId } from "../../../server/streams/event-id";
import { startRedis, type RedisProcess } from "../../_services/redis-server";

let server: RedisProcess;
let client: Redis;
beforeAll(async () => {
  server = await startRedis();
  // As `sharedLimits` opens the resume store's connection.
  client = await openRedis(server.url, { autoPipelining: true });
});
afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

const OPTIONS = { maxEvents: 6, windowMs: 10_000, maxLineages: 100 };
let run = 0;

/** A lookup's answer without the lineage object (ids differ between the two stores). */
function shape(r: ResumeLookup) {
  if (r.kind === "gap") return r;
  return { kind: r.kind, afterSeq: r.afterSeq, seq: r.lineage.seq, replay: r.replay.map((e) => ({ ...e })) };
}

describe("resume store on Redis", () => {
  it("decides every resume as the in-process store (property)", async () => {
    // Mostly short gaps (the count bound decides), sometimes long ones (the time window decides).
    const gap = fc.oneof(
      { arbitrary: fc.constant(0), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: 300 }), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: 6_000 }), weight: 1 },
    );
    const rarely = fc.integer({ min: 0, max: 7 }).map((n) => n === 0);
    const op = fc.oneof(
      fc.record({ kind: fc.constant("append" as const), gap, board: fc.boolean(), lagged: fc.boolean() }),
      fc.record({ kind: fc.constant("lookup" as const), gap, back: fc.integer({ min: -1, max: 9 }), stranger: rarely, otherStream: rarely }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60, size: "max" }), async (ops) => {
        const local = createReplayStore(OPTIONS);
        const shared = createRedisReplayStore(client, { ...OPTIONS, prefix: `prop${++run}:`, onTakenOver: () => {} });
        let t = 1_000_000;
        const l1 = local.create("acct", "SPY|gamma", t);
        const l2 = shared.create("acct", "SPY|gamma", t);
        let n = 0;
        for (const o of ops) {
          t += o.gap;
          if (o.kind === "append") {
            n++;
            // Boards are long (stored by digest), credits short (inline).
            const data = o.board ? `{"symbol":"SPY","asOf":${n},"strikes":"${"x".repeat(600)}"}` : `{"remaining":${n}}`;
            const lagged = o.board ? o.lagged : undefined;
            const id1 = local.append(l1, o.board ? "snapshot" : "credits", data, t, lagged);
            const id2 = shared.append(l2, o.board ? "snapshot" : "credits", data, t, lagged);
            expect(id2.split(".")[1]).toBe(id1.split(".")[1]);
          } else {
            const seq = Math.max(0, l1.seq - o.back);
            const account = o.stranger ? "other" : "acct";
            const query = o.otherStream ? "SPY,AAPL|gamma" : "SPY|gamma";
            const r1 = local.lookup(formatEventId(l1.id, seq), account, query, t);
            const r2 = await shared.lookup(formatEventId(l2.id, seq), account, query, t);
            expect(shape(r2)).toEqual(shape(r1));
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it("malformed ids are gaps without a Redis round trip; a board written by many lineages is stored once", async () => {
    const store = createRedisReplayStore(client, { ...OPTIONS, prefix: "boards:", onTakenOver: () => {} });
    expect(await store.lookup("not an id", "acct", "q", 0)).toEqual({ kind: "gap", reason: "malformed" });
    const board = JSON.stringify({ symbol: "SPY", asOf: "2024-03-06T15:00:00.000Z", strikes: Array.from({ length: 200 }, (_, i) => ({ strike: i, value: i * 1.5 })) });
    const lineages = Array.from({ length: 20 }, () => store.create("acct", "SPY|gamma", 0));
    for (const l of lineages) store.append(l, "snapshot", board, 0, false);
    const replay = await store.lookup(formatEventId(lineages[7]!.id, 0), "acct", "SPY|gamma", 0);
    expect(replay.kind === "resume" && replay.replay).toEqual([{ seq: 1, event: "snapshot", data: board, lagged: false, atMs: 0 }]);
    expect(await client.keys("boards:board:*")).toHaveLength(1);
  });

  it("a resume claims the lineage: the previous writer's next append is refused and it is told to stop", async () => {
    const stopped: object[] = [];
    const a = createRedisReplayStore(client, { ...OPTIONS, prefix: "claim:", onTakenOver: (o) => stopped.push(o) });
    const b = createRedisReplayStore(client, { ...OPTIONS, prefix: "claim:", onTakenOver: (o) => stopped.push(o) });
    const writer = { name: "connection on A" };
    const l = a.create("acct", "q", 0);
    l.owner = writer;
    a.append(l, "credits", "{}", 0);
    const r = await b.lookup(formatEventId(l.id, 1), "acct", "q", 0);
    expect(r.kind).toBe("resume");
    a.append(l, "credits", '{"late":true}', 0);
    for (let i = 0; i < 100 && stopped.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(stopped).toEqual([writer]);
    // The refused event never reached Redis: the lineage still ends at seq 1.
    expect(await b.lookup(formatEventId(l.id, 2), "acct", "q", 0)).toEqual({ kind: "gap", reason: "unknown" });
  });

  it("rejects with 503 unavailable (Retry-After) when Redis is unreachable", async () => {
    const own = await startRedis();
    const c = await openRedis(own.url);
    const store = createRedisReplayStore(c, { ...OPTIONS, onTakenOver: () => {} });
    const l = store.create("acct", "q", 0);
    await own.stop();
    await expect(store.lookup(formatEventId(l.id, 0), "acct", "q", 0)).rejects.toMatchObject({ status: 503, code: "unavailable", headers: { "Retry-After": "5" } });
    // Appends keep assigning ids (the connection goes on); the lineage just stops being resumable elsewhere.
    expect(store.append(l, "credits", "{}", 0)).toBe(formatEventId(l.id, 1));
    c.disconnect();
  });
});
