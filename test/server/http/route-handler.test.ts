import { describe, expect, it } from "vitest";
import type { RateDecision, RateLimiter } from "../../../server/accounts/types";
import { makeHarness } from "../_harness";

/** A rate limiter whose answers the test gives, one per request, in arrival order (a slow shared limiter). */
function heldRateLimiter() {
  const waiting: ((allowed: boolean) => void)[] = [];
  const limiter: RateLimiter = {
    take: (_key, limit) =>
      new Promise<RateDecision>((resolve) => waiting.push((allowed) => resolve({ allowed, limit, remaining: allowed ? limit - 1 : 0, resetSec: 60 }))),
  };
  const turns = async () => {
    for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
  };
  return { limiter, waiting, turns };
}

describe("auth rules (spec, Authentication)", () => {
  it("401 unauthorized naming the Authorization field when no header is sent", async () => {
    const h = makeHarness();
    const res = await h.get("/v1/account", { key: null });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error.code).toBe("unauthorized");
    expect(body.error.message).toMatch(/authorization/i);
  });

  it("X-API-Key and query keys are not read (401)", async () => {
    const h = makeHarness();
    expect((await h.get("/v1/account", { key: null, headers: { "X-API-Key": h.key } })).status).toBe(401);
    expect((await h.get(`/v1/account?apiKey=${h.key}&key=${h.key}&api_key=${h.key}`, { key: null })).status).toBe(401);
  });

  it("Bearer and bare keys are both accepted", async () => {
    const h = makeHarness();
    expect((await h.get("/v1/account")).status).toBe(200);
    expect((await h.get("/v1/account", { headers: { Authorization: h.key } })).status).toBe(200);
  });

  it("unknown and revoked keys get 403 forbidden with identical bodies", async () => {
    const h = makeHarness();
    const unknown = await h.get("/v1/account", { key: "osk_live_doesnotexist000000000000000000" });
    const { keyId, key } = h.accounts.createKey(h.accountId);
    h.accounts.revokeKey(keyId);
    const revoked = await h.get("/v1/account", { key });
    expect(unknown.status).toBe(403);
    expect(revoked.status).toBe(403);
    expect(await unknown.json()).toEqual(await revoked.json());
  });

  it("suspended and blocked accounts get their codes", async () => {
    const h = makeHarness();
    h.accounts.updateAccount(h.accountId, { status: "suspended" });
    expect((await (await h.get("/v1/heatmap?symbols=SPY")).json()).error.code).toBe("account_suspended");
    h.accounts.updateAccount(h.accountId, { status: "blocked" });
    expect((await (await h.get("/v1/heatmap?symbols=SPY")).json()).error.code).toBe("account_blocked");
  });

  it("logs never contain the key", async () => {
    const h = makeHarness();
    await h.get(`/v1/heatmap?symbols=SPY&apiKey=${h.key}`);
    await h.get(`/nope/${h.key}`.slice(0, 10));
    const text = JSON.stringify(h.logs);
    expect(text).not.toContain(h.key);
    expect(h.logs.some((l) => l.route === "/v1/heatmap" && l.status === 200)).toBe(true);
  });
});

describe("charging and refunds (spec, Credits and Charging on failure)", () => {
  it("a success debits the cost and says the balance", async () => {
    const h = makeHarness({ credits: 100 });
    const res = await h.get("/v1/heatmap?symbols=SPY");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe("99");
    expect(h.accounts.balance(h.accountId)).toBe(99);
    const hist = await h.get("/v1/historical?symbols=SPY&at=2024-03-05T15:00:00Z");
    expect(hist.status).toBe(200);
    expect(hist.headers.get("x-credits-remaining")).toBe("94");
  });

  it("a 404 after the debit is refunded and X-Credits-Remaining includes the refund", async () => {
    const h = makeHarness({ credits: 100 });
    const res = await h.get("/v1/heatmap?symbols=ZZZZQ");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("symbol_not_found");
    expect(res.headers.get("x-credits-remaining")).toBe("100");
    expect(h.accounts.balance(h.accountId)).toBe(100);
    const kinds = h.accounts.ledger(h.accountId).map((e) => e.kind);
    expect(kinds.filter((k) => k === "debit").length).toBe(1);
    expect(kinds.filter((k) => k === "refund").length).toBe(1);
    for (const row of h.accounts.verifyLedger()) expect(row.balance).toBe(row.ledgerSum);
  });

  it("a 400 is not charged and still carries X-Credits-Remaining", async () => {
    const h = makeHarness({ credits: 7 });
    const res = await h.get("/v1/heatmap?symbols=SPY&metric=theta");
    expect(res.status).toBe(400);
    expect(res.headers.get("x-credits-remaining")).toBe("7");
  });

  it("402 insufficient_credits when the balance is below the cost", async () => {
    const h = makeHarness({ credits: 4 });
    const res = await h.get("/v1/historical?symbols=SPY&at=2024-03-05T15:00:00Z");
    expect(res.status).toBe(402);
    expect((await res.json()).error.code).toBe("insufficient_credits");
    expect(res.headers.get("x-credits-remaining")).toBe("4");
    expect(h.accounts.balance(h.accountId)).toBe(4);
  });

  it("free routes do not charge", async () => {
    const h = makeHarness({ credits: 3 });
    const acct = await h.get("/v1/account");
    const body = await acct.json();
    expect(body.data.creditsBalance).toBe(3);
    expect(body.data.limits.symbolsPerHeatmapCall).toBeLessThanOrEqual(10);
    expect((await h.get("/v1/symbols")).status).toBe(200);
    expect(h.accounts.balance(h.accountId)).toBe(3);
  });
});

describe("rate limit (spec, Rate and concurrency)", () => {
  it("headers on every response, 429 rate_limited without Retry-After past the limit", async () => {
    const h = makeHarness({ plan: "invite" });
    const limit = (await (await h.get("/v1/account")).json()).data.limits.requestsPerMinute as number;
    const paths = ["/v1/account", "/v1/heatmap?symbols=SPY", "/v1/heatmap?metric=x", "/nope", "/v1/symbols"];
    let last: Response | null = null;
    for (let i = 1; i < limit; i++) {
      last = await h.get(paths[i % paths.length]);
      expect(last.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(last.headers.get("x-ratelimit-remaining")).toBe(String(limit - 1 - i));
      // Sliding window: the first request of this run frees its slot 60 s after it was made.
      expect(Number(last.headers.get("x-ratelimit-reset"))).toBe(Math.ceil(h.wall.ms / 1000) + 60);
    }
    const over = await h.get("/v1/account");
    expect(over.status).toBe(429);
    expect((await over.json()).error.code).toBe("rate_limited");
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(over.headers.get("retry-after")).toBeNull();
    // Counted across hosts: the flow alias and the price host share the key's window.
    expect((await h.get("/flow-alias/v1/flow/openapi.json")).headers.get("x-ratelimit-limit")).not.toBeNull();
    expect((await h.get("/atlas/v1/nothing")).status).toBe(429);
    h.wall.ms += 60_000;
    expect((await h.get("/v1/account")).status).toBe(200);
  });

  it("nothing is charged before the rate limit admits a call; a refusal answers 429 and charges nothing (docs/architecture.md#admission-overlap)", async () => {
    const held = heldRateLimiter();
    const h = makeHarness({ credits: 100, rateLimiter: held.limiter });
    let queued = 0;
    const debitAsync = h.accounts.debitAsync.bind(h.accounts);
    h.accounts.debitAsync = (...a: Parameters<typeof debitAsync>) => {
      queued++;
      return debitAsync(...a);
    };
    const admitted = h.get("/v1/heatmap?symbols=SPY");
    const refused = h.get("/v1/heatmap?symbols=SPY");
    await held.turns();
    // Both validated and their debits queued while the answers are still coming; no ledger row yet.
    expect(held.waiting).toHaveLength(2);
    expect(queued).toBe(2);
    expect(h.accounts.ledger(h.accountId).filter((e) => e.kind === "debit")).toHaveLength(0);
    held.waiting[1]!(false);
    const no = await refused;
    expect(no.status).toBe(429);
    expect((await no.json()).error.code).toBe("rate_limited");
    expect(h.accounts.ledger(h.accountId).filter((e) => e.kind === "debit")).toHaveLength(0);
    held.waiting[0]!(true);
    const yes = await admitted;
    expect(yes.status).toBe(200);
    expect(yes.headers.get("x-ratelimit-remaining")).not.toBeNull();
    expect(h.accounts.balance(h.accountId)).toBe(99);
    expect(h.accounts.ledger(h.accountId).filter((e) => e.kind === "debit")).toHaveLength(1);
  });

  it("a refused rate limit wins over an invalid query, as when the check came first", async () => {
    const held = heldRateLimiter();
    const h = makeHarness({ credits: 100, rateLimiter: held.limiter });
    const invalid = h.get("/v1/heatmap?symbols=SPY&metric=theta");
    await held.turns();
    held.waiting[0]!(false);
    const res = await invalid;
    expect(res.status).toBe(429);
    expect((await res.json()).error.code).toBe("rate_limited");
    // As when the check came first: no balance read for a refused call.
    expect(res.headers.get("x-credits-remaining")).toBeNull();
    expect(h.accounts.balance(h.accountId)).toBe(100);
  });

  it("an in-flight slot is not taken before the rate limit admits the call", async () => {
    const held = heldRateLimiter();
    let acquired = 0;
    const h = makeHarness({ credits: 100, rateLimiter: held.limiter });
    const tryAcquire = h.app.services.concurrency.tryAcquire.bind(h.app.services.concurrency);
    h.app.services.concurrency.tryAcquire = (...a: Parameters<typeof tryAcquire>) => {
      acquired++;
      return tryAcquire(...a);
    };
    const replay = h.get("/v1/historical?symbols=SPY&at=2024-03-05T15:00:00Z");
    await held.turns();
    expect(acquired).toBe(0);
    held.waiting[0]!(false);
    expect((await replay).status).toBe(429);
    expect(acquired).toBe(0);
  });

  it("requests without a key carry rate-limit headers too (counted per IP)", async () => {
    const h = makeHarness();
    const res = await h.get("/v1/account", { key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("119");
  });
});

describe("symbols per call (spec, Limits)", () => {
  it("over limits.symbolsPerHeatmapCall is 400 invalid_parameter, never truncated", async () => {
    const h = makeHarness({ credits: 50 });
    const eleven = "SPY,QQQ,IWM,AAPL,MSFT,NVDA,AMZN,META,TSLA,GOOGL,AMD";
    const res = await h.get(`/v1/heatmap?symbols=${eleven}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("invalid_parameter");
    expect(body.error.message).toContain("symbols");
    expect(h.accounts.balance(h.accountId)).toBe(50);
  });

  it("unknown symbols in a list are dropped", async () => {
    const h = makeHarness();
    const body = await (await h.get("/v1/heatmap?symbols=ZZZZQ,SPY")).json();
    expect(body.data.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(["SPY"]);
  });
});

describe("historical replays in flight (spec, Limits)", () => {
  it("a third concurrent replay gets 429 too_many_concurrent_requests with Retry-After and is not charged", async () => {
    const h = makeHarness({ credits: 100 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = h.market.chain.bind(h.market);
    h.market.chain = async (s, t) => {
      await gate;
      return slow(s, t);
    };
    const url = "/v1/historical?symbols=SPY&at=2024-03-05T15:00:00Z";
    const a = h.get(url);
    const b = h.get(url);
    await new Promise((r) => setTimeout(r, 20));
    const c = await h.get(url);
    expect(c.status).toBe(429);
    expect((await c.json()).error.code).toBe("too_many_concurrent_requests");
    expect(Number(c.headers.get("retry-after"))).toBeGreaterThan(0);
    release();
    expect((await a).status).toBe(200);
    expect((await b).status).toBe(200);
    expect(h.accounts.balance(h.accountId)).toBe(90);
    expect((await h.get(url)).status).toBe(200);
  });

  it("a client abort frees the slot at once", async () => {
    const h = makeHarness({ credits: 100 });
    const never = new Promise<never>(() => {});
    h.market.chain = async () => never;
    const url = "http://localhost/v1/historical?symbols=SPY&at=2024-03-05T15:00:00Z";
    const ctrls = [new AbortController(), new AbortController()];
    const pending = ctrls.map((c) => h.app.fetch(new Request(url, { ...h.auth(), signal: c.signal })));
    await new Promise((r) => setTimeout(r, 20));
    expect(h.app.services.concurrency.inUse(h.accountId, "historical")).toBe(2);
    ctrls.forEach((c) => {
      c.abort();
    });
    await Promise.all(pending);
    expect(h.app.services.concurrency.inUse(h.accountId, "historical")).toBe(0);
  });
});

describe("request time limit", () => {
  it("504 gateway_timeout, refunded", async () => {
    const h = makeHarness({ credits: 10, requestTimeoutMs: 30 });
    h.market.chain = () => new Promise(() => {});
    const res = await h.get("/v1/heatmap?symbols=SPY");
    expect(res.status).toBe(504);
    expect((await res.json()).error.code).toBe("gateway_timeout");
    expect(res.headers.get("x-credits-remaining")).toBe("10");
    expect(h.accounts.balance(h.accountId)).toBe(10);
  });
});
