// The PostgreSQL store's in-process key cache (server/accounts/postgres/pg-auth.ts,
// docs/methodology.md#postgresql-group-commit-and-the-auth-cache): a key row is reused for at most
// the TTL; an admin write from ANY process (another instance, the CLI) reaches every instance at
// once through LISTEN/NOTIFY; this process's own admin writes invalidate synchronously; expiry is
// checked against the clock on every request, cached or not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresAccountService, type PostgresAccountService } from "../../../server/accounts/postgres";
import { ApiError } from "../../../server/errors";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";

let pg: PostgresProcess;
const opened: PostgresAccountService[] = [];
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  for (const s of opened) await s.close();
  await pg?.stop();
});

async function open(options: { authCacheTtlMs?: number; clock?: () => number } = {}): Promise<PostgresAccountService> {
  const svc = await openPostgresAccountService({ url: pg.url, ...options });
  opened.push(svc);
  return svc;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).code;
  }
}

/** Poll `fn` until it gives `want` or `withinMs` passes; returns the elapsed ms, or Infinity. */
async function msUntil(fn: () => Promise<string>, want: string, withinMs: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < withinMs) {
    if ((await fn()) === want) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 5));
  }
  return Number.POSITIVE_INFINITY;
}

describe("PostgreSQL key cache", () => {
  it("reuses a key row for at most the TTL: a change written behind the store's back shows after it", async () => {
    const svc = await open({ authCacheTtlMs: 400 });
    const { key, keyId } = await svc.createAccount({ plan: "api", credits: 10 });
    expect(await codeOf(svc.authenticate(`Bearer ${key}`))).toBe("ok");
    // Revoked by plain SQL (no admin call, no notice): the cached row still answers...
    await svc.sql`UPDATE api_keys SET revoked_ms = 1 WHERE id = ${keyId}`;
    expect(await codeOf(svc.authenticate(`Bearer ${key}`))).toBe("ok");
    // ...until the TTL has passed; then the read sees the revocation.
    await new Promise((r) => setTimeout(r, 450));
    expect(await codeOf(svc.authenticate(`Bearer ${key}`))).toBe("forbidden");
  });

  it("a TTL of 0 reads on every request", async () => {
    const svc = await open({ authCacheTtlMs: 0 });
    const { key, keyId } = await svc.createAccount({ plan: "api", credits: 10 });
    expect(await codeOf(svc.authenticate(`Bearer ${key}`))).toBe("ok");
    await svc.sql`UPDATE api_keys SET revoked_ms = 1 WHERE id = ${keyId}`;
    expect(await codeOf(svc.authenticate(`Bearer ${key}`))).toBe("forbidden");
  });

  it("another process's revocation and suspension reach a cached instance by notice, well inside a long TTL", async () => {
    const instance = await open({ authCacheTtlMs: 60_000 });
    const cli = await open({ authCacheTtlMs: 60_000 });
    const a = await instance.createAccount({ plan: "api", credits: 10 });
    const b = await instance.createAccount({ plan: "api", credits: 10 });
    expect(await codeOf(instance.authenticate(`Bearer ${a.key}`))).toBe("ok");
    expect(await codeOf(instance.authenticate(`Bearer ${b.key}`))).toBe("ok");
    await cli.revokeKey(a.keyId);
    expect(await msUntil(() => codeOf(instance.authenticate(`Bearer ${a.key}`)), "forbidden", 2000)).toBeLessThan(2000);
    await cli.updateAccount(b.accountId, { status: "suspended" });
    expect(await msUntil(() => codeOf(instance.authenticate(`Bearer ${b.key}`)), "account_suspended", 2000)).toBeLessThan(2000);
    await cli.updateAccount(b.accountId, { status: "active" });
    expect(await msUntil(() => codeOf(instance.authenticate(`Bearer ${b.key}`)), "ok", 2000)).toBeLessThan(2000);
  });

  it("this process's own admin writes take effect on the very next request", async () => {
    const svc = await open({ authCacheTtlMs: 60_000 });
    const a = await svc.createAccount({ plan: "api", credits: 10 });
    expect((await svc.authenticate(`Bearer ${a.key}`)).limits.requestsPerMinute).not.toBe(7);
    await svc.updateAccount(a.accountId, { requestsPerMinute: 7 });
    expect((await svc.authenticate(`Bearer ${a.key}`)).limits.requestsPerMinute).toBe(7);
    await svc.revokeKey(a.key);
    expect(await codeOf(svc.authenticate(`Bearer ${a.key}`))).toBe("forbidden");
  });

  it("expiry is checked on every request, cached row or not", async () => {
    let nowMs = Date.parse("2024-03-06T15:00:00Z");
    const svc = await open({ authCacheTtlMs: 60_000, clock: () => nowMs });
    const a = await svc.createAccount({ plan: "api", credits: 10 });
    const k = await svc.createKey(a.accountId, { expiresAtMs: nowMs + 1000 });
    expect(await codeOf(svc.authenticate(`Bearer ${k.key}`))).toBe("ok");
    nowMs += 1000;
    expect(await codeOf(svc.authenticate(`Bearer ${k.key}`))).toBe("forbidden");
  });

  it("unknown keys are never cached and answer 403 like revoked ones", async () => {
    const svc = await open();
    expect(await codeOf(svc.authenticate("Bearer osk_live_" + "x".repeat(43)))).toBe("forbidden");
    expect(await codeOf(svc.authenticate(null))).toBe("unauthorized");
  });
});
