import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// Wrap (not replace) timingSafeEqual so the test can prove the comparison goes through it.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

import { timingSafeEqual } from "node:crypto";
import { ApiError } from "../../../server/errors";
import { caught } from "../../_helpers/thrown";
import { accountsDbPath, ensureDemoAccount, openAccountService, PLAN_DEFINITIONS, SCHEMA_VERSION, type SqliteAccountService } from "../../../server/accounts";
import { INDEX_ETF_TIER_SYMBOLS as INDEX_ETF_TIER_SYMBOLS_FOR_TEST } from "../../../lib/market/universe";

let dir: string;
let nowMs: number;
let svc: SqliteAccountService;

/** What a client would see of an error: everything the renderer uses. */
function visible(e: ApiError) {
  return { status: e.status, code: e.code, message: e.message, headers: e.headers, details: e.details };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "osc-auth-"));
  nowMs = Date.parse("2024-05-01T15:00:00Z");
  svc = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs });
});

afterEach(() => {
  svc.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("authenticate: 401 without a key", () => {
  it.each([null, undefined, "", "   ", "Bearer", "Bearer    ", "bearer"])("%j -> 401 unauthorized naming the header", (header) => {
    const e = caught(ApiError, () => svc.authenticate(header));
    expect(e.status).toBe(401);
    expect(e.code).toBe("unauthorized");
    expect(e.message).toMatch(/Authorization/);
    expect(e.message.toLowerCase()).toContain("missing");
  });
});

describe("authenticate: accepted forms", () => {
  it("accepts `Bearer <key>`, a lower-case scheme and a bare key", () => {
    const { accountId, keyId, key } = svc.createAccount({ plan: "top" });
    for (const header of [`Bearer ${key}`, `bearer ${key}`, key, `  Bearer   ${key}  `]) {
      const p = svc.authenticate(header);
      expect(p).toMatchObject({ accountId, keyId, plan: "top" });
      expect(p.limits).toEqual(PLAN_DEFINITIONS.top.limits);
    }
  });
});

describe("authenticate: 403 forbidden with identical bodies", () => {
  it("unknown, malformed, revoked and expired keys give the same error", () => {
    const { accountId, key: revokedKey } = svc.createAccount({ plan: "api" });
    const expiring = svc.createKey(accountId, { expiresAtMs: nowMs + 60_000 });
    svc.revokeKey(revokedKey);
    const unknown = caught(ApiError, () => svc.authenticate(`Bearer osk_live_${"A".repeat(43)}`));
    const malformed = caught(ApiError, () => svc.authenticate("Basic dXNlcjpwYXNz"));
    const revoked = caught(ApiError, () => svc.authenticate(`Bearer ${revokedKey}`));
    expect(svc.authenticate(`Bearer ${expiring.key}`).keyId).toBe(expiring.keyId);
    nowMs += 60_000; // expiry instant reached
    const expired = caught(ApiError, () => svc.authenticate(`Bearer ${expiring.key}`));
    expect(visible(unknown)).toMatchObject({ status: 403, code: "forbidden" });
    for (const e of [malformed, revoked, expired]) expect(visible(e)).toEqual(visible(unknown));
  });

  it("a revoked key fails revalidation (streams close with key_revoked)", () => {
    const { key } = svc.createAccount({ plan: "top" });
    const p = svc.authenticate(key);
    expect(svc.revalidate(p).keyId).toBe(p.keyId);
    svc.revokeKey(p.keyId);
    expect(caught(ApiError, () => svc.revalidate(p)).code).toBe("forbidden");
  });
});

describe("authenticate: account state", () => {
  it("suspended and blocked accounts get their own 403 codes; reactivation restores access", () => {
    const { accountId, key } = svc.createAccount({ plan: "top" });
    svc.updateAccount(accountId, { status: "suspended" });
    expect(visible(caught(ApiError, () => svc.authenticate(key)))).toMatchObject({ status: 403, code: "account_suspended" });
    svc.updateAccount(accountId, { status: "blocked" });
    expect(visible(caught(ApiError, () => svc.authenticate(key)))).toMatchObject({ status: 403, code: "account_blocked" });
    svc.updateAccount(accountId, { status: "active" });
    expect(svc.authenticate(key).accountId).toBe(accountId);
  });

  it("changes made through another connection are seen by the next call", () => {
    const { accountId, key } = svc.createAccount({ plan: "top" });
    const p = svc.authenticate(key);
    const cli = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs });
    try {
      cli.updateAccount(accountId, { status: "suspended" });
      expect(caught(ApiError, () => svc.authenticate(key)).code).toBe("account_suspended");
      expect(caught(ApiError, () => svc.revalidate(p)).code).toBe("account_suspended");
      cli.updateAccount(accountId, { status: "active", credits: 42 });
      expect(svc.balance(accountId)).toBe(42);
      cli.revokeKey(key);
      expect(caught(ApiError, () => svc.authenticate(key)).code).toBe("forbidden");
    } finally {
      cli.close();
    }
  });
});

describe("keys", () => {
  it("have the documented format and are unique", () => {
    const { accountId, key } = svc.createAccount({ plan: "top" });
    const keys = new Set([key]);
    for (let i = 0; i < 4; i++) keys.add(svc.createKey(accountId).key);
    expect(keys.size).toBe(5);
    for (const k of keys) expect(k).toMatch(/^osk_live_[0-9A-Za-z]{43}$/);
  });

  it("are stored only as SHA-256 hashes: the database files never contain the key", () => {
    const { keyId, key } = svc.createAccount({ plan: "top" });
    const row = svc.db.prepare("SELECT * FROM api_keys WHERE id = ?").get(keyId) as Record<string, unknown>;
    expect(Buffer.from(row.hash as Uint8Array).equals(createHash("sha256").update(key).digest())).toBe(true);
    expect(Object.values(row).some((v) => typeof v === "string" && v.includes(key.slice(15)))).toBe(false);
    const secret = Buffer.from(key.slice("osk_live_".length + 6)); // what the display prefix does not show
    for (const file of readdirSync(dir)) {
      expect(readFileSync(join(dir, file)).includes(secret), file).toBe(false);
    }
  });

  it("are compared with crypto.timingSafeEqual on both hits and misses", () => {
    const { key } = svc.createAccount({ plan: "top" });
    const spy = vi.mocked(timingSafeEqual);
    spy.mockClear();
    svc.authenticate(key);
    expect(spy).toHaveBeenCalledTimes(1);
    caught(ApiError, () => svc.authenticate(`osk_live_${"z".repeat(43)}`));
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it("active keys are limited per plan (5 listed plans, 2 invite); revoked and expired keys do not count", () => {
    for (const [plan, max] of [
      ["top", 5],
      ["invite", 2],
    ] as const) {
      const { accountId } = svc.createAccount({ plan });
      for (let i = 1; i < max; i++) svc.createKey(accountId);
      const e = caught(ApiError, () => svc.createKey(accountId));
      expect(e.code).toBe("key_limit_reached");
      const firstKey = svc.getAccount(accountId).keys[0].keyId;
      svc.revokeKey(firstKey);
      const extra = svc.createKey(accountId, { expiresAtMs: nowMs + 1000 });
      expect(caught(ApiError, () => svc.createKey(accountId)).code).toBe("key_limit_reached");
      nowMs += 1000;
      expect(svc.createKey(accountId).keyId).not.toBe(extra.keyId);
      nowMs -= 1000;
    }
  });

  it("revoking is idempotent and accepts a key or a key id", () => {
    const { accountId, keyId, key } = svc.createAccount({ plan: "top" });
    expect(svc.revokeKey(key)).toEqual({ keyId, accountId, alreadyRevoked: false });
    expect(svc.revokeKey(keyId)).toEqual({ keyId, accountId, alreadyRevoked: true });
    expect(caught(ApiError, () => svc.revokeKey("key_doesnotexist")).code).toBe("key_not_found");
    expect(caught(ApiError, () => svc.revokeKey(`osk_live_${"q".repeat(43)}`)).code).toBe("key_not_found");
  });
});

describe("entitlements by plan", () => {
  const tier = INDEX_ETF_TIER_SYMBOLS_FOR_TEST;

  function principal(plan: "top" | "api" | "index-etf" | "flow" | "invite", opraAgreement = true) {
    const { key } = svc.createAccount({ plan, opraAgreement });
    return svc.authenticate(key);
  }

  it("top and api read everything, any symbol", () => {
    for (const plan of ["top", "api"] as const) {
      const p = principal(plan);
      for (const e of ["positioning", "replay", "flow", "volatility", "price", "none"] as const) {
        expect(() => svc.assertEntitled(p, e, ["AAPL", "SPXW"])).not.toThrow();
      }
    }
  });

  it("index-etf: its 63 symbols, replay and flow included, no volatility", () => {
    expect(tier).toHaveLength(63);
    expect(new Set(tier).size).toBe(63);
    const p = principal("index-etf");
    expect(() => svc.assertEntitled(p, "positioning", [...tier])).not.toThrow();
    expect(() => svc.assertEntitled(p, "replay", ["spy", "SPXW"])).not.toThrow();
    const e = caught(ApiError, () => svc.assertEntitled(p, "positioning", ["SPY", "AAPL", "TSLA"]));
    expect(visible(e)).toMatchObject({ status: 403, code: "not_entitled", details: { symbols: ["AAPL", "TSLA"] } });
    expect(e.message).toContain("AAPL");
    expect(caught(ApiError, () => svc.assertEntitled(p, "volatility", ["SPY"])).code).toBe("not_entitled");
    expect(() => svc.assertEntitled(p, "flow", ["SPXW", "QQQ"])).not.toThrow();
    expect(visible(caught(ApiError, () => svc.assertEntitled(p, "flow", ["SPY", "AAPL"])))).toMatchObject({
      status: 403,
      code: "not_entitled",
      details: { symbols: ["AAPL"] },
    });
    expect(() => svc.assertEntitled(p, "none")).not.toThrow();
  });

  it("index-etf leaves symbols the market does not know to the route when isKnownSymbol is given", () => {
    const withUniverse = openAccountService({ dbPath: accountsDbPath(dir), clock: () => nowMs, isKnownSymbol: (s) => s !== "NOPE" });
    try {
      const { key } = withUniverse.createAccount({ plan: "index-etf" });
      const p = withUniverse.authenticate(key);
      expect(() => withUniverse.assertEntitled(p, "positioning", ["SPY", "NOPE"])).not.toThrow();
      expect(caught(ApiError, () => withUniverse.assertEntitled(p, "positioning", ["NOPE", "AAPL"])).details).toEqual({ symbols: ["AAPL"] });
    } finally {
      withUniverse.close();
    }
  });

  it("flow reads only the flow module", () => {
    const p = principal("flow");
    expect(() => svc.assertEntitled(p, "flow", ["AAPL"])).not.toThrow();
    for (const e of ["positioning", "replay", "volatility", "price"] as const) {
      expect(caught(ApiError, () => svc.assertEntitled(p, e)).code).toBe("not_entitled");
    }
  });

  it("invite: no volatility; 60 requests per minute and 2 keys", () => {
    const p = principal("invite");
    expect(p.limits.requestsPerMinute).toBe(60);
    expect(p.limits.activeKeys).toBe(2);
    expect(caught(ApiError, () => svc.assertEntitled(p, "volatility")).code).toBe("not_entitled");
    for (const e of ["positioning", "replay", "flow", "price"] as const) expect(() => svc.assertEntitled(p, e)).not.toThrow();
  });

  it("flow data needs a signed OPRA agreement", () => {
    const p = principal("top", false);
    expect(visible(caught(ApiError, () => svc.assertEntitled(p, "flow")))).toMatchObject({ status: 403, code: "opra_agreement_required" });
    expect(() => svc.assertEntitled(p, "positioning")).not.toThrow();
  });

  it("the spec's example limits", () => {
    for (const plan of ["top", "api", "index-etf", "flow"] as const) {
      expect(PLAN_DEFINITIONS[plan].limits).toEqual({
        requestsPerMinute: 120,
        symbolsPerHeatmapCall: 10,
        symbolsPerStream: 10,
        streamSymbolsConcurrent: 25,
        historicalInFlight: 2,
        activeKeys: 5,
        streamMaxDurationMinutes: 60,
      });
    }
  });
});

describe("account view and demo account", () => {
  it("accountView is the spec's Account record", () => {
    const { key } = svc.createAccount({ plan: "top", credits: 12_345 });
    const view = svc.accountView(svc.authenticate(key));
    expect(view).toMatchObject({ status: "active", creditsBalance: 12_345, balanceUsd: 12.345, plan: "top" });
    expect(view.limits).toEqual(PLAN_DEFINITIONS.top.limits);
  });

  it("ensureDemoAccount creates a top account once and shows its key only then", async () => {
    const first = await ensureDemoAccount(svc);
    expect(first.created).toBe(true);
    expect(svc.authenticate(first.key!).plan).toBe("top");
    const again = await ensureDemoAccount(svc);
    expect(again).toEqual({ accountId: first.accountId, key: null, created: false });
  });
});

describe("store", () => {
  it("is WAL with synchronous=FULL, migrated to the current version, and the ledger is append-only", () => {
    expect(svc.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(svc.db.pragma("synchronous", { simple: true })).toBe(2);
    expect(Number(svc.db.pragma("busy_timeout", { simple: true }))).toBeGreaterThan(0);
    expect(svc.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    const { accountId } = svc.createAccount({ plan: "top" });
    expect(() => svc.db.prepare("UPDATE ledger SET delta = 0 WHERE account_id = ?").run(accountId)).toThrow(/append-only/);
    expect(() => svc.db.prepare("DELETE FROM ledger WHERE account_id = ?").run(accountId)).toThrow(/append-only/);
  });

  it("creates the data directory 0700 and the database, -wal and -shm files 0600, whatever the umask (issue 13 item 7)", () => {
    // A permissive umask, as on most systems: the modes must not come from it.
    const previous = process.umask(0o022);
    const dataDir = join(dir, "nested", "data");
    const dbPath = accountsDbPath(dataDir);
    const opened = openAccountService({ dbPath });
    try {
      opened.createAccount({ plan: "top" }); // a write, so the WAL holds something
      const mode = (path: string) => statSync(path).mode & 0o777;
      expect(mode(dataDir).toString(8)).toBe("700");
      for (const path of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) expect([path, mode(path).toString(8)]).toEqual([path, "600"]);
    } finally {
      opened.close();
      process.umask(previous);
    }
    // Files an older build left world-readable are tightened at the next open.
    chmodSync(dbPath, 0o644);
    openAccountService({ dbPath }).close();
    expect((statSync(dbPath).mode & 0o777).toString(8)).toBe("600");
  });

  it("refuses a store written by a newer schema", () => {
    svc.db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(() => openAccountService({ dbPath: accountsDbPath(dir) })).toThrow(/newer than this build/);
  });
});
