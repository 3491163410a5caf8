// The PostgreSQL store's deadline (issue 38, item 3) against a server that does not answer at all:
// PostgreSQL frozen with SIGSTOP keeps every connection open and silent (a hung host, a half-open
// connection), so without a deadline a call waits for TCP to give up, minutes later. Each call
// answers 503 credit_check_failed with Retry-After once the deadline passes; a debit whose batch
// was overdue is compensated once its call ends (a late COMMIT is undone), the group commit moves
// to a fresh connection, and service resumes when the server does. See docs/operations.md#store-deadline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresAccountService, type PostgresAccountService } from "../../../server/accounts/postgres";
import { PG_RECONNECT_MAX_S, pgReconnectDelayS } from "../../../server/accounts/postgres/pg-connection";
import { resolveServeConfig, UsageError } from "../../../server/config";
import { ApiError } from "../../../server/errors";
import { OAuthError } from "../../../server/oauth/oauth-error";
import { isStoreOutage } from "../../../server/store-outage";
import { StoreTimeoutError, withDeadline } from "../../../server/store-deadline";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";

const DEADLINE_MS = 500;

async function rejected(f: () => Promise<unknown>): Promise<ApiError> {
  try {
    await f();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected a rejection");
}

describe("withDeadline", () => {
  it("passes an answer or an error through; past the deadline rejects with a store outage", async () => {
    expect(await withDeadline(Promise.resolve(7), 50)).toBe(7);
    await expect(withDeadline(Promise.reject(new TypeError("x")), 50)).rejects.toBeInstanceOf(TypeError);
    const late = await withDeadline(new Promise(() => {}), 20).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(StoreTimeoutError);
    expect(isStoreOutage(late)).toBe(true);
    // No deadline (0, or not a number): the work as it is.
    expect(await withDeadline(new Promise((r) => setTimeout(() => r("slow"), 30)), 0)).toBe("slow");
  });

  it("the driver reconnects after at most PG_RECONNECT_MAX_S, whatever the failures in a row", () => {
    expect(pgReconnectDelayS(1)).toBe(0.05);
    expect(pgReconnectDelayS(2)).toBe(0.1);
    expect(pgReconnectDelayS(50)).toBe(PG_RECONNECT_MAX_S);
  });
});

describe("--store-timeout-ms / OPTIONSCOPE_STORE_TIMEOUT_MS", () => {
  it("takes an integer number of ms from 100 to 60000; anything else is a usage error naming the setting and the range", () => {
    expect(resolveServeConfig([], {}).storeTimeoutMs).toBeUndefined();
    expect(resolveServeConfig(["--store-timeout-ms", "2000"], {}).storeTimeoutMs).toBe(2000);
    expect(resolveServeConfig([], { OPTIONSCOPE_STORE_TIMEOUT_MS: "800" }).storeTimeoutMs).toBe(800);
    for (const bad of ["0", "99", "60001", "1.5", "abc", "-5"]) {
      expect(() => resolveServeConfig([`--store-timeout-ms=${bad}`], {})).toThrow(UsageError);
      expect(() => resolveServeConfig([`--store-timeout-ms=${bad}`], {})).toThrow(/--store-timeout-ms.*from 100 to 60000/);
    }
  });
});

describe("PostgreSQL frozen (SIGSTOP)", () => {
  let pg: PostgresProcess;
  let svc: PostgresAccountService;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    pg?.thaw();
    await svc?.close();
    await pg?.stop();
  });

  it("every call answers 503 at the deadline; the overdue debit is compensated and service resumes after SIGCONT", async () => {
    svc = await openPostgresAccountService({ url: pg.url, timeoutMs: DEADLINE_MS, authCacheTtlMs: 0 });
    const { key } = await svc.createAccount({ plan: "top", credits: 100, dailyCapCredits: null });
    const p = await svc.authenticate(`Bearer ${key}`);
    await svc.debit(p, 10, { requestId: "before", route: "/v1/heatmap" });

    const consoleStore = svc.openConsoleStore();
    const oauth = svc.openOAuthStore();
    pg.freeze();
    try {
      // The console and OAuth stores: their own 503s (the console's claims nothing about changes).
      const c = await rejected(() => consoleStore.session("no-such-session"));
      expect([c.status, c.code, c.headers["Retry-After"]]).toEqual([503, "store_unavailable", "1"]);
      const o = await Promise.resolve()
        .then(() => oauth.getClient("no-such-client"))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(o).toBeInstanceOf(OAuthError);
      expect([(o as OAuthError).status, (o as OAuthError).error]).toEqual([503, "temporarily_unavailable"]);
      for (const call of [
        () => svc.debit(p, 5, { requestId: "frozen-1", route: "/v1/heatmap" }),
        () => svc.debit(p, 5, { requestId: "frozen-2", route: "/v1/heatmap" }),
        () => svc.authenticate(`Bearer ${key}`),
        () => svc.balance(p.accountId),
        () => svc.getAccount(p.accountId),
      ]) {
        const e = await rejected(call);
        expect([e.status, e.code, e.headers["Retry-After"]]).toEqual([503, "credit_check_failed", "1"]);
      }
    } finally {
      pg.thaw();
    }
    // The overdue batches end once the server answers them, and are compensated (a late COMMIT undone).
    await svc.drain(20_000);
    expect(svc.groupCommitStats().inDoubt).toBe(0);
    expect((await svc.debit(p, 5, { requestId: "after", route: "/v1/heatmap" })).balance).toBe(85);
    const ledger = await svc.ledger(p.accountId);
    const net = new Map<string, number>();
    for (const e of ledger) if (e.requestId) net.set(e.requestId, (net.get(e.requestId) ?? 0) + e.delta);
    expect([net.get("frozen-1") ?? 0, net.get("frozen-2") ?? 0]).toEqual([0, 0]);
    // frozen-1's batch had reached the server: it committed after SIGCONT and was refunded.
    expect(
      ledger
        .filter((e) => e.requestId === "frozen-1")
        .map((e) => e.kind)
        .sort(),
    ).toEqual(["debit", "refund"]);
    expect(await svc.verifyLedger()).toEqual([]);
    const d = await svc.getAccount(p.accountId);
    expect([d.creditsBalance, d.ledgerSumCredits]).toEqual([85, 85]);
  }, 90_000);
});
