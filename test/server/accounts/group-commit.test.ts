// Group commit of debits and refunds (server/accounts/group-commit.ts): concurrent awaited debits
// share one transaction and one commit, each keeps its own atomic never-below-zero outcome and
// ledger row, and nothing is acknowledged before the commit that holds it (kill -9 loses nothing
// acknowledged). See docs/operations.md#group-commit.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accountsDbPath, openAccountService, type AccountPrincipal, type SqliteAccountService } from "../../../server/accounts";
import { ApiError } from "../../../server/errors";
import { makeHarness } from "../_harness";
import { tsEntryArgs } from "../../_helpers/ts-entry";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "../..");

let dir: string;
let svc: SqliteAccountService;
let seq = 0;
const ref = () => ({ requestId: `gc-${++seq}`, route: "/v1/heatmap" });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "osc-gc-"));
  svc = openAccountService({ dbPath: accountsDbPath(dir) });
});

afterEach(() => {
  svc.close();
  rmSync(dir, { recursive: true, force: true });
});

function principal(credits: number, extra: { dailyCapCredits?: number | null } = {}): AccountPrincipal {
  const { key } = svc.createAccount({ plan: "top", credits, dailyCapCredits: null, ...extra });
  return svc.authenticate(key);
}

type Settled = { ok: true; balance: number; ledgerId: number | null } | { ok: false; code: string };
const settle = (p: Promise<{ balance: number; ledgerId: number | null }>): Promise<Settled> =>
  p.then(
    (r) => ({ ok: true as const, ...r }),
    (e: unknown) => ({ ok: false as const, code: e instanceof ApiError ? e.code : String(e) }),
  );

function ledgerRows(accountId: string): { id: number; delta: number; kind: string; balance_after: number }[] {
  return svc.db.prepare("SELECT id, delta, kind, balance_after FROM ledger WHERE account_id = ? ORDER BY id").all(accountId) as never;
}

describe("group commit", () => {
  it("many concurrent awaited debits against a small balance never overdraw, share one commit, and balance the ledger", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 60 }), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 120 }), async (initial, costs) => {
        const p = principal(initial);
        const before = svc.groupCommitStats();
        const results = await Promise.all(costs.map((c) => settle(svc.debitAsync(p, c, ref()))));
        const after = svc.groupCommitStats();
        // All were submitted in one event-loop turn: one batch, one commit.
        expect(after.batches - before.batches).toBe(1);
        // Sequential semantics in submission order: a debit succeeds iff the balance still covers it.
        let model = initial;
        results.forEach((r, i) => {
          if (costs[i] <= model) {
            model -= costs[i];
            expect(r).toMatchObject({ ok: true, balance: model });
          } else {
            expect(r).toEqual({ ok: false, code: "insufficient_credits" });
          }
        });
        expect(svc.balance(p.accountId)).toBe(model);
        expect(model).toBeGreaterThanOrEqual(0);
        // One ledger row per acknowledged debit, each with its own id and balance_after >= 0.
        const debits = ledgerRows(p.accountId).filter((r) => r.kind === "debit");
        const acked = results.filter((r): r is Extract<Settled, { ok: true }> => r.ok);
        expect(debits.map((d) => d.id).sort((a, b) => a - b)).toEqual(acked.map((a) => a.ledgerId).sort((a, b) => a! - b!));
        expect(debits.every((d) => d.balance_after >= 0)).toBe(true);
        expect(svc.verifyLedger()).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it("keeps each operation's own outcome inside a batch: caps, refunds of the same request, zero credits", async () => {
    const p = principal(100, { dailyCapCredits: 10 });
    const r1 = ref();
    const [a, b, c, d, e] = await Promise.all([
      settle(svc.debitAsync(p, 6, r1)),
      settle(svc.debitAsync(p, 6, ref())), // over the daily cap (6 + 6 > 10)
      settle(svc.debitAsync(p, 4, ref())), // fits the cap exactly
      settle(svc.refundAsync(p, 6, r1)), // refunds r1 within the same batch
      settle(svc.refundAsync(p, 6, r1)), // twice is harmless
    ]);
    expect(a).toMatchObject({ ok: true, balance: 94 });
    expect(b).toEqual({ ok: false, code: "daily_cap_reached" });
    expect(c).toMatchObject({ ok: true, balance: 90 });
    expect(d).toMatchObject({ ok: true, balance: 96 });
    expect(e).toEqual({ ok: true, balance: 96, ledgerId: null });
    // Zero credits writes nothing and reads the committed balance.
    await expect(svc.debitAsync(p, 0, ref())).resolves.toEqual({ balance: 96, ledgerId: null });
    expect(svc.verifyLedger()).toEqual([]);
    await expect(svc.debitAsync(p, -1, ref())).rejects.toMatchObject({ code: "invalid_parameter" });
  });

  it("acknowledges nothing before its commit: another connection sees every resolved debit, none before", async () => {
    const p = principal(1000);
    const other = openAccountService({ dbPath: accountsDbPath(dir) });
    try {
      const count = () => (other.db.prepare("SELECT count(*) AS n FROM ledger WHERE account_id = ? AND kind = 'debit'").get(p.accountId) as { n: number }).n;
      const pending = Array.from({ length: 20 }, () => svc.debitAsync(p, 1, ref()));
      expect(count()).toBe(0); // queued, not yet committed
      const seen: number[] = [];
      await Promise.all(pending.map((q) => q.then(() => seen.push(count()))));
      expect(seen.every((n) => n === 20)).toBe(true);
    } finally {
      other.close();
    }
  });

  it("a batch that cannot commit fails as a whole with 503 credit_check_failed and charges nothing", async () => {
    svc.close();
    svc = openAccountService({ dbPath: accountsDbPath(dir), busyTimeoutMs: 20 });
    const p = principal(50);
    const locker = openAccountService({ dbPath: accountsDbPath(dir) });
    locker.db.prepare("BEGIN IMMEDIATE").run();
    try {
      const results = await Promise.all([1, 2, 100].map((c) => settle(svc.debitAsync(p, c, ref()))));
      expect(results.map((r) => (r.ok ? "ok" : r.code))).toEqual(["credit_check_failed", "credit_check_failed", "credit_check_failed"]);
    } finally {
      locker.db.prepare("ROLLBACK").run();
      locker.close();
    }
    expect(svc.balance(p.accountId)).toBe(50);
    await expect(svc.debitAsync(p, 5, ref())).resolves.toMatchObject({ balance: 45 });
    expect(svc.verifyLedger()).toEqual([]);
  });

  it("kill -9 while batches commit loses no acknowledged debit, and the balance equals the ledger's sum", async () => {
    const initial = 1_000_000;
    const { accountId, key } = svc.createAccount({ plan: "top", credits: initial, dailyCapCredits: null });
    svc.close();
    for (let round = 0; round < 1; round++) {
      const child = spawn(process.execPath, [...(await tsEntryArgs(join(HERE, "group-commit-crash.fixture.ts"))), "crash", accountsDbPath(dir), key, "48"], {
        cwd: ROOT,
        stdio: "pipe",
      });
      const acked: number[] = [];
      const target = 400 + Math.floor(Math.random() * 400);
      let buffer = "";
      let stderr = "";
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          buffer += chunk.toString();
          for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
            acked.push(Number(buffer.slice(0, i)));
            buffer = buffer.slice(i + 1);
            if (acked.length === target) child.kill("SIGKILL");
          }
        });
        child.on("error", reject);
        child.on("close", (code, signal) => (signal === "SIGKILL" ? resolve() : reject(new Error(`child exited ${code}: ${stderr.slice(0, 2000)}`))));
      });
      const check = openAccountService({ dbPath: accountsDbPath(dir) });
      try {
        const ids = new Set((check.db.prepare("SELECT id FROM ledger WHERE account_id = ? AND kind = 'debit'").all(accountId) as { id: number }[]).map((r) => r.id));
        expect(acked.length).toBeGreaterThanOrEqual(target);
        for (const id of acked) expect(ids.has(id)).toBe(true);
        const debited = (check.db.prepare("SELECT -sum(delta) AS s FROM ledger WHERE account_id = ? AND kind = 'debit'").get(accountId) as { s: number }).s;
        expect(check.balance(accountId)).toBe(initial - debited);
        expect(check.verifyLedger()).toEqual([]);
      } finally {
        check.close();
      }
    }
    svc = openAccountService({ dbPath: accountsDbPath(dir) }); // for afterEach
  });
});

describe("the pipeline awaits the group-committed debit", () => {
  it("64 concurrent requests against a 20-credit balance: exactly 20 answered 200, no overdraw, fewer commits than requests", async () => {
    const h = makeHarness({ credits: 20 });
    const p = h.accounts.authenticate(`Bearer ${h.key}`);
    const before = h.accounts.groupCommitStats();
    const responses = await Promise.all(Array.from({ length: 64 }, () => h.get("/v1/heatmap?symbols=SPY")));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(44);
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get("X-Credits-Remaining")));
    expect(new Set(remaining).size).toBe(20); // each success saw its own balance after its debit
    expect(Math.min(...remaining)).toBe(0);
    expect(h.accounts.balance(p.accountId)).toBe(0);
    expect(h.accounts.verifyLedger()).toEqual([]);
    const after = h.accounts.groupCommitStats();
    expect(after.ops - before.ops).toBe(64);
    expect(after.batches - before.batches).toBeLessThan(64);
  });

  it("a requests-per-minute override on the account replaces the plan's limit (bench accounts)", async () => {
    const h = makeHarness();
    const { key, accountId } = h.accounts.createAccount({ plan: "top", credits: 100, requestsPerMinute: 3 });
    const limits = await Promise.all(Array.from({ length: 4 }, () => h.get("/v1/account", { key })));
    expect(limits.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(limits[0].headers.get("X-RateLimit-Limit")).toBe("3");
    expect(h.accounts.getAccount(accountId).requestsPerMinuteOverride).toBe(3);
    h.accounts.updateAccount(accountId, { requestsPerMinute: null });
    const body = await (await h.get("/v1/account", { key: h.key })).json();
    expect(body.data.limits.requestsPerMinute).toBe(120);
    expect(() => h.accounts.updateAccount(accountId, { requestsPerMinute: 0 })).toThrow(ApiError);
  });
});

describe("the group-commit window on SQLite (docs/methodology.md#postgresql-group-commit-window)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a lone debit at idle commits at once; once a batch found company, the next waits windowMs for more, or until it is as large as the last", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate"] });
    const windowed = openAccountService({ dbPath: join(dir, "windowed.db"), groupCommitWindowMs: 50 });
    try {
      const { key } = windowed.createAccount({ plan: "top", credits: 100, dailyCapCredits: null });
      const p = windowed.authenticate(key);
      const batches = () => windowed.groupCommitStats().batches;
      const debit = () => windowed.debitAsync(p, 1, ref());
      await Promise.all([debit(), vi.advanceTimersByTimeAsync(0)]);
      expect(batches()).toBe(1);
      await Promise.all([debit(), debit(), vi.advanceTimersByTimeAsync(0)]);
      expect(windowed.groupCommitStats()).toMatchObject({ batches: 2, largestBatch: 2 });
      // Under load now: a debit waits up to 50 ms, and one arriving meanwhile shares its commit,
      // which goes as soon as it is as large as the last batch.
      const waiting = [debit()];
      await vi.advanceTimersByTimeAsync(30);
      expect(batches()).toBe(2);
      waiting.push(debit());
      await vi.advanceTimersByTimeAsync(0);
      await Promise.all(waiting);
      expect(windowed.groupCommitStats()).toMatchObject({ batches: 3, ops: 5 });
      // Smaller than the last batch: the whole window.
      const lone = debit();
      await vi.advanceTimersByTimeAsync(49);
      expect(batches()).toBe(3);
      await vi.advanceTimersByTimeAsync(1);
      await lone;
      expect(windowed.groupCommitStats()).toMatchObject({ batches: 4, ops: 6 });
      expect(windowed.balance(p.accountId)).toBe(94);
    } finally {
      windowed.close();
    }
  });
});

describe("the commit's fsync off the event loop (synchronous=FULL)", () => {
  /** A WAL file with one table, at `synchronous`, and a group committer over it with `syncWal`. */
  async function walStore(name: string, synchronous: "FULL" | "NORMAL", syncWal: (path: string) => Promise<void>) {
    const { openSqlite } = await import("../../../server/sqlite");
    const { createGroupCommitter } = await import("../../../server/accounts/group-commit");
    const path = join(dir, name);
    const db = openSqlite(path);
    db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous}; CREATE TABLE t (v INTEGER)`);
    const gc = createGroupCommitter(db, { storeFailure: () => new Error("store"), syncWal });
    return { path, db, gc, insert: (v: number) => () => db.prepare("INSERT INTO t (v) VALUES (?)").run(v) };
  }

  it("acknowledges a batch only once its WAL is synced, and leaves the connection at FULL between batches", async () => {
    const syncs: { path: string; done: () => void }[] = [];
    const { path, db, gc, insert } = await walStore("gc-sync.sqlite", "FULL", (p) => new Promise<void>((resolve) => syncs.push({ path: p, done: resolve })));
    let acknowledged = 0;
    const ops = [1, 2, 3].map((v) => gc.submit(insert(v)).then(() => acknowledged++));
    // One batch, one commit: the rows are committed, the WAL sync asked for once, nothing acknowledged yet.
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    expect(syncs[0].path).toBe(`${path}-wal`);
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 3 });
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    await new Promise((r) => setTimeout(r, 20));
    expect(acknowledged).toBe(0);
    syncs[0].done();
    await Promise.all(ops);
    expect(acknowledged).toBe(3);
    gc.close();
    db.close();
  });

  it("a failed WAL sync acknowledges nothing: each operation gets the store failure", async () => {
    const { db, gc, insert } = await walStore("gc-fail.sqlite", "FULL", () => Promise.reject(new Error("EIO")));
    await expect(gc.submit(insert(1))).rejects.toThrow("store");
    gc.close();
    db.close();
  });

  it("at synchronous=NORMAL (durability normal) a batch is acknowledged at its commit, with no fsync", async () => {
    let synced = 0;
    const { db, gc, insert } = await walStore("gc-normal.sqlite", "NORMAL", async () => void synced++);
    await gc.submit(insert(1));
    expect(synced).toBe(0);
    gc.close();
    db.close();
  });
});
