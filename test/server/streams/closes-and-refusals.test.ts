// Every `closed` reason of the spec and every refused open, on a real listening server. A refused
// open is a plain JSON error (never a 200 that closes) and is refunded like any 4xx/5xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors";
import type { AccountService } from "../../../server/accounts/types";
import { openRaw } from "./_sse";
import { startStreamServer, type StreamServer } from "./_server";

describe("closed reasons", () => {
  let s: StreamServer;
  const fault = { debit: false, revalidate: false };
  beforeAll(async () => {
    s = await startStreamServer({
      speed: 600,
      wrapAccounts: (a) =>
        ({
          ...a,
          authenticate: (h) => a.authenticate(h),
          revalidate: (p) => {
            if (fault.revalidate) throw new Error("disk I/O error");
            return a.revalidate(p);
          },
          debit: (p, c, r) => {
            if (fault.debit && r.requestId.includes(".m")) {
              throw new ApiError(503, "credit_check_failed", "The credit balance could not be verified.");
            }
            return a.debit(p, c, r);
          },
          // minute debits go through group commit: the same fault there
          debitAsync: (p, c, r) => {
            if (fault.debit && r.requestId.includes(".m")) {
              return Promise.reject(new ApiError(503, "credit_check_failed", "The credit balance could not be verified."));
            }
            return a.debitAsync(p, c, r);
          },
          refund: (p, c, r) => a.refund(p, c, r),
          balance: (id) => a.balance(id),
          assertEntitled: (p, e, sy) => a.assertEntitled(p, e, sy),
          accountView: (p) => a.accountView(p),
          close: () => a.close(),
        }) satisfies AccountService,
    });
  });
  afterAll(() => s.close());

  async function closedOf(key: string, query = "symbols=SPY") {
    const raw = await openRaw(s.url, key, query);
    expect(raw.status).toBe(200);
    const closed = await raw.waitFor((f) => f.event === "closed", 15_000);
    await raw.ended;
    return { raw, closed };
  }

  it("insufficient_credits: 3 credits pay the open and two minutes, then the stream closes", async () => {
    const { key } = s.accounts.createAccount({ plan: "top", credits: 3 });
    const { raw, closed } = await closedOf(key);
    expect(raw.frames.filter((f) => f.event === "credits").map((f) => f.data.remaining)).toEqual([1, 0]);
    expect(closed.data).toMatchObject({ reason: "insufficient_credits", reconnectable: false });
    expect(raw.frames.filter((f) => !f.ping).at(-1)).toBe(closed);
  });

  it("daily_cap_reached and monthly_cap_reached", async () => {
    const daily = s.accounts.createAccount({ plan: "top", credits: 1000, dailyCapCredits: 2 });
    expect((await closedOf(daily.key)).closed.data.reason).toBe("daily_cap_reached");
    const monthly = s.accounts.createAccount({ plan: "top", credits: 1000, monthlyCapCredits: 4 });
    const m = await closedOf(monthly.key);
    expect(m.closed.data.reason).toBe("monthly_cap_reached");
    expect(m.raw.frames.filter((f) => f.event === "credits").length).toBe(3);
  });

  it("key_revoked promptly after the revocation", async () => {
    const { key, keyId } = s.accounts.createAccount({ plan: "top", credits: 1000 });
    const raw = await openRaw(s.url, key, "symbols=SPY");
    await raw.waitFor((f) => f.event === "snapshot");
    s.accounts.revokeKey(keyId);
    // Keys are re-validated every 100 ms here: the wait gives up after 2 s.
    const closed = await raw.waitFor((f) => f.event === "closed", 2000);
    expect(closed.data.reason).toBe("key_revoked");
  });

  it("account_suspended promptly (a blocked account too)", async () => {
    for (const status of ["suspended", "blocked"] as const) {
      const { key, accountId } = s.accounts.createAccount({ plan: "top", credits: 1000 });
      const raw = await openRaw(s.url, key, "symbols=AAPL");
      await raw.waitFor((f) => f.event === "snapshot");
      s.accounts.updateAccount(accountId, { status });
      const closed = await raw.waitFor((f) => f.event === "closed", 2000);
      expect(closed.data.reason).toBe("account_suspended");
    }
  });

  it("credit_check_failed when a debit or the re-check cannot read the store (the one reconnectable reason)", async () => {
    const { key } = s.accounts.createAccount({ plan: "top", credits: 1000 });
    fault.debit = true;
    try {
      const { closed } = await closedOf(key);
      expect(closed.data).toMatchObject({ reason: "credit_check_failed", reconnectable: true });
    } finally {
      fault.debit = false;
    }
    const raw = await openRaw(s.url, key, "symbols=SPY");
    await raw.waitFor((f) => f.event === "connected");
    fault.revalidate = true;
    try {
      const closed = await raw.waitFor((f) => f.event === "closed", 2000);
      expect(closed.data.reason).toBe("credit_check_failed");
    } finally {
      fault.revalidate = false;
    }
  });
});

describe("refused opens are JSON errors, refunded", () => {
  let s: StreamServer;
  beforeAll(async () => {
    s = await startStreamServer({ speed: 60, tuning: { maxConnections: 8 } });
  });
  afterAll(() => s.close());

  it("401 without a key, 403 with a bad one", async () => {
    const a = await openRaw(s.url, null, "symbols=SPY");
    expect([a.status, a.body.error.code]).toEqual([401, "unauthorized"]);
    const b = await openRaw(s.url, "osk_live_nope", "symbols=SPY");
    expect([b.status, b.body.error.code]).toEqual([403, "forbidden"]);
  });

  it("402 insufficient_credits when the balance is below one credit per symbol", async () => {
    const { key, accountId } = s.accounts.createAccount({ plan: "top", credits: 1 });
    const r = await openRaw(s.url, key, "symbols=SPY,AAPL");
    expect([r.status, r.body.error.code]).toEqual([402, "insufficient_credits"]);
    expect(s.accounts.getAccount(accountId).creditsBalance).toBe(1);
  });

  it("400 invalid_parameter over 10 symbols per connection, 400 missing_parameter without symbols", async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `S${i}`).join(",");
    const r = await openRaw(s.url, s.key, `symbols=${eleven}`);
    expect([r.status, r.body.error.code]).toEqual([400, "invalid_parameter"]);
    const m = await openRaw(s.url, s.key, "metric=gamma");
    expect([m.status, m.body.error.code]).toEqual([400, "missing_parameter"]);
    const bad = await openRaw(s.url, s.key, "symbols=SPY&metric=theta");
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_parameter"]);
  });

  it("404 symbol_not_found when no requested symbol is known", async () => {
    const r = await openRaw(s.url, s.key, "symbols=ZZZZ");
    expect([r.status, r.body.error.code]).toEqual([404, "symbol_not_found"]);
  });

  it("429 stream_limit_reached with Retry-After past limits.streamSymbolsConcurrent (25), refunded", async () => {
    const { key, accountId } = s.accounts.createAccount({ plan: "top", credits: 1000 });
    const open = [];
    for (let i = 0; i < 6; i++) open.push(await openRaw(s.url, key, "symbols=SPY,AAPL,SPXW,SPX"));
    expect(open.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const before = s.accounts.getAccount(accountId).creditsBalance;
    const refused = await openRaw(s.url, key, "symbols=SPY,AAPL");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("stream_limit_reached");
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(Number(refused.headers.get("x-credits-remaining"))).toBe(before);
    expect(s.accounts.getAccount(accountId).creditsBalance).toBe(before);
    // a stream that ends frees its symbols at once
    open[0].abort();
    await new Promise((r) => setTimeout(r, 100));
    const again = await openRaw(s.url, key, "symbols=SPY");
    expect(again.status).toBe(200);
    for (const r of [...open, again]) r.abort();
  });

  it("503 stream_capacity past the server-wide connection cap", async () => {
    await new Promise((r) => setTimeout(r, 100));
    const held = [];
    for (let i = 0; i < 8; i++) {
      const { key } = s.accounts.createAccount({ plan: "top", credits: 100 });
      held.push(await openRaw(s.url, key, "symbols=SPY"));
    }
    expect(held.every((r) => r.status === 200)).toBe(true);
    const r = await openRaw(s.url, s.key, "symbols=SPY");
    expect([r.status, r.body.error.code, r.headers.get("retry-after")]).toEqual([503, "stream_capacity", "5"]);
    for (const h of held) h.abort();
  });
});
