// Two `optionscope serve` instances on one PostgreSQL accounts store: an OPRA agreement withdrawn
// (or a plan changed) through instance B ends a stream held by instance A within its re-validation
// (a read of the shared store once a second), with `closed` `access_withdrawn`, and A bills no
// interval after it; REST on either instance answers 403 at once. See docs/api.md#stream-events.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresAccountService } from "../../../server/accounts/postgres";
import { resolveServeConfig } from "../../../server/config";
import { startServer, type RunningServer } from "../../../server/serve";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";
import { openRaw, sleep } from "../streams/_sse";

/** Wednesday 2024-03-06 10:00 ET, a session minute; the clock is pinned (no billing minute comes on its own). */
const NOW = "2024-03-06T15:00:00Z";

let pg: PostgresProcess;
let dataDir: string;
const servers: RunningServer[] = [];
const io = { log: () => {}, stderr: () => {} };

beforeAll(async () => {
  pg = await startPostgres();
  dataDir = mkdtempSync(join(tmpdir(), "optionscope-stream-access-pg-"));
  for (let i = 0; i < 2; i++) {
    const argv = [
      "--port",
      "0",
      "--hostname",
      "127.0.0.1",
      "--now",
      NOW,
      "--store",
      pg.url,
      "--ip-ceiling",
      "off",
      "--no-access-log",
      "--no-daily-fill",
      // No worker processes: the boards are built on the loop; access changes are the subject.
      "--compute-workers",
      "0",
      "--data-dir",
      dataDir,
    ];
    servers.push(await startServer(resolveServeConfig(argv, {}), io));
  }
}, 90_000);

afterAll(async () => {
  for (const s of servers) await s.shutdown(500);
  await pg?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const a = () => servers[0]!;
const b = () => servers[1]!;
const adminOf = (s: RunningServer) => s.accounts as PostgresAccountService;

/**
 * `f`, tried again after a 503 (an admin call past the store's deadline on a loaded machine is a
 * 503 by design; it is not what these tests are about).
 */
async function retrying<T>(f: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await f();
    } catch (error) {
      if (attempt >= 5 || (error as { status?: number }).status !== 503) throw error;
      await sleep(500);
    }
  }
}

describe("stream access across instances on one PostgreSQL store", () => {
  it.each([
    { name: "OPRA agreement withdrawn on B ends A's flow stream", path: "/v1/flow/stream", query: "ticker=SPY", change: { opraAgreement: false }, rest: "/v1/flow/SPY" },
    {
      name: "plan without positioning set on B ends A's positioning stream",
      path: "/v1/stream",
      query: "symbols=SPY",
      change: { plan: "flow" as const },
      rest: "/v1/heatmap?symbols=SPY",
    },
  ])(
    "$name: closed access_withdrawn within seconds, no interval billed after",
    async (c) => {
      const { accountId, key } = await retrying(async () => adminOf(a()).createAccount({ plan: "top", credits: 10_000 }));
      const s = await openRaw(a().listening.url, key, c.query, { path: c.path });
      try {
        expect(s.status).toBe(200);
        await s.waitFor((f) => f.event === "connected", 30_000);
        await retrying(async () => adminOf(b()).updateAccount(accountId, c.change));
        // REST refuses at once on the instance that made the change.
        const rest = await fetch(`${b().listening.url}${c.rest}`, { headers: { Authorization: `Bearer ${key}` } });
        expect(rest.status).toBe(403);
        // Within seconds (instances re-check access every second): the wait gives up after 15 s.
        const closed = await s.waitFor((f) => f.event === "closed", 15_000);
        expect(closed.data).toMatchObject({ reason: "access_withdrawn", reconnectable: false });
        await s.ended;
        const after = await retrying(async () => adminOf(a()).balance(accountId));
        await sleep(1_500);
        expect(await retrying(async () => adminOf(b()).balance(accountId))).toBe(after);
        const debits = (await retrying(async () => adminOf(a()).ledger(accountId, { limit: 100 }))).filter(
          (e) => e.kind === "debit" && /\.m\d+$/.test(e.requestId ?? ""),
        );
        expect(debits).toEqual([]);
      } finally {
        s.abort();
      }
    },
    60_000,
  );
});
