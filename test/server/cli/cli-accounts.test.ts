import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accountsDbPath, openAccountService, type SqliteAccountService } from "../../../server/accounts";
import { runAccountsCli } from "../../../server/cli";
import type { ApiError } from "../../../server/errors";

let dir: string;
let env: Record<string, string>;

async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runAccountsCli(argv, env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

async function json(...argv: string[]) {
  const r = await cli(...argv, "--json");
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as ApiError).code;
  }
  return "none";
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "osc-cli-"));
  env = { OPTIONSCOPE_DATA_DIR: dir };
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("account create / key create", () => {
  it("--json prints {accountId, key} and the key works against the store", async () => {
    const created = await json("account", "create", "--plan", "top", "--credits", "100000");
    expect(created.accountId).toMatch(/^acct_/);
    expect(created.key).toMatch(/^osk_live_[0-9A-Za-z]{43}$/);
    const svc = openAccountService({ dbPath: accountsDbPath(dir) });
    try {
      expect(svc.authenticate(`Bearer ${created.key}`).accountId).toBe(created.accountId);
      expect(svc.balance(created.accountId)).toBe(100_000);
    } finally {
      svc.close();
    }
    const k = await json("key", "create", "--account", created.accountId);
    expect(k).toMatchObject({ accountId: created.accountId, keyId: expect.stringMatching(/^key_/), key: expect.stringMatching(/^osk_live_/) });
    expect(k.key).not.toBe(created.key);
  });

  it("human output shows the key once and says so", async () => {
    const r = await cli("account", "create", "--plan", "index-etf");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/shown once/);
    expect(r.stdout).toMatch(/osk_live_/);
    expect(r.stdout).toMatch(/5000 credits/);
  });

  it("--data-dir wins over OPTIONSCOPE_DATA_DIR", async () => {
    const other = mkdtempSync(join(tmpdir(), "osc-cli-other-"));
    try {
      const created = await json("account", "create", "--plan", "api", "--data-dir", other);
      expect((await cli("account", "show", created.accountId)).code).toBe(1); // not in $OPTIONSCOPE_DATA_DIR
      expect((await cli("account", "show", created.accountId, "--data-dir", other)).code).toBe(0);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe("changes while a server holds the store open", () => {
  let server: SqliteAccountService;
  beforeEach(() => {
    server = openAccountService({ dbPath: accountsDbPath(dir) });
  });
  afterEach(() => server.close());

  it("status, credits, caps and revocations are seen by the next call", async () => {
    const { accountId, key } = await json("account", "create", "--plan", "top", "--credits", "500");
    const p = server.authenticate(key);
    expect((await cli("account", "set", accountId, "--status", "suspended")).code).toBe(0);
    expect(errorCode(() => server.authenticate(key))).toBe("account_suspended");
    expect((await cli("account", "set", accountId, "--status", "blocked")).code).toBe(0);
    expect(errorCode(() => server.authenticate(key))).toBe("account_blocked");
    const shown = await json("account", "set", accountId, "--status", "active", "--credits", "3", "--daily-cap", "none", "--monthly-cap", "2");
    expect(shown).toMatchObject({ status: "active", creditsBalance: 3, dailyCapCredits: null, monthlyCapCredits: 2 });
    expect(server.authenticate(key).accountId).toBe(accountId);
    expect(server.balance(accountId)).toBe(3);
    server.debit(p, 2, { requestId: "r1", route: "/v1/heatmap" });
    expect(errorCode(() => server.debit(p, 1, { requestId: "r2", route: "/v1/heatmap" }))).toBe("monthly_cap_reached");
    expect((await cli("account", "set", accountId, "--monthly-cap", "none", "--add-credits", "10")).code).toBe(0);
    expect(server.debit(p, 1, { requestId: "r3", route: "/v1/heatmap" }).balance).toBe(10);
    const revoked = await json("key", "revoke", key);
    expect(revoked).toMatchObject({ keyId: p.keyId, accountId, alreadyRevoked: false });
    expect(errorCode(() => server.authenticate(key))).toBe("forbidden");
    expect((await json("key", "revoke", p.keyId)).alreadyRevoked).toBe(true);
  });
});

describe("show, list, verify", () => {
  it("show --json lists keys without secrets and the ledger on request", async () => {
    const { accountId, key } = await json("account", "create", "--plan", "flow", "--label", "desk");
    const shown = await json("account", "show", accountId, "--ledger", "5");
    expect(shown).toMatchObject({ accountId, label: "desk", plan: "flow", status: "active", creditsBalance: 5000, ledgerSumCredits: 5000 });
    expect(shown.keys).toHaveLength(1);
    expect(shown.keys[0].state).toBe("active");
    expect(JSON.stringify(shown)).not.toContain(key.slice(20));
    expect(shown.ledger[0]).toMatchObject({ kind: "grant", delta: 5000 });
    const list = await json("account", "list");
    expect(list.map((a: { accountId: string }) => a.accountId)).toEqual([accountId]);
    expect(await json("account", "verify")).toEqual({ ok: true, mismatches: [] });
  });
});

describe("errors and exit codes", () => {
  it.each([
    [["account"], 2],
    [["account", "create"], 2],
    [["account", "create", "--plan", "gold"], 2],
    [["account", "create", "--plan", "top", "--credits", "-5"], 2],
    [["account", "create", "--plan", "top", "--credits", "ten"], 2],
    [["account", "set", "acct_x"], 2],
    [["account", "set", "acct_x", "--status", "paused"], 2],
    [["account", "frobnicate"], 2],
    [["account", "create", "--plan", "top", "--bogus"], 2],
    [["key", "create"], 2],
    [["key", "revoke"], 2],
    [["account", "show", "acct_missing"], 1],
    [["account", "set", "acct_missing", "--status", "active"], 1],
    [["key", "create", "--account", "acct_missing"], 1],
    [["key", "revoke", "key_missing"], 1],
  ] as const)("%j exits %i with a message on stderr", async (argv, code) => {
    const r = await cli(...argv);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(/^error: /);
  });

  it("--json errors are an envelope on stderr", async () => {
    const r = await cli("account", "show", "acct_missing", "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({ error: { code: "account_not_found", message: expect.any(String) } });
    expect(r.stdout).toBe("");
  });

  it("the active-key limit is reported and exits 1", async () => {
    const { accountId } = await json("account", "create", "--plan", "invite");
    expect((await cli("key", "create", "--account", accountId)).code).toBe(0);
    const r = await cli("key", "create", "--account", accountId, "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error.code).toBe("key_limit_reached");
  });

  it("--help prints the usage and exits 0", async () => {
    const r = await cli("account", "--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("optionscope account create");
  });
});
