// Every stream ends as soon as its access changes, not at its next billing minute: the OPRA
// agreement withdrawn (flow), a plan change that drops the stream's data (positioning, bars,
// volatility, flow), a revoked key, a suspended account. Real clients: a standard EventSource
// (the `eventsource` package), the raw SSE reader and a WebSocket (crossws). The market clock is
// held still, so no billing minute comes while the access changes (on the old code the streams
// ran on until one did); it is then moved three minutes on to show that nothing more is billed.
// See docs/api.md#stream-events.
import WebSocket from "crossws/websocket";
import { EventSource } from "eventsource";
import { describe, expect, it } from "vitest";
import { openAccountService } from "../../../server/accounts";
import type { UpdateAccountInput } from "../../../server/accounts/admin-types";
import { createApp } from "../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import { flowModule, positioningModule, priceModule } from "../../../server/modules";
import { metaModule } from "../../../server/modules/meta";
import { createVolModule } from "../../../server/modules/vol";
import { configureStreams } from "../../../server/streams/settings";
import { simulatedMarketAt } from "../../_helpers/simulated-market";
import { watchedMarket } from "../_watched-market";
import { openRaw, sleep, type Frame } from "./_sse";
import { useListening } from "./_server";

// Wednesday 2024-03-06 10:05:30 ET; the clock moves only when a test moves it.
const START_MS = Date.parse("2024-03-06T15:05:30Z");
const MINUTE = 60_000;
const clock = {
  ms: START_MS,
  now() {
    return this.ms;
  },
};
/** The hub re-validates keys every REVALIDATE_MS here (a second in production). */
const REVALIDATE_MS = 100;
/** "At once": well within a billing minute, allowing for a loaded machine. */
const PROMPT_MS = 3_000;

const accounts = openAccountService({ dbPath: ":memory:" });
// The worker's seed-7 market seen through this file's clock: boards and tapes other files built are reused.
const market = watchedMarket(simulatedMarketAt(7, START_MS).withClock(clock), { universe: ["SPY", "AAPL", "QQQ"] });
const app = createApp({
  market,
  accounts,
  rateLimiter: createRateLimiter(),
  concurrency: createConcurrencyLimiter(),
  clock,
  modules: [metaModule, flowModule, positioningModule, priceModule, createVolModule({ historySessions: 2, symbols: ["SPY"] })],
});
configureStreams(app.services, { tickMs: 5, revalidateMs: REVALIDATE_MS });
const listening = useListening(app, () => accounts.close());

/** A fresh account (its own balance and key) on the `top` plan, OPRA agreement signed. */
const newAccount = () => accounts.createAccount({ plan: "top", credits: 10_000 });

/** Move the market clock `minutes` on, a minute at a time, letting the hub tick between. */
async function advance(minutes: number): Promise<void> {
  for (let i = 0; i < minutes; i++) {
    clock.ms += MINUTE;
    await sleep(50);
  }
  await sleep(300);
}

/** Wait until `pred` holds (polling), or fail saying what was seen. */
async function until(pred: () => boolean, what: () => string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out: ${what()}`);
    await sleep(10);
  }
}

/** The billing after a close: moving three minutes on debits nothing and sends nothing. */
async function expectNothingBilledAfter(accountId: string, frames: () => { event: string }[]): Promise<void> {
  const balance = accounts.balance(accountId);
  const seen = frames().length;
  await advance(3);
  expect(accounts.balance(accountId)).toBe(balance);
  expect(frames().slice(seen)).toEqual([]);
}

interface Case {
  name: string;
  path: string;
  query: string;
  change: UpdateAccountInput;
  reason: "access_withdrawn";
}

const SSE_CASES: Case[] = [
  { name: "flow stream, OPRA agreement withdrawn", path: "/v1/flow/stream", query: "ticker=SPY", change: { opraAgreement: false }, reason: "access_withdrawn" },
  {
    name: "flow stream, plan narrowed to symbols it does not stream",
    path: "/v1/flow/stream",
    query: "ticker=AAPL",
    change: { plan: "index-etf" },
    reason: "access_withdrawn",
  },
  { name: "positioning stream, plan without positioning", path: "/v1/stream", query: "symbols=SPY", change: { plan: "flow" }, reason: "access_withdrawn" },
  { name: "bar stream, plan without price data", path: "/atlas/v1/stream/bars", query: "symbols=SPY&resolution=1", change: { plan: "flow" }, reason: "access_withdrawn" },
  {
    name: "volatility stream, plan without volatility",
    path: "/v1/vol/stream",
    query: "symbols=SPY&modules=iv",
    change: { plan: "index-etf" },
    reason: "access_withdrawn",
  },
];

describe("SSE streams end at once when access changes", () => {
  it.each(SSE_CASES)(
    "$name: closed $reason within the re-check, nothing billed after",
    async (c) => {
      const { accountId, key } = newAccount();
      const s = await openRaw(listening.url, key, c.query, { path: c.path });
      try {
        expect(s.status).toBe(200);
        await s.waitFor((f) => f.event === "connected", 20_000);
        accounts.updateAccount(accountId, c.change);
        // The market clock stands still: the close comes within the billing minute of the change.
        const closed = await s.waitFor((f) => f.event === "closed", PROMPT_MS);
        expect(closed.data).toEqual({ reason: c.reason, message: expect.stringMatching(/plan or OPRA agreement/), reconnectable: false });
        await s.ended;
        await expectNothingBilledAfter(accountId, () => s.frames);
      } finally {
        s.abort();
      }
    },
    60_000,
  );

  it.each([
    ["key_revoked", (a: { keyId: string }) => accounts.revokeKey(a.keyId)],
    ["account_suspended", (a: { accountId: string }) => accounts.updateAccount(a.accountId, { status: "suspended" })],
  ] as const)(
    "flow stream: %s ends it with that reason",
    async (reason, act) => {
      const created = newAccount();
      const s = await openRaw(listening.url, created.key, "ticker=SPY", { path: "/v1/flow/stream" });
      try {
        await s.waitFor((f) => f.event === "connected", 20_000);
        act(created as never);
        const closed = await s.waitFor((f) => f.event === "closed", PROMPT_MS);
        expect(closed.data.reason).toBe(reason);
        await expectNothingBilledAfter(created.accountId, () => s.frames);
      } finally {
        s.abort();
      }
    },
    60_000,
  );

  it("a change that keeps the access keeps the stream (flow: plan top -> api, agreement kept)", async () => {
    const { accountId, key } = newAccount();
    const s = await openRaw(listening.url, key, "ticker=SPY", { path: "/v1/flow/stream" });
    try {
      await s.waitFor((f) => f.event === "connected", 20_000);
      accounts.updateAccount(accountId, { plan: "api" });
      await sleep(10 * REVALIDATE_MS);
      await advance(2);
      await s.waitFor((f) => f.event === "credits", PROMPT_MS);
      expect(s.frames.some((f) => f.event === "closed")).toBe(false);
    } finally {
      s.abort();
    }
  }, 60_000);
});

describe("a standard EventSource on the flow stream", () => {
  it("the agreement withdrawn: closed access_withdrawn, then its automatic reconnect is refused 403 opra_agreement_required, refunded", async () => {
    const { accountId, key } = newAccount();
    const statuses: number[] = [];
    const bodies: any[] = [];
    const es = new EventSource(`${listening.url}/v1/flow/stream?ticker=SPY`, {
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("Authorization", `Bearer ${key}`);
        const res = await fetch(input, { ...init, headers });
        statuses.push(res.status);
        if (res.status !== 200) bodies.push(await res.clone().json());
        return res;
      },
    });
    const seen: Frame[] = [];
    for (const t of ["connected", "trade", "credits", "closed", "reconnect"]) {
      es.addEventListener(t, (e: MessageEvent) => seen.push({ id: e.lastEventId, event: t, data: JSON.parse(e.data) }));
    }
    try {
      await until(
        () => seen.some((f) => f.event === "connected"),
        () => `saw ${seen.map((f) => f.event)}`,
        20_000,
      );
      // Billing minutes pass while entitled: billed as usual (the stream clock runs from the hub's start).
      await advance(2);
      await until(
        () => seen.some((f) => f.event === "credits"),
        () => `saw ${seen.map((f) => f.event)}`,
        PROMPT_MS,
      );
      accounts.updateAccount(accountId, { opraAgreement: false });
      await until(
        () => seen.some((f) => f.event === "closed"),
        () => `saw ${seen.map((f) => f.event)}`,
        PROMPT_MS,
      );
      expect(seen.find((f) => f.event === "closed")!.data).toMatchObject({ reason: "access_withdrawn", reconnectable: false });
      const afterClose = accounts.balance(accountId);
      // REST says the same at once.
      const rest = await fetch(`${listening.url}/v1/flow/SPY`, { headers: { Authorization: `Bearer ${key}` } });
      expect(rest.status).toBe(403);
      // The client reconnects by itself (as EventSource does when a stream ends): refused, uncharged.
      await until(
        () => statuses.length >= 2,
        () => `statuses ${statuses}`,
        10_000,
      );
      expect(statuses.slice(0, 2)).toEqual([200, 403]);
      expect(bodies[0].error.code).toBe("OPRA_AGREEMENT_REQUIRED"); // the flow module's upper-case codes
      await expectNothingBilledAfter(accountId, () => seen);
      expect(accounts.balance(accountId)).toBe(afterClose);
    } finally {
      es.close();
    }
  }, 60_000);
});

describe("WebSocket streams end at once when access changes", () => {
  function connect(path: string, query: string, key: string) {
    const ws = new (WebSocket as any)(`${listening.url.replace("http", "ws")}${path}?${query}`, [], { headers: { Authorization: `Bearer ${key}` } });
    const messages: { event: string; data?: any }[] = [];
    const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e: any) => resolve(e.code)));
    ws.addEventListener("message", (e: any) => messages.push(JSON.parse(String(e.data))));
    return { ws, messages, closed };
  }

  it.each([
    { name: "flow, OPRA agreement withdrawn", path: "/v1/flow/stream/ws", query: "ticker=SPY", change: { opraAgreement: false }, reason: "access_withdrawn" },
    { name: "positioning, plan without positioning", path: "/v1/stream/ws", query: "symbols=SPY", change: { plan: "flow" }, reason: "access_withdrawn" },
    {
      name: "volatility, plan without volatility",
      path: "/v1/vol/stream/ws",
      query: "symbols=SPY&modules=iv",
      change: { plan: "index-etf" },
      reason: "access_withdrawn",
    },
    { name: "flow, account suspended", path: "/v1/flow/stream/ws", query: "ticker=SPY", change: { status: "suspended" }, reason: "account_suspended" },
  ] as { name: string; path: string; query: string; change: UpdateAccountInput; reason: string }[])(
    "$name: closed $reason, close code 1000, nothing billed after",
    async (c) => {
      const { accountId, key } = newAccount();
      const s = connect(c.path, c.query, key);
      try {
        await until(
          () => s.messages.some((m) => m.event === "connected"),
          () => `got ${s.messages.map((m) => m.event)}`,
          20_000,
        );
        accounts.updateAccount(accountId, c.change);
        await until(
          () => s.messages.some((m) => m.event === "closed"),
          () => `got ${s.messages.map((m) => m.event)}`,
          PROMPT_MS,
        );
        expect(s.messages.find((m) => m.event === "closed")!.data).toMatchObject({ reason: c.reason, reconnectable: false });
        expect(await s.closed).toBe(1000);
        await expectNothingBilledAfter(accountId, () => s.messages);
      } finally {
        s.ws.close();
      }
    },
    60_000,
  );

  it("flow, key revoked: closed key_revoked", async () => {
    const created = newAccount();
    const s = connect("/v1/flow/stream/ws", "ticker=SPY", created.key);
    try {
      await until(
        () => s.messages.some((m) => m.event === "connected"),
        () => `got ${s.messages.map((m) => m.event)}`,
        20_000,
      );
      accounts.revokeKey(created.keyId);
      await until(
        () => s.messages.some((m) => m.event === "closed"),
        () => `got ${s.messages.map((m) => m.event)}`,
        PROMPT_MS,
      );
      expect(s.messages.find((m) => m.event === "closed")!.data.reason).toBe("key_revoked");
      expect(await s.closed).toBe(1000);
    } finally {
      s.ws.close();
    }
  }, 60_000);
});
