import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { openSqlite } from "../../../server/sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors";
import { caught } from "../../_helpers/thrown";
import { accountsDbPath, openAccountService, secondsUntilEtMidnight, type AccountPrincipal, type SqliteAccountService } from "../../../server/accounts";

let dir: string;
let nowMs: number;
let svc: SqliteAccountService;
let seq = 0;

const ref = (route = "/v1/heatmap") => ({ requestId: `req-${++seq}`, route });

function ledgerSum(accountId: string): number {
  return (svc.db.prepare("SELECT coalesce(sum(delta), 0) AS s FROM ledger WHERE account_id = ?").get(accountId) as { s: number }).s;
}

function grantRows(accountId: string): number {
  return (svc.db.prepare("SELECT count(*) AS n FROM ledger WHERE account_id = ? AND kind = 'grant'").get(accountId) as { n: number }).n;
}

function account(
  plan: "top" | "api" | "index-etf" | "flow" | "invite",
  init: Parameters<SqliteAccountService["createAccount"]>[0] extends infer T ? Partial<T> : never = {},
): AccountPrincipal {
  const { key } = svc.createAccount({ plan, ...init });
  return svc.authenticate(key);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "osc-ledger-"));
  nowMs = Date.parse("2024-05-15T15:00:00Z");
  svc = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs });
});

afterEach(() => {
  svc.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("debit and refund", () => {
  it("debits atomically, never below zero, with X-Credits-Remaining on 402", () => {
    const p = account("top", { credits: 10, dailyCapCredits: null });
    expect(svc.debit(p, 4, ref()).balance).toBe(6);
    expect(svc.debit(p, 6, ref()).balance).toBe(0);
    const e = caught(ApiError, () => svc.debit(p, 1, ref()));
    expect(e).toMatchObject({ status: 402, code: "insufficient_credits" });
    expect(e.headers["X-Credits-Remaining"]).toBe("0");
    expect(svc.balance(p.accountId)).toBe(0);
    expect(ledgerSum(p.accountId)).toBe(0);
  });

  it("a refund is a compensating entry, capped at what the request was charged", () => {
    const p = account("api", { credits: 100, dailyCapCredits: null });
    const r = ref();
    const d = svc.debit(p, 5, r);
    expect(d.balance).toBe(95);
    const first = svc.refund(p, 5, r);
    expect(first.balance).toBe(100);
    expect(first.ledgerId).toBeGreaterThan(d.ledgerId!);
    expect(svc.refund(p, 5, r)).toEqual({ balance: 100, ledgerId: null }); // twice is harmless
    expect(svc.refund(p, 5, ref())).toEqual({ balance: 100, ledgerId: null }); // never charged
    const rows = svc.ledger(p.accountId, { limit: 2 });
    expect(rows.map((x) => [x.kind, x.delta, x.balanceAfter, x.requestId])).toEqual([
      ["refund", 5, 100, r.requestId],
      ["debit", -5, 95, r.requestId],
    ]);
    expect(ledgerSum(p.accountId)).toBe(100);
  });

  it("a zero-credit debit writes nothing", () => {
    const p = account("top", { credits: 7 });
    expect(svc.debit(p, 0, ref())).toEqual({ balance: 7, ledgerId: null });
  });

  it("store failures are 503 credit_check_failed and charge nothing", () => {
    const p = account("top", { credits: 50, dailyCapCredits: null });
    const fast = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs, busyTimeoutMs: 20 });
    const locker = openSqlite(accountsDbPath(dir));
    try {
      locker.exec("BEGIN EXCLUSIVE");
      const e = caught(ApiError, () => fast.debit(p, 5, ref()));
      expect(e).toMatchObject({ status: 503, code: "credit_check_failed" });
      expect(e.headers["Retry-After"]).toBeDefined();
      locker.exec("ROLLBACK");
      expect(fast.balance(p.accountId)).toBe(50);
      fast.close();
      expect(caught(ApiError, () => fast.debit(p, 5, ref())).code).toBe("credit_check_failed");
    } finally {
      locker.close();
      fast.close();
    }
  });
});

describe("caps", () => {
  it("daily cap: refused once the ET day's net spend would pass it, Retry-After to midnight ET", () => {
    nowMs = Date.parse("2024-06-03T23:59:30-04:00");
    const p = account("top", { credits: 1000, dailyCapCredits: 10 });
    svc.debit(p, 6, ref());
    const r = ref();
    svc.debit(p, 4, r);
    const e = caught(ApiError, () => svc.debit(p, 1, ref()));
    expect(e).toMatchObject({ status: 402, code: "daily_cap_reached" });
    expect(e.headers["Retry-After"]).toBe("30");
    expect(e.details.retry_after).toBe(30);
    expect(e.headers["X-Credits-Remaining"]).toBe("990");
    // A refunded request does not count against the cap.
    svc.refund(p, 4, r);
    expect(svc.debit(p, 3, ref()).balance).toBe(991);
    // The next ET day starts at 04:00Z (EDT).
    nowMs = Date.parse("2024-06-04T04:00:00Z");
    expect(svc.debit(p, 10, ref()).balance).toBe(981);
  });

  it.each([
    // Spring forward: 2024-03-10 has 23 hours in ET; at 00:30 EST, 22.5 hours remain.
    ["2024-03-10T05:30:00Z", 22.5 * 3600],
    // Fall back: 2024-11-03 has 25 hours in ET; at 00:30 EDT, 24.5 hours remain.
    ["2024-11-03T04:30:00Z", 24.5 * 3600],
    // An ordinary winter day: 12:00 EST -> 12 hours.
    ["2024-01-10T17:00:00Z", 12 * 3600],
  ])("Retry-After across DST at %s is %i s", (iso, seconds) => {
    nowMs = Date.parse(iso);
    expect(secondsUntilEtMidnight(nowMs)).toBe(seconds);
    const p = account("api", { credits: 100, dailyCapCredits: 1 });
    svc.debit(p, 1, ref());
    expect(caught(ApiError, () => svc.debit(p, 1, ref())).headers["Retry-After"]).toBe(String(seconds));
  });

  it("monthly cap: the account's own spend cap over the ET month, raised through another connection", () => {
    nowMs = Date.parse("2024-05-31T23:00:00-04:00");
    const p = account("top", { credits: 1000, dailyCapCredits: null, monthlyCapCredits: 20 });
    svc.debit(p, 20, ref());
    const e = caught(ApiError, () => svc.debit(p, 1, ref()));
    expect(e).toMatchObject({ status: 402, code: "monthly_cap_reached" });
    const cli = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs });
    cli.updateAccount(p.accountId, { monthlyCapCredits: 25 });
    cli.close();
    expect(svc.debit(p, 5, ref()).balance).toBe(975);
    expect(caught(ApiError, () => svc.debit(p, 1, ref())).code).toBe("monthly_cap_reached");
    nowMs = Date.parse("2024-06-01T00:00:00-04:00"); // new ET month
    expect(() => svc.debit(p, 1, ref())).not.toThrow();
  });

  it("a cap of none removes the limit", () => {
    const p = account("invite", { credits: 100_000, dailyCapCredits: null });
    expect(svc.debit(p, 90_000, ref()).balance).toBe(10_000);
  });
});

describe("grants", () => {
  it("top tops up to 100000 on the 1st (ET), once per month, across connections", () => {
    nowMs = Date.parse("2024-01-15T12:00:00-05:00");
    const p = account("top", { dailyCapCredits: null });
    expect(svc.balance(p.accountId)).toBe(100_000);
    svc.debit(p, 30_000, ref());
    nowMs = Date.parse("2024-01-31T23:59:59-05:00"); // still January in ET (04:59:59Z Feb 1)
    expect(svc.balance(p.accountId)).toBe(70_000);
    nowMs = Date.parse("2024-02-01T00:00:00-05:00");
    const other = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs });
    try {
      expect(other.balance(p.accountId)).toBe(100_000);
      expect(svc.balance(p.accountId)).toBe(100_000);
      svc.debit(p, 1, ref());
      expect(other.balance(p.accountId)).toBe(99_999);
    } finally {
      other.close();
    }
    expect(grantRows(p.accountId)).toBe(2);
    // Purchased credits above the allowance are kept: the March grant adds nothing.
    svc.updateAccount(p.accountId, { addCredits: 50_000 });
    nowMs = Date.parse("2024-03-01T09:00:00-05:00");
    expect(svc.balance(p.accountId)).toBe(149_999);
    expect(grantRows(p.accountId)).toBe(3);
    expect(ledgerSum(p.accountId)).toBe(149_999);
  });

  it("a grant due at the first debit of a month survives that debit's 402", () => {
    nowMs = Date.parse("2024-01-15T12:00:00-05:00");
    const p = account("api", { credits: 0, dailyCapCredits: null });
    nowMs = Date.parse("2024-02-02T12:00:00-05:00");
    expect(caught(ApiError, () => svc.debit(p, 100_001, ref())).code).toBe("insufficient_credits");
    expect(svc.balance(p.accountId)).toBe(100_000);
    expect(grantRows(p.accountId)).toBe(2);
  });

  it("index-etf and flow get 5000 once; invite too", () => {
    for (const plan of ["index-etf", "flow", "invite"] as const) {
      nowMs = Date.parse("2024-01-15T12:00:00-05:00");
      const p = account(plan);
      expect(svc.balance(p.accountId)).toBe(5000);
      svc.debit(p, 1000, ref());
      nowMs = Date.parse("2024-02-15T12:00:00-05:00");
      expect(svc.balance(p.accountId)).toBe(4000);
      expect(grantRows(p.accountId)).toBe(1);
    }
  });

  it("--credits on create replaces the first grant with an exact starting balance", () => {
    const p = account("top", { credits: 10 });
    expect(svc.balance(p.accountId)).toBe(10);
    expect(ledgerSum(p.accountId)).toBe(10);
  });
});

describe("balance always equals the ledger's sum", () => {
  type Op =
    | { t: "debit"; credits: number }
    | { t: "refund"; back: number; credits: number }
    | { t: "set"; credits: number }
    | { t: "add"; credits: number }
    | { t: "advanceDays"; days: number }
    | { t: "other" }; // the same ops through a second connection

  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ t: fc.constant("debit" as const), credits: fc.integer({ min: 1, max: 60_000 }) }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("refund" as const), back: fc.nat(5), credits: fc.integer({ min: 1, max: 60_000 }) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant("set" as const), credits: fc.nat(200_000) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant("add" as const), credits: fc.nat(50_000) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant("advanceDays" as const), days: fc.integer({ min: 1, max: 40 }) }) },
    { weight: 1, arbitrary: fc.constant({ t: "other" as const }) },
  );

  it("over random operation sequences, and matches a simple model", () => {
    fc.assert(
      fc.property(fc.constantFrom("top", "index-etf"), fc.array(op, { maxLength: 25 }), (plan, ops) => {
        nowMs = Date.parse("2024-01-20T12:00:00-05:00");
        const p = account(plan as "top" | "index-etf", { dailyCapCredits: null });
        const other = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs, durability: "normal" });
        let model = plan === "top" ? 100_000 : 5000;
        let month = "2024-01";
        const charged: { requestId: string; left: number }[] = [];
        let useOther = false;
        try {
          for (const o of ops) {
            const s = useOther ? other : svc;
            if (o.t === "debit") {
              const r = ref();
              if (model >= o.credits) {
                const balance = s.debit(p, o.credits, r).balance;
                model -= o.credits;
                expect(balance).toBe(model);
                charged.push({ requestId: r.requestId, left: o.credits });
              } else {
                expect(caught(ApiError, () => s.debit(p, o.credits, r)).code).toBe("insufficient_credits");
              }
            } else if (o.t === "refund") {
              const target = charged[charged.length - 1 - o.back];
              if (target) {
                const amount = Math.min(o.credits, target.left);
                target.left -= amount;
                const balance = s.refund(p, o.credits, { requestId: target.requestId, route: "/v1/heatmap" }).balance;
                model += amount;
                expect(balance).toBe(model);
              }
            } else if (o.t === "set") {
              s.updateAccount(p.accountId, { credits: o.credits });
              model = o.credits;
            } else if (o.t === "add") {
              s.updateAccount(p.accountId, { addCredits: o.credits });
              model += o.credits;
            } else if (o.t === "advanceDays") {
              // Stay at 12:00 ET so the model's month arithmetic is exact.
              nowMs += o.days * 86_400_000;
            } else {
              useOther = !useOther;
            }
            // The clock sits at 12:00 ET, so UTC-5 gives the ET date whatever the DST offset.
            const etMonth = new Date(nowMs - 5 * 3600_000).toISOString().slice(0, 7);
            if (plan === "top" && etMonth !== month) {
              model = Math.max(model, 100_000); // the month's grant tops up on the next touch
              month = etMonth;
            }
            expect(svc.balance(p.accountId)).toBe(model);
            expect(ledgerSum(p.accountId)).toBe(model);
          }
          expect(svc.verifyLedger()).toEqual([]);
        } finally {
          other.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
