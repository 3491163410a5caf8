// A stream resumed on instance B while instance A still holds the old connection (the client saw
// the drop first): A's writer must stop at once on B's claim, not at its next write, which may be
// the next billing interval (a minute charged to a client that already left). Real redis-server;
// A and B hear claims on the takeover channel (server/streams/redis-takeover-notices.ts); C does
// not subscribe, the behaviour before the notice, as the control. Billing every 2 s of a 1x clock
// and a market whose boards change only each minute: between two bills nothing else is written.
import { describe, expect, it } from "vitest";
import { openRaw, sequenced, sleep, type RawStream } from "../streams/_sse";
import { useRedisApps, type RedisAppInstance } from "./_redis-instances";

const BILLING_S = 2;

// 1x from 10:00 ET: the next board is a minute away, far beyond the test. Every instance
// publishes its claims; only A and B listen.
const cluster = useRedisApps({ speed: 1, hearsTakeovers: [true, true, false], streams: { billingIntervalS: BILLING_S, keepaliveS: 600 } });
const instances = cluster.instances;

/** Interval debits of one stream (request ids `<open request id>.m<k>`), in order. */
function intervalDebits(accountId: string, openRequestId: string): string[] {
  return cluster.accounts
    .ledger(accountId, { limit: 10_000 })
    .filter((e) => e.kind === "debit" && e.requestId?.startsWith(`${openRequestId}.m`))
    .map((e) => e.requestId!.slice(openRequestId.length + 1))
    .sort();
}

/** Open on `from`, wait for the first interval's debit, resume on B while `from` still holds its connection. */
async function takeOver(from: RedisAppInstance): Promise<{ old: RawStream; resumed: RawStream; accountId: string; openId: string; tookOverAt: number }> {
  const { key, accountId } = cluster.accounts.createAccount({ plan: "top", credits: 100_000 });
  const old = await openRaw(from.url, key, "symbols=SPY");
  expect(old.status).toBe(200);
  const openId = old.headers.get("x-request-id")!;
  await old.waitFor((f) => f.event === "credits" && f.data.interval === 1, 8000);
  const cursor = sequenced(old.frames).at(-1)!.id!;
  const resumed = await openRaw(instances[1]!.url, key, "symbols=SPY", { lastEventId: cursor });
  expect((await resumed.waitFor((f) => f.event === "resumed")).data).toMatchObject({ gap: false });
  return { old, resumed, accountId, openId, tookOverAt: performance.now() };
}

const endedWithin = (s: RawStream, ms: number) => Promise.race([s.ended.then(() => true), sleep(ms).then(() => false)]);

describe("stream takeover across instances on one Redis", () => {
  it("with the notice, A stops at once and charges no interval after B's claim", async () => {
    const { old, resumed, accountId, openId } = await takeOver(instances[0]!);
    // Well before A's next bill (BILLING_S after its first).
    expect(await endedWithin(old, 1000)).toBe(true);
    // Two more of A's intervals would have passed: none of them is charged.
    await sleep(BILLING_S * 1000 * 1.5);
    expect(intervalDebits(accountId, openId)).toEqual(["m1"]);
    // B bills the lineage from the resume on, under its own request id.
    await resumed.waitFor((f) => f.event === "credits");
    resumed.abort();
    old.abort();
  }, 30_000);

  it("control: without the notice, A learns of the claim only at its next write, after charging one more interval", async () => {
    const { old, resumed, accountId, openId } = await takeOver(instances[2]!);
    expect(await endedWithin(old, 500)).toBe(false);
    expect(await endedWithin(old, BILLING_S * 1000 * 2)).toBe(true);
    expect(intervalDebits(accountId, openId)).toEqual(["m1", "m2"]);
    resumed.abort();
    old.abort();
  }, 30_000);
});
