// The store-outage classifier and `toApiError` on errors the real drivers throw: a stopped
// PostgreSQL, a Redis that does not answer, a closed or locked SQLite database become 503
// `store_unavailable` with Retry-After; the same drivers' programming errors (bad SQL, a
// constraint) and plain TypeErrors stay 500 `internal_error`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../server/sqlite";
import Redis from "ioredis";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, STORE_RETRY_AFTER_S, toApiError } from "../../server/errors";
import { isStoreOutage } from "../../server/store-outage";
import { startPostgres, type PostgresProcess } from "../_services/postgres-server";
import { freePort } from "../_services/redis-server";

/** What a call threw (fails the test when it did not throw). */
async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

function expectStoreUnavailable(error: unknown): void {
  expect(isStoreOutage(error), String(error)).toBe(true);
  const e = toApiError(error);
  expect([e.status, e.code]).toEqual([503, "store_unavailable"]);
  expect(e.headers["Retry-After"]).toBe(String(STORE_RETRY_AFTER_S));
  expect(e.details.retry_after).toBe(STORE_RETRY_AFTER_S);
  // Nothing internal is revealed (no host, port or driver text).
  expect(e.message).not.toMatch(/127\.0\.0\.1|ECONN|SQLITE|closed/);
}

function expectInternal(error: unknown): void {
  expect(isStoreOutage(error), String(error)).toBe(false);
  const e = toApiError(error);
  expect([e.status, e.code, e.message]).toEqual([500, "internal_error", "Internal server error."]);
}

describe("PostgreSQL (postgres driver)", () => {
  let pg: PostgresProcess;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it("a stopped server, a refused connection and an ended pool are store outages", async () => {
    const sql = postgres(pg.url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    expect((await sql`SELECT 1 AS one`)[0]).toEqual({ one: 1 });
    await pg.pause();
    try {
      expectStoreUnavailable(await thrown(() => sql`SELECT 1`));
    } finally {
      await pg.start();
    }
    await sql.end({ timeout: 1 });
    expectStoreUnavailable(await thrown(() => sql`SELECT 1`)); // CONNECTION_ENDED

    const nobody = postgres(`postgres://optionscope@127.0.0.1:${await freePort()}/postgres`, { max: 1, connect_timeout: 2 });
    try {
      expectStoreUnavailable(await thrown(() => nobody`SELECT 1`)); // ECONNREFUSED
    } finally {
      await nobody.end({ timeout: 0 });
    }
  }, 60_000);

  it("a server killing the session (57P01 admin_shutdown) is an outage; bad SQL and a constraint are programming errors", async () => {
    const sql = postgres(pg.url, { max: 2, onnotice: () => {} });
    try {
      const syntax = await thrown(() => sql`SELEC 1`);
      expect((syntax as { code?: string }).code).toBe("42601");
      expectInternal(syntax);
      await sql`CREATE TEMP TABLE t (id int PRIMARY KEY)`;
      const dup = await thrown(() => sql`INSERT INTO t VALUES (1), (1)`);
      expect((dup as { code?: string }).code).toBe("23505");
      expectInternal(dup);
      const reserved = await sql.reserve();
      const [{ pid }] = await reserved<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await sql`SELECT pg_terminate_backend(${pid})`;
      expectStoreUnavailable(await thrown(() => reserved`SELECT 1`));
      reserved.release();
    } finally {
      await sql.end({ timeout: 1 });
    }
  }, 30_000);
});

describe("Redis (ioredis)", () => {
  it("nothing listening: 'Connection is closed.' and MaxRetriesPerRequestError are store outages", async () => {
    const port = await freePort();
    const once = new Redis({ port, host: "127.0.0.1", retryStrategy: () => null, maxRetriesPerRequest: 0, lazyConnect: true });
    once.on("error", () => {});
    const retrying = new Redis({ port, host: "127.0.0.1", retryStrategy: () => 20, maxRetriesPerRequest: 1 });
    retrying.on("error", () => {});
    try {
      await once.connect().catch(() => {});
      const closed = await thrown(() => once.get("k"));
      expect((closed as Error).message).toBe("Connection is closed.");
      expectStoreUnavailable(closed);
      const retries = await thrown(() => retrying.get("k"));
      expect((retries as Error).name).toBe("MaxRetriesPerRequestError");
      expectStoreUnavailable(retries);
    } finally {
      once.disconnect();
      retrying.disconnect();
    }
  });
});

describe("SQLite (server/sqlite.ts)", () => {
  it("a closed database and a locked one (SQLITE_BUSY) are store outages; bad SQL and a constraint are not", () => {
    const dir = mkdtempSync(join(tmpdir(), "optionscope-outage-"));
    try {
      const path = join(dir, "t.sqlite");
      const a = openSqlite(path);
      a.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
      const b = openSqlite(path, { timeoutMs: 0 });
      a.exec("BEGIN EXCLUSIVE");
      let busy: unknown = null;
      try {
        b.prepare("SELECT * FROM t").all();
      } catch (error) {
        busy = error;
      }
      expect((busy as { code?: string })?.code).toBe("SQLITE_BUSY");
      expectStoreUnavailable(busy);
      a.exec("ROLLBACK");

      let syntax: unknown = null;
      let dup: unknown = null;
      try {
        a.prepare("SELEC 1");
      } catch (error) {
        syntax = error;
      }
      a.exec("INSERT INTO t VALUES (1)");
      try {
        a.exec("INSERT INTO t VALUES (1)");
      } catch (error) {
        dup = error;
      }
      expect([(syntax as { code?: string })?.code, (dup as { code?: string })?.code]).toEqual(["SQLITE_ERROR", "SQLITE_CONSTRAINT_PRIMARYKEY"]);
      expectInternal(syntax);
      expectInternal(dup);

      const stmt = b.prepare("SELECT * FROM t");
      b.close();
      let closed: unknown = null;
      try {
        stmt.all();
      } catch (error) {
        closed = error;
      }
      expectStoreUnavailable(closed);
      a.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("toApiError keeps what it already knew", () => {
  it("programming errors stay 500; an outage wrapped as a cause is still found; ApiErrors pass as they are", () => {
    expectInternal(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expectInternal(new Error("something else"));
    expectInternal(null);
    expectStoreUnavailable(new Error("wrapper", { cause: Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:5432"), { code: "ECONNREFUSED" }) }));
    const own = new ApiError(503, "credit_check_failed", "x", { headers: { "Retry-After": "1" } });
    expect(toApiError(own)).toBe(own);
  });
});
