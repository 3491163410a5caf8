// /v1/vol/stream when the key loses volatility access mid-stream, through a standard EventSource
// (the `eventsource` package, the header set by its custom fetch): a plan change closes with
// `access_withdrawn` at the next minute without charging it, and the client's automatic
// reconnect is refused 403 `not_entitled`, refunded; a plan that keeps the data keeps streaming;
// a revoked key and a suspended account end vol streams with their own spec reasons.
import { EventSource } from "eventsource";
import { describe, expect, it } from "vitest";
import { createSimulatedMarket, scaledClock } from "../../../../lib/market";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule } from "../../../../server/modules/vol";
import { configureStreams } from "../../../../server/streams/settings";
import { useListening } from "../../streams/_server";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seen {
  type: string;
  data: any;
  atMs: number;
}

describe("/v1/vol/stream access re-check", () => {
  // Wednesday 2024-03-06 10:02 ET; 60 simulated seconds per real second, so a billing minute is a
  // real second.
  const clock = scaledClock({ startMs: Date.parse("2024-03-06T15:02:00Z"), speed: 60 });
  const accounts = openAccountService({ dbPath: ":memory:" });
  const vol = createVolModule({ historySessions: 2, symbols: ["SPY"] });
  const app = createApp({
    market: createSimulatedMarket({ seed: 5, clock }),
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    clock,
    modules: [metaModule, vol],
  });
  configureStreams(app.services, { tickMs: 10, revalidateMs: 100 });
  const listening = useListening(app, () => accounts.close());

  /** A standard EventSource on the vol stream; records every event and every HTTP status of its (re)connects. */
  function open(key: string) {
    const statuses: number[] = [];
    const bodies: any[] = [];
    const es = new EventSource(`${listening.url}/v1/vol/stream?symbols=SPY&modules=iv`, {
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("Authorization", `Bearer ${key}`);
        const res = await fetch(input, { ...init, headers });
        statuses.push(res.status);
        if (res.status !== 200) bodies.push(await res.clone().json());
        return res;
      },
    });
    const seen: Seen[] = [];
    for (const t of ["connected", "vol", "credits", "closed", "reconnect"]) {
      es.addEventListener(t, (e: MessageEvent) => seen.push({ type: t, data: JSON.parse(e.data), atMs: Date.now() }));
    }
    const waitFor = async (pred: (s: Seen) => boolean, ms: number) => {
      const t0 = Date.now();
      for (;;) {
        const hit = seen.find(pred);
        if (hit) return hit;
        if (Date.now() - t0 > ms) throw new Error(`timed out; saw ${seen.map((s) => s.type).join(",")}`);
        await sleep(10);
      }
    };
    return { es, seen, statuses, bodies, waitFor };
  }

  it("a plan without volatility data: closed access_withdrawn at the next minute, that minute not charged, the reconnect refused", async () => {
    const { accountId, key } = accounts.createAccount({ plan: "top", credits: 1_000 });
    const s = open(key);
    try {
      await s.waitFor((e) => e.type === "vol", 20_000);
      await s.waitFor((e) => e.type === "credits", 5_000);
      const seenAtChange = s.seen.length;
      accounts.updateAccount(accountId, { plan: "index-etf" });
      const afterChange = accounts.balance(accountId);
      const closed = await s.waitFor((e) => e.type === "closed", 5_000);
      expect(closed.data).toEqual({ reason: "access_withdrawn", message: expect.stringContaining("plan"), reconnectable: false });
      // Re-checked every billing minute (one real second here), not at the next open: at most the
      // minute already billing when the change landed passes before the close.
      expect(s.seen.slice(seenAtChange).filter((e) => e.type === "credits").length).toBeLessThanOrEqual(1);
      // Nothing is debited for the closing minute: at most the minute already billing when the
      // change landed is charged after it (a plan change also applies the new plan's grant, so
      // balances are compared from just after the change).
      const debits = s.seen.filter((e) => e.type === "credits");
      expect(debits.every((e) => e.atMs <= closed.atMs)).toBe(true);
      const afterClose = accounts.balance(accountId);
      expect(afterChange - afterClose).toBeGreaterThanOrEqual(0);
      expect(afterChange - afterClose).toBeLessThanOrEqual(1);
      // The client reconnects by itself (as EventSource does after a stream ends): 403 not_entitled, refunded.
      const t0 = Date.now();
      while (s.statuses.length < 2 && Date.now() - t0 < 10_000) await sleep(20);
      expect(s.statuses).toEqual([200, 403]);
      expect(s.bodies[0].error.code).toBe("not_entitled");
      await sleep(1_200);
      expect(accounts.balance(accountId)).toBe(afterClose);
      expect(s.es.readyState).toBe(EventSource.CLOSED);
    } finally {
      s.es.close();
    }
  }, 40_000);

  it("a plan change that keeps volatility data keeps the stream and its billing going", async () => {
    const { accountId, key } = accounts.createAccount({ plan: "top", credits: 1_000 });
    const s = open(key);
    try {
      await s.waitFor((e) => e.type === "credits", 20_000);
      accounts.updateAccount(accountId, { plan: "api" });
      const changedAt = Date.now();
      await s.waitFor((e) => e.type === "credits" && e.atMs > changedAt + 1_500, 6_000);
      expect(s.seen.some((e) => e.type === "closed")).toBe(false);
    } finally {
      s.es.close();
    }
  }, 40_000);

  it.each([
    ["key_revoked", (a: { keyId: string }) => accounts.revokeKey(a.keyId)],
    ["account_suspended", (a: { accountId: string }) => accounts.updateAccount(a.accountId, { status: "suspended" })],
  ] as const)(
    "%s ends a vol stream with that reason",
    async (reason, act) => {
      const created = accounts.createAccount({ plan: "top", credits: 1_000 });
      const s = open(created.key);
      try {
        await s.waitFor((e) => e.type === "connected", 20_000);
        act(created as never);
        const closed = await s.waitFor((e) => e.type === "closed", 5_000);
        expect(closed.data.reason).toBe(reason);
      } finally {
        s.es.close();
      }
    },
    40_000,
  );
});
