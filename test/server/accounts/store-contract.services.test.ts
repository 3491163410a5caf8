// The account-service contract (AccountAuth, CreditLedger, AccountAdmin) run against both stores:
// the embedded SQLite file and PostgreSQL (a real server started for this file). Every call is
// awaited, as the server does, so the same expectations hold whichever store answers.
// SQLite-only properties (file modes, pragmas, the sync group committer) stay in the other files here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors";
import { openAccountStore, type AccountStore } from "../../../server/accounts/open-store";
import { PLAN_DEFINITIONS, secondsUntilEtMidnight, type Plan, type Principal } from "../../../server/accounts";
import type { CreateAccountInput } from "../../../server/accounts/admin-types";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";

/** The error a call rejects with, asserted to be an ApiError. */
async function rejected(fn: () => unknown): Promise<ApiError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected an ApiError");
}

interface Harness {
  svc: AccountStore;
  /** The store's clock (ms), set by tests. */
  clock: { now: number };
  close(): Promise<void>;
}

let pg: PostgresProcess | null = null;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

const stores: [string, () => Promise<Harness>][] = [
  [
    "sqlite",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "osc-contract-"));
      const clock = { now: Date.parse("2024-05-15T15:00:00Z") };
      const svc = await openAccountStore({ storeUrl: undefined, dataDir: dir, clock: () => clock.now });
      return {
        svc,
        clock,
        close: async () => {
          await svc.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    "postgres",
    async () => {
      const clock = { now: Date.parse("2024-05-15T15:00:00Z") };
      const svc = await openAccountStore({ storeUrl: pg!.url, dataDir: "/nonexistent", clock: () => clock.now });
      return { svc, clock, close: async () => void (await svc.close()) };
    },
  ],
];

describe.each(stores)("account store contract: %s", (_name, open) => {
  let h: Harness;
  let seq = 0;
  const ref = (route = "/v1/heatmap") => ({ requestId: `req-${_name}-${++seq}`, route });
  beforeAll(async () => {
    h = await open();
  });
  afterAll(async () => {
    await h?.close();
  });
  async function account(plan: Plan, init: Partial<CreateAccountInput> = {}): Promise<Principal & { key: string }> {
    const { key } = await h.svc.createAccount({ plan, ...init });
    return { ...(await h.svc.authenticate(`Bearer ${key}`)), key };
  }
  const ledgerSum = async (accountId: string) => (await h.svc.getAccount(accountId)).ledgerSumCredits;

  it("authenticate: 401 without a key; one identical 403 for unknown, revoked and expired keys", async () => {
    for (const header of [null, "", "Bearer   "]) expect((await rejected(() => h.svc.authenticate(header))).status).toBe(401);
    const a = await account("top");
    const expiring = await h.svc.createKey(a.accountId, { expiresAtMs: h.clock.now + 1000 });
    const revoked = await h.svc.createKey(a.accountId);
    await h.svc.revokeKey(revoked.keyId);
    const unknown = await rejected(() => h.svc.authenticate("Bearer osk_live_" + "x".repeat(43)));
    const rev = await rejected(() => h.svc.authenticate(`Bearer ${revoked.key}`));
    expect((await h.svc.authenticate(expiring.key)).keyId).toBe(expiring.keyId);
    h.clock.now += 1000;
    const exp = await rejected(() => h.svc.authenticate(expiring.key));
    for (const e of [unknown, rev, exp])
      expect({ status: e.status, code: e.code, message: e.message }).toEqual({ status: 403, code: "forbidden", message: unknown.message });
    expect((await h.svc.revalidate(a)).keyId).toBe(a.keyId); // the account's first key still stands
  });

  it("suspended and blocked accounts get their own 403 codes; reactivation restores access; revalidate sees it", async () => {
    const a = await account("api");
    await h.svc.updateAccount(a.accountId, { status: "suspended" });
    expect((await rejected(() => h.svc.authenticate(a.key))).code).toBe("account_suspended");
    expect((await rejected(() => h.svc.revalidate(a))).code).toBe("account_suspended");
    await h.svc.updateAccount(a.accountId, { status: "blocked" });
    expect((await rejected(() => h.svc.authenticate(a.key))).code).toBe("account_blocked");
    await h.svc.updateAccount(a.accountId, { status: "active" });
    expect((await h.svc.authenticate(a.key)).accountId).toBe(a.accountId);
  });

  it("principalForGrant: the account's limits under the app's bucket; dies with the key", async () => {
    const a = await account("invite");
    const p = await h.svc.principalForGrant({ accountId: a.accountId, keyId: a.keyId, bucketId: "app_1" });
    expect(p).toMatchObject({ accountId: a.accountId, keyId: "app_1", plan: "invite", limits: PLAN_DEFINITIONS.invite.limits });
    const other = await account("top");
    expect((await rejected(() => h.svc.principalForGrant({ accountId: other.accountId, keyId: a.keyId, bucketId: "x" }))).code).toBe("forbidden");
    await h.svc.revokeKey(a.key);
    expect((await rejected(() => h.svc.principalForGrant({ accountId: a.accountId, keyId: a.keyId, bucketId: "x" }))).code).toBe("forbidden");
  });

  it("entitlements: flow plan reads flow only; flow needs the OPRA agreement", async () => {
    const flow = await account("flow");
    await h.svc.assertEntitled(flow, "flow", ["SPY"]);
    expect((await rejected(() => h.svc.assertEntitled(flow, "positioning", ["SPY"]))).code).toBe("not_entitled");
    const unsigned = await account("top", { opraAgreement: false });
    expect((await rejected(() => h.svc.assertEntitled(unsigned, "flow"))).code).toBe("opra_agreement_required");
    await h.svc.assertEntitled(unsigned, "positioning", ["SPY"]);
  });

  it("active keys are limited per plan; revoking is idempotent by key or id", async () => {
    const a = await account("invite"); // 2 keys
    const second = await h.svc.createKey(a.accountId);
    const e = await rejected(() => h.svc.createKey(a.accountId));
    expect([e.status, e.code]).toEqual([409, "key_limit_reached"]);
    expect(await h.svc.revokeKey(second.key)).toEqual({ keyId: second.keyId, accountId: a.accountId, alreadyRevoked: false });
    expect(await h.svc.revokeKey(second.keyId)).toEqual({ keyId: second.keyId, accountId: a.accountId, alreadyRevoked: true });
    expect((await rejected(() => h.svc.revokeKey("key_nope"))).code).toBe("key_not_found");
    await h.svc.createKey(a.accountId);
  });

  it("debits never go below zero; 402 carries X-Credits-Remaining; a refund is capped at what the request was charged", async () => {
    const p = await account("top", { credits: 10, dailyCapCredits: null });
    expect((await h.svc.debit(p, 4, ref())).balance).toBe(6);
    const r = ref();
    const d = await h.svc.debit(p, 6, r);
    expect(d.balance).toBe(0);
    const e = await rejected(() => h.svc.debit(p, 1, ref()));
    expect([e.status, e.code, e.headers["X-Credits-Remaining"]]).toEqual([402, "insufficient_credits", "0"]);
    const first = await h.svc.refund(p, 6, r);
    expect(first.balance).toBe(6);
    expect(first.ledgerId).toBeGreaterThan(d.ledgerId!);
    expect(await h.svc.refund(p, 6, r)).toEqual({ balance: 6, ledgerId: null });
    expect(await h.svc.refund(p, 6, ref())).toEqual({ balance: 6, ledgerId: null });
    expect(await h.svc.debit(p, 0, ref())).toEqual({ balance: 6, ledgerId: null });
    const rows = await h.svc.ledger(p.accountId, { limit: 2 });
    expect(rows.map((x) => [x.kind, x.delta, x.balanceAfter, x.requestId])).toEqual([
      ["refund", 6, 6, r.requestId],
      ["debit", -6, 0, r.requestId],
    ]);
    // Every field of the admin listing (server/accounts/ledger-rows.ts), newest first.
    expect(rows.map((x) => [x.accountId, x.tsMs, x.route])).toEqual([
      [p.accountId, h.clock.now, r.route],
      [p.accountId, h.clock.now, r.route],
    ]);
    expect(rows[0]!.id).toBe(first.ledgerId);
    expect(await ledgerSum(p.accountId)).toBe(6);
    expect((await rejected(() => h.svc.debit(p, -1, ref()))).code).toBe("invalid_parameter");
  });

  it("daily cap: refused once the ET day's net spend would pass it, Retry-After to midnight ET; refunds free it", async () => {
    const p = await account("top", { credits: 1000, dailyCapCredits: 10 });
    const r = ref();
    await h.svc.debit(p, 7, r);
    const e = await rejected(() => h.svc.debit(p, 4, ref()));
    expect([e.status, e.code]).toEqual([402, "daily_cap_reached"]);
    expect(e.headers["Retry-After"]).toBe(String(secondsUntilEtMidnight(h.clock.now)));
    expect(e.headers["X-Credits-Remaining"]).toBe("993");
    await h.svc.refund(p, 7, r);
    expect((await h.svc.debit(p, 10, ref())).balance).toBe(990);
    const view = await h.svc.accountView(p);
    expect(view.caps).toEqual({ dailyCredits: 10, monthlyCredits: null, usedTodayCredits: 10, usedThisMonthCredits: 10 });
    h.clock.now += 86_400_000; // the next ET day
    expect((await h.svc.debit(p, 10, ref())).balance).toBe(980);
  });

  it("monthly cap: 402 monthly_cap_reached until raised", async () => {
    const p = await account("api", { credits: 1000, dailyCapCredits: null, monthlyCapCredits: 5 });
    await h.svc.debit(p, 5, ref());
    expect((await rejected(() => h.svc.debit(p, 1, ref()))).code).toBe("monthly_cap_reached");
    await h.svc.updateAccount(p.accountId, { monthlyCapCredits: 6 });
    expect((await h.svc.debit(p, 1, ref())).balance).toBe(994);
  });

  it("top tops up to 100000 on the 1st (ET), once per month, and keeps purchased credits above it", async () => {
    h.clock.now = Date.parse("2024-05-20T15:00:00Z");
    const p = await account("top", { dailyCapCredits: null });
    expect(await h.svc.balance(p.accountId)).toBe(100_000);
    await h.svc.debit(p, 30_000, ref());
    h.clock.now = Date.parse("2024-06-01T03:59:00Z"); // still May 31 in ET
    expect(await h.svc.balance(p.accountId)).toBe(70_000);
    h.clock.now = Date.parse("2024-06-01T04:00:00Z"); // June 1, 00:00 ET
    expect((await h.svc.debit(p, 1, ref())).balance).toBe(99_999);
    expect(await h.svc.balance(p.accountId)).toBe(99_999);
    await h.svc.updateAccount(p.accountId, { addCredits: 5_000 });
    h.clock.now = Date.parse("2024-07-01T12:00:00Z");
    expect(await h.svc.balance(p.accountId)).toBe(104_999);
    const grants = (await h.svc.ledger(p.accountId, { limit: 100 })).filter((e) => e.kind === "grant");
    // Newest first: July (nothing: 104,999 is above the allowance), June (70,000 -> 100,000), May.
    expect(grants.map((g) => g.delta)).toEqual([0, 30_000, 100_000]);
    expect(await ledgerSum(p.accountId)).toBe(104_999);
  });

  it("index-etf gets 5000 once; --credits replaces the first grant with an exact balance", async () => {
    const p = await account("index-etf");
    expect(await h.svc.balance(p.accountId)).toBe(5000);
    h.clock.now += 40 * 86_400_000;
    expect(await h.svc.balance(p.accountId)).toBe(5000);
    const q = await account("flow", { credits: 12 });
    expect(await h.svc.balance(q.accountId)).toBe(12);
    expect(await ledgerSum(q.accountId)).toBe(12);
  });

  it("admin: find by label, list, show, update, verify", async () => {
    const label = `lbl-${_name}-${Date.now()}`;
    const { accountId } = await h.svc.createAccount({ plan: "api", label, credits: 50, requestsPerMinute: 999 });
    expect(await h.svc.findAccountByLabel(label)).toBe(accountId);
    expect(await h.svc.findAccountByLabel("no such label")).toBeNull();
    const d = await h.svc.updateAccount(accountId, { plan: "top", opraAgreement: false, dailyCapCredits: null, label: "renamed" });
    expect(d).toMatchObject({
      accountId,
      plan: "top",
      opraAgreement: false,
      dailyCapCredits: null,
      label: "renamed",
      requestsPerMinuteOverride: 999,
      creditsBalance: 50,
    });
    expect((await h.svc.listAccounts()).map((x) => x.accountId)).toContain(accountId);
    expect((await rejected(() => h.svc.getAccount("acct_nope"))).code).toBe("account_not_found");
    expect(await h.svc.verifyLedger()).toEqual([]);
  });

  it("64 concurrent group-committed debits against a 20-credit balance: exactly 20 succeed, never below zero, ledger equals balance", async () => {
    const p = await account("top", { credits: 20, dailyCapCredits: null });
    const results = await Promise.allSettled(Array.from({ length: 64 }, () => h.svc.debitAsync(p, 1, ref())));
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok.length).toBe(20);
    for (const r of results) if (r.status === "rejected") expect((r.reason as ApiError).code).toBe("insufficient_credits");
    expect(await h.svc.balance(p.accountId)).toBe(0);
    expect(await ledgerSum(p.accountId)).toBe(0);
  });

  it("random debits and refunds match a simple model (balance = ledger sum, refunds capped per request)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ refund: fc.boolean(), credits: fc.integer({ min: 0, max: 40 }), req: fc.integer({ min: 0, max: 5 }) }), { maxLength: 25 }),
        async (ops) => {
          const p = await account("top", { credits: 100, dailyCapCredits: null });
          let balance = 100;
          const net = new Map<number, number>();
          const tag = `m${++seq}`;
          for (const op of ops) {
            const r = { requestId: `${tag}-${op.req}`, route: "/m" };
            if (op.refund) {
              const amount = Math.min(op.credits, net.get(op.req) ?? 0);
              balance += amount;
              net.set(op.req, (net.get(op.req) ?? 0) - amount);
              expect((await h.svc.refund(p, op.credits, r)).balance).toBe(balance);
            } else if (op.credits <= balance) {
              balance -= op.credits;
              net.set(op.req, (net.get(op.req) ?? 0) + op.credits);
              expect((await h.svc.debit(p, op.credits, r)).balance).toBe(balance);
            } else {
              expect((await rejected(() => h.svc.debit(p, op.credits, r))).code).toBe("insufficient_credits");
            }
          }
          expect(await h.svc.balance(p.accountId)).toBe(balance);
          expect(await ledgerSum(p.accountId)).toBe(balance);
        },
      ),
      { numRuns: 15 },
    );
  });
});
