// Three `optionscope serve` instances on one PostgreSQL accounts store and one redis-server,
// clients spread across them: one account is never overdrawn and its ledger equals its balance;
// SIGKILL of an instance (a real child process) under load loses no acknowledged debit; stopping
// PostgreSQL mid-run gives 503s (never a 500), no lost and no double debit, and service resumes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresAccountService } from "../../../server/accounts/postgres";
import { AUTH_CACHE_TTL_MS } from "../../../server/accounts/postgres/pg-auth";
import { runAccountsCli } from "../../../server/cli";
import { runConsoleCli } from "../../../server/cli/console-cli";
import { runPauseCli } from "../../../server/cli/pause-cli";
import { resolveServeConfig } from "../../../server/config";
import { startServer, type RunningServer } from "../../../server/serve";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";
import { freePort, startRedis, type RedisProcess } from "../../_services/redis-server";

/** Wednesday 2024-03-06 10:00 ET: a session minute, so the heatmap has boards. */
const NOW = "2024-03-06T15:00:00Z";
const HEATMAP = "/v1/heatmap?symbols=SPY";

let pg: PostgresProcess;
let redis: RedisProcess;
let dataDir: string;
const servers: RunningServer[] = [];
const io = { log: () => {}, stderr: () => {} };
const serveArgs = () => [
  "--hostname",
  "127.0.0.1",
  "--now",
  NOW,
  "--store",
  pg.url,
  "--redis",
  redis.url,
  "--ip-ceiling",
  "off",
  "--no-access-log",
  // No background daily fill (a volatility year and 20 flow sessions, a core busy for the whole
  // file): nothing here reads the daily store (docs/operations.md#daily-store).
  "--no-daily-fill",
  // No worker processes either (four per instance to start): the routes compute on the loop, and
  // what is tested here is the instances' shared store, not where a board is built.
  "--compute-workers",
  "0",
  "--data-dir",
  dataDir,
];

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  dataDir = mkdtempSync(join(tmpdir(), "optionscope-scale-pg-"));
  for (let i = 0; i < 3; i++) servers.push(await startServer(resolveServeConfig(["--port", "0", ...serveArgs()], {}), io));
}, 90_000);

afterAll(async () => {
  for (const s of servers) await s.shutdown(500);
  await redis?.stop();
  await pg?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const store = () => servers[0]!.accounts as PostgresAccountService;

/** An account for one test: `credits` to spend, no caps, no rate limit in the way. */
async function account(credits: number): Promise<{ accountId: string; key: string }> {
  return store().createAccount({ plan: "top", credits, dailyCapCredits: null, requestsPerMinute: 1_000_000 });
}

interface Outcome {
  status: number | "network";
  requestId: string | null;
  code: string | null;
  retryAfter: string | null;
}

async function call(base: string, key: string): Promise<Outcome> {
  try {
    const res = await fetch(`${base}${HEATMAP}`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    return { status: res.status, requestId: res.headers.get("x-request-id"), code: body?.error?.code ?? null, retryAfter: res.headers.get("retry-after") };
  } catch {
    return { status: "network", requestId: null, code: null, retryAfter: null };
  }
}

/** Net credits the ledger holds per request id (debits net of refunds), for one account. */
async function netByRequest(accountId: string): Promise<Map<string, number>> {
  const rows = await store().ledger(accountId, { limit: 1_000_000 });
  const net = new Map<string, number>();
  for (const e of rows) if (e.kind === "debit" || e.kind === "refund") net.set(e.requestId!, (net.get(e.requestId!) ?? 0) - e.delta);
  for (const [k, v] of net) if (v === 0) net.delete(k);
  return net;
}

describe("three instances on one PostgreSQL and one Redis", () => {
  it("an instance refuses to start when the store cannot be reached", async () => {
    const port = await freePort();
    const argv = ["--port", "0", ...serveArgs().map((a) => (a === pg.url ? `postgres://optionscope:pw@127.0.0.1:${port}/optionscope` : a))];
    await expect(startServer(resolveServeConfig(argv, {}), io)).rejects.toThrow(
      new RegExp(`PostgreSQL store postgres://optionscope:\\*\\*\\*@127.0.0.1:${port}/optionscope could not be opened`),
    );
  });

  it("64 concurrent clients never overdraw one account; every 200 is one debit; the ledger equals the balance", async () => {
    const { accountId, key } = await account(40);
    const outcomes: Outcome[] = [];
    await Promise.all(
      Array.from({ length: 64 }, async (_, c) => {
        for (let i = 0; ; i++) {
          const o = await call(servers[(c + i) % 3]!.listening.url, key);
          outcomes.push(o);
          if (o.status !== 200) break;
        }
      }),
    );
    const ok = outcomes.filter((o) => o.status === 200);
    expect(ok.length).toBe(40);
    expect(outcomes.filter((o) => o.status !== 200 && !(o.status === 402 && o.code === "insufficient_credits")).map((o) => `${o.status} ${o.code}`)).toEqual([]);
    const net = await netByRequest(accountId);
    expect([...net.keys()].sort()).toEqual(ok.map((o) => o.requestId!).sort());
    expect([...net.values()].every((v) => v === 1)).toBe(true);
    const d = await store().getAccount(accountId);
    expect([d.creditsBalance, d.ledgerSumCredits]).toEqual([0, 0]);
  }, 60_000);

  it("SIGKILL of one instance (a child process) under load loses no acknowledged debit", async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ["bin/optionscope.mjs", "serve", "--port", String(port), ...serveArgs()], {
      cwd: join(__dirname, "../../.."),
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let err = "";
        const timer = setTimeout(() => reject(new Error(`child did not start: ${err.slice(-500)}`)), 60_000);
        child.stderr!.on("data", (chunk: Buffer) => {
          err += chunk.toString();
          if (err.includes("listening on")) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once("exit", (code) => reject(new Error(`child exited ${code}: ${err.slice(-500)}`)));
      });
      const { accountId, key } = await account(1_000_000);
      const bases = [`http://127.0.0.1:${port}`, servers[1]!.listening.url, servers[2]!.listening.url];
      const outcomes: (Outcome & { base: string })[] = [];
      let stop = false;
      const load = Promise.all(
        Array.from({ length: 32 }, async (_, c) => {
          for (let i = 0; !stop; i++) {
            const base = bases[(c + i) % 3]!;
            outcomes.push({ ...(await call(base, key)), base });
          }
        }),
      );
      const childOk = () => outcomes.filter((o) => o.base === bases[0] && o.status === 200).length;
      // Kill once the child has answered under load (a loaded machine may take a while to get there).
      for (let waited = 0; waited < 30_000 && childOk() < 10; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      const beforeKill = outcomes.filter((o) => o.status === 200).length;
      expect(childOk()).toBeGreaterThan(0);
      child.kill("SIGKILL");
      // Load on until the two others have answered after the kill and the kill has cut off a
      // request in flight (the assertions below), at the latest 1.5 s: past that point the load
      // only repeated answers already checked.
      const killedMs = performance.now();
      const seen = () => outcomes.filter((o) => o.status === 200).length > beforeKill && outcomes.some((o) => o.status === "network");
      while (!seen() && performance.now() - killedMs < 1500) await new Promise((r) => setTimeout(r, 20));
      stop = true;
      await load;
      const ok = outcomes.filter((o) => o.status === 200);
      expect(beforeKill).toBeGreaterThan(0);
      expect(ok.length).toBeGreaterThan(beforeKill); // the two others kept serving
      expect(outcomes.some((o) => o.status === "network")).toBe(true); // the kill did hit requests in flight
      expect(outcomes.filter((o) => typeof o.status === "number" && o.status >= 500)).toEqual([]);
      const net = await netByRequest(accountId);
      for (const o of ok) expect(net.get(o.requestId!)).toBe(1);
      // Debits of requests whose answer the kill cut off may stand (the client saw no answer):
      // at most one per client in flight.
      expect(net.size - ok.length).toBeGreaterThanOrEqual(0);
      expect(net.size - ok.length).toBeLessThanOrEqual(32);
      const d = await store().getAccount(accountId);
      expect(d.creditsBalance).toBe(d.ledgerSumCredits);
      expect(d.creditsBalance).toBe(1_000_000 - net.size);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 120_000);

  it("stopping PostgreSQL mid-run: 503 credit_check_failed with Retry-After, no 500, no lost or double debit, then service resumes", async () => {
    const { accountId, key } = await account(1_000_000);
    const outcomes: (Outcome & { phase: "before" | "down" | "after" })[] = [];
    let phase: "before" | "down" | "after" = "before";
    let stop = false;
    const load = Promise.all(
      Array.from({ length: 16 }, async (_, c) => {
        for (let i = 0; !stop; i++) {
          const o = await call(servers[(c + i) % 3]!.listening.url, key);
          outcomes.push({ ...o, phase });
          if (o.status !== 200) await new Promise((r) => setTimeout(r, 20));
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 700));
    await pg.pause();
    phase = "down";
    await new Promise((r) => setTimeout(r, 2000));
    await pg.start();
    phase = "after";
    // Load on until a request has succeeded after the restart (service resumes, asserted below),
    // at the latest 3 s as before: the load past it only repeated answers already checked.
    const backMs = performance.now();
    while (!outcomes.some((o) => o.phase === "after" && o.status === 200) && performance.now() - backMs < 3000) await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await load;
    // In-doubt operations (cut off by the stop) are compensated once the store is back.
    for (const s of servers) await (s.accounts as PostgresAccountService).drain(15_000);

    expect(outcomes.filter((o) => o.status === 500 || o.status === "network")).toEqual([]);
    const unavailable = outcomes.filter((o) => o.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const o of unavailable) {
      expect(o.code).toBe("credit_check_failed");
      expect(Number(o.retryAfter)).toBeGreaterThan(0);
    }
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
    expect(outcomes.some((o) => o.phase === "after" && o.status === 200)).toBe(true);
    const ok = outcomes.filter((o) => o.status === 200);
    const net = await netByRequest(accountId);
    // Exactly the answered requests are charged, once each.
    expect([...net.keys()].sort()).toEqual(ok.map((o) => o.requestId!).sort());
    expect([...net.values()].every((v) => v === 1)).toBe(true);
    const d = await store().getAccount(accountId);
    expect([d.creditsBalance, d.ledgerSumCredits]).toEqual([1_000_000 - ok.length, 1_000_000 - ok.length]);
  }, 120_000);

  it("the CLI works on the shared store (OPTIONSCOPE_STORE or --store): every instance sees its changes within the auth cache's bound", async () => {
    const env = { OPTIONSCOPE_STORE: pg.url, OPTIONSCOPE_DATA_DIR: dataDir };
    const run = async (fn: typeof runAccountsCli, ...argv: string[]) => {
      let stdout = "";
      let stderr = "";
      const code = await fn(argv, env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
      return { code, stdout, stderr };
    };
    const created = await run(runAccountsCli, "account", "create", "--plan", "api", "--credits", "77", "--json");
    expect(created.code, created.stderr).toBe(0);
    const { accountId, key } = JSON.parse(created.stdout) as { accountId: string; key: string };
    const auth = { headers: { Authorization: `Bearer ${key}` } };
    for (const s of servers) {
      const res = await fetch(`${s.listening.url}/v1/account`, auth);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { creditsBalance: number; customerId: string } }).data).toMatchObject({ creditsBalance: 77, customerId: accountId });
    }
    expect((await run(runAccountsCli, "account", "set", accountId, "--status", "suspended", "--store", pg.url)).code).toBe(0);
    // Each instance drops its cached key row on the change's NOTIFY, and at the latest after
    // AUTH_CACHE_TTL_MS (server/accounts/postgres/pg-auth.ts; the notice itself is tested in
    // pg-auth-cache.test.ts). Waiting out the bound keeps a request that beat the notice from
    // being charged here.
    await new Promise((r) => setTimeout(r, AUTH_CACHE_TTL_MS + 100));
    for (const s of servers) {
      const res = await fetch(`${s.listening.url}${HEATMAP}`, auth);
      expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([403, "account_suspended"]);
    }
    await run(runAccountsCli, "account", "set", accountId, "--status", "active");
    const shown = await run(runAccountsCli, "account", "show", accountId, "--ledger", "5", "--json");
    expect(JSON.parse(shown.stdout)).toMatchObject({ accountId, plan: "api", creditsBalance: 77, ledgerSumCredits: 77 });
    const verify = await run(runAccountsCli, "account", "verify", "--json");
    expect([verify.code, JSON.parse(verify.stdout)]).toEqual([0, { ok: true, mismatches: [] }]);
    expect((await run(runAccountsCli, "key", "revoke", key)).code).toBe(0);
    await new Promise((r) => setTimeout(r, AUTH_CACHE_TTL_MS + 100));
    expect((await fetch(`${servers[2]!.listening.url}/v1/account`, auth)).status).toBe(403);

    // pause / resume reach every instance (each re-reads the flag within a second).
    expect((await run(runPauseCli, "pause", "--retry-after", "30")).code).toBe(0);
    const other = await account(10);
    const other_ = { headers: { Authorization: `Bearer ${other.key}` } };
    await new Promise((r) => setTimeout(r, 1500));
    for (const s of servers) {
      const res = await fetch(`${s.listening.url}${HEATMAP}`, other_);
      expect([res.status, res.headers.get("retry-after")]).toEqual([503, "30"]);
    }
    expect((await run(runPauseCli, "resume")).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await fetch(`${servers[0]!.listening.url}${HEATMAP}`, other_)).status).toBe(200);

    // Invite codes live in PostgreSQL too: one the CLI makes is redeemed once, whichever instance gets it.
    const made = await run(runConsoleCli, "invite", "create", "--plan", "invite", "--json");
    expect(made.code, made.stderr).toBe(0);
    const code = (JSON.parse(made.stdout) as { invites: { code: string }[] }).invites[0]!.code;
    const signUp = (url: string) =>
      fetch(`${url}/console/api/sign-up`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: url },
        body: JSON.stringify({ inviteCode: code, password: "a long console password" }),
      });
    expect((await signUp(servers[0]!.listening.url)).status).toBe(201);
    expect((await signUp(servers[1]!.listening.url)).status).toBe(404);
    const listed = await run(runConsoleCli, "invite", "list", "--json");
    expect((JSON.parse(listed.stdout) as { invites: { state: string }[] }).invites.map((i) => i.state)).toEqual(["redeemed"]);
    // A store URL that is not PostgreSQL is a usage error naming the allowed forms.
    const bad = await run(runAccountsCli, "account", "list", "--store", "mysql://x");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/postgres:\/\/user\[:password\]@host/);
  }, 60_000);
});
