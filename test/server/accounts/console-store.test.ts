// The console's tables beside the accounts: scrypt passwords, one-time setup links, sessions,
// invite codes, last-used times, the customer's monthly cap; and the usage report from the ledger.
import { scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openAccountService } from "../../../server/accounts";
import { openConsoleStore } from "../../../server/accounts/console-store";
import { dummyPasswordHash, hashPassword, passwordProblem, SCRYPT_COST, verifyPassword } from "../../../server/accounts/password-hash";
import { usageReport } from "../../../server/accounts/usage-report";

const CHEAP = { N: 1024, r: 8, p: 1 };

function setup(startMs = Date.parse("2024-03-06T15:00:00Z")) {
  const wall = { ms: startMs };
  const accounts = openAccountService({ dbPath: ":memory:", clock: () => wall.ms });
  const store = openConsoleStore(accounts.db, { now: () => wall.ms });
  const acct = accounts.createAccount({ plan: "top", credits: 10_000 });
  return { wall, accounts, store, acct };
}

describe("password hashes", () => {
  it("are scrypt at the production cost by default, and equal Node's scrypt of the stored salt", async () => {
    const stored = await hashPassword("correct horse battery");
    const [scheme, N, r, p, salt, key] = stored.split("$");
    expect([scheme, Number(N), Number(r), Number(p)]).toEqual(["scrypt", SCRYPT_COST.N, SCRYPT_COST.r, SCRYPT_COST.p]);
    // Independent recomputation with the synchronous API.
    const expected = scryptSync("correct horse battery", Buffer.from(salt!, "base64"), 32, { ...SCRYPT_COST, maxmem: 64 * 1024 * 1024 });
    expect(key).toBe(expected.toString("base64"));
  });

  it("verify only the right password; salts differ; the dummy and malformed hashes match nothing", async () => {
    const a = await hashPassword("correct horse battery", CHEAP);
    const b = await hashPassword("correct horse battery", CHEAP);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("", dummyPasswordHash(CHEAP))).toBe(false);
    for (const bad of ["", "md5$x", "scrypt$0$8$1$AAAA$AAAA", "scrypt$1024$8$1$AAAA$AAAA"]) expect(await verifyPassword("x", bad)).toBe(false);
  });

  it("accept 12 to 256 characters", () => {
    expect(passwordProblem("a".repeat(11))).toContain("12 to 256");
    expect(passwordProblem("a".repeat(12))).toBeNull();
    expect(passwordProblem("é".repeat(256))).toBeNull();
    expect(passwordProblem("a".repeat(257))).not.toBeNull();
    expect(passwordProblem(42)).toContain("string");
  });
});

describe("setup links", () => {
  it("work once, before they expire, and are stored only as hashes", () => {
    const { store, acct, accounts, wall } = setup();
    const { token } = store.createSetupLink(acct.accountId, 60_000);
    const raw = JSON.stringify(accounts.db.prepare("SELECT * FROM console_setup_links").all());
    expect(raw).not.toContain(token);
    expect(store.consumeSetupLink(token)).toBe(acct.accountId);
    expect(store.consumeSetupLink(token)).toBeNull();
    const late = store.createSetupLink(acct.accountId, 60_000).token;
    wall.ms += 60_000;
    expect(store.consumeSetupLink(late)).toBeNull();
    expect(store.consumeSetupLink("oscl_unknown")).toBeNull();
  });
});

describe("sessions", () => {
  it("are found by id only (stored hashed), end on sign-out and with every session of the account", () => {
    const { store, acct, accounts } = setup();
    const s1 = store.createSession(acct.accountId);
    const s2 = store.createSession(acct.accountId);
    expect(s1.sessionId).not.toBe(s2.sessionId);
    expect(JSON.stringify(accounts.db.prepare("SELECT * FROM console_sessions").all())).not.toContain(s1.sessionId);
    expect(store.session(s1.sessionId)).toMatchObject({ accountId: acct.accountId, csrfToken: s1.csrfToken });
    expect(store.endSession(s1.sessionId)).toBe(true);
    expect(store.session(s1.sessionId)).toBeNull();
    expect(store.endSessionsOf(acct.accountId)).toBe(1);
    expect(store.session(s2.sessionId)).toBeNull();
  });
});

describe("invite codes", () => {
  it("are shown once (stored hashed), redeemable once, and listed with their state", () => {
    const { store, accounts, wall } = setup();
    const { code, invite } = store.createInvite({ plan: "invite", credits: 100, label: "Meetup", expiresAtMs: wall.ms + 86_400_000 });
    expect(code).toMatch(/^osinv_[0-9A-Za-z]{22}$/);
    expect(invite).toMatchObject({ plan: "invite", credits: 100, label: "Meetup", state: "open", prefix: code.slice(0, 10) });
    expect(JSON.stringify(accounts.db.prepare("SELECT * FROM invite_codes").all())).not.toContain(code);
    const first = accounts.db.transaction(() => store.redeemInviteTx(code, null))();
    expect(first?.inviteId).toBe(invite.inviteId);
    expect(accounts.db.transaction(() => store.redeemInviteTx(code, null))()).toBeNull();
    const expiring = store.createInvite({ plan: "api", expiresAtMs: wall.ms + 1 });
    wall.ms += 1;
    const states = new Map(store.listInvites().map((i) => [i.inviteId, i.state]));
    expect(states).toEqual(
      new Map([
        [invite.inviteId, "redeemed"],
        [expiring.invite.inviteId, "expired"],
      ]),
    );
    expect(accounts.db.transaction(() => store.redeemInviteTx(expiring.code, null))()).toBeNull();
  });
});

describe("last used and the monthly cap", () => {
  it("keeps the latest use per key and lists keys with it", () => {
    const { store, acct, wall } = setup();
    store.recordKeyUses(new Map([[acct.keyId, wall.ms]]));
    store.recordKeyUses(
      new Map([
        [acct.keyId, wall.ms - 5000],
        ["key_gone", wall.ms],
      ]),
    );
    expect(store.keysOf(acct.accountId)).toEqual([expect.objectContaining({ keyId: acct.keyId, state: "active", lastUsedAt: new Date(wall.ms).toISOString() })]);
  });

  it("sets and removes the cap the debit path reads", () => {
    const { store, acct, accounts } = setup();
    expect(store.setMonthlyCap(acct.accountId, 5)).toBe(5);
    expect(accounts.getAccount(acct.accountId).monthlyCapCredits).toBe(5);
    expect(store.setMonthlyCap(acct.accountId, null)).toBeNull();
    expect(store.setMonthlyCap("acct_none", 5)).toBeUndefined();
  });
});

describe("usage report", () => {
  it("buckets debits net of refunds by ET day across a DST change, and by endpoint", () => {
    // US DST began 2024-03-10 02:00 EST: that ET day is 23 hours long.
    const { wall, accounts, acct } = setup(Date.parse("2024-03-09T04:30:00Z")); // 23:30 EST on 03-08
    const p = accounts.authenticate(`Bearer ${acct.key}`);
    const at = (iso: string, credits: number, route: string, id: string) => {
      wall.ms = Date.parse(iso);
      accounts.debit(p, credits, { requestId: id, route });
    };
    at("2024-03-09T04:30:00Z", 3, "/v1/heatmap", "r1"); // 2024-03-08 23:30 EST
    at("2024-03-09T05:00:00Z", 5, "/v1/heatmap", "r2"); // 2024-03-09 00:00 EST
    at("2024-03-11T03:59:00Z", 7, "/v1/levels", "r3"); // 2024-03-10 23:59 EDT
    at("2024-03-11T04:00:00Z", 11, "/v1/levels", "r4"); // 2024-03-11 00:00 EDT
    accounts.refund(p, 4, { requestId: "r4", route: "/v1/levels" });
    wall.ms = Date.parse("2024-03-11T16:00:00Z");
    const report = usageReport(accounts.db, acct.accountId, wall.ms, 4);
    expect(report.byDay).toEqual([
      { day: "2024-03-08", credits: 3 },
      { day: "2024-03-09", credits: 5 },
      { day: "2024-03-10", credits: 7 },
      { day: "2024-03-11", credits: 7 },
    ]);
    expect(report.byEndpoint).toEqual([
      { endpoint: "/v1/levels", credits: 14 },
      { endpoint: "/v1/heatmap", credits: 8 },
    ]);
    expect(report.totalCredits).toBe(22);
    // A shorter window leaves the older days out entirely.
    expect(usageReport(accounts.db, acct.accountId, wall.ms, 2).totalCredits).toBe(14);
  });

  it("stays exact when reports interleave with new debits and refunds (incremental rollup against a full recount)", () => {
    const { wall, accounts, acct } = setup(Date.parse("2024-03-01T12:00:00Z"));
    const p = accounts.authenticate(`Bearer ${acct.key}`);
    const etDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" });
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const routes = ["/v1/heatmap", "/v1/levels", "/v1/historical"];
    for (let step = 0; step < 60; step++) {
      wall.ms += Math.floor(rand() * 9 * 3_600_000);
      const id = `q${step}`;
      accounts.debit(p, 1 + Math.floor(rand() * 20), { requestId: id, route: routes[step % 3]! });
      if (rand() < 0.3) accounts.refund(p, 1 + Math.floor(rand() * 5), { requestId: id, route: routes[step % 3]! });
      if (step % 7 === 0) usageReport(accounts.db, acct.accountId, wall.ms, 30);
    }
    // Full recount from the ledger rows, ET dates by Intl (not the code under test's helper).
    const perDay = new Map<string, number>();
    const perRoute = new Map<string, number>();
    for (const e of accounts.ledger(acct.accountId, { limit: 10_000 })) {
      if (e.kind !== "debit" && e.kind !== "refund") continue;
      const day = etDay.format(e.tsMs);
      perDay.set(day, (perDay.get(day) ?? 0) - e.delta);
      perRoute.set(e.route!, (perRoute.get(e.route!) ?? 0) - e.delta);
    }
    const report = usageReport(accounts.db, acct.accountId, wall.ms, 90);
    for (const d of report.byDay) expect(d.credits, d.day).toBe(perDay.get(d.day) ?? 0);
    expect(report.totalCredits).toBe([...perDay.values()].reduce((a, b) => a + b, 0));
    expect(new Map(report.byEndpoint.map((e) => [e.endpoint, e.credits]))).toEqual(perRoute);
  });
});
