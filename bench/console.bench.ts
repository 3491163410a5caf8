// Developer console costs: the usage tab's ledger report against the account's ledger size (the
// first report folds the whole ledger into the rollup; later ones only the rows written since),
// and one password check at the production scrypt cost (what a sign-in costs the server). Run alone:
//   npx tsx bench/console.bench.ts
// No targets: figures for bench/README.md#console and docs/operations.md#console-usage.
import { cpus, loadavg } from "node:os";
import { Bench } from "tinybench";
import { openAccountService } from "../server/accounts";
import { hashPassword, verifyPassword } from "../server/accounts/password-hash";
import { usageReport } from "../server/accounts/usage-report";
import type { Suite, SuiteReport } from "./suites";

const NOW_MS = Date.parse("2024-03-29T16:00:00Z");

/** An account whose ledger holds `rows` debits spread evenly over the 30 days before now, on 8 routes. */
function ledgerOf(rows: number) {
  const svc = openAccountService({ dbPath: ":memory:", durability: "normal" });
  const { accountId } = svc.createAccount({ plan: "top", credits: 1_000_000 });
  svc.db
    .prepare(
      `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < ? - 1)
       INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
       SELECT ?, ? - (n * 2592000000 / ?), -1, 'debit', 'r' || n, '/v1/route' || (n % 8), 1 FROM i`,
    )
    .run(rows, accountId, NOW_MS, rows);
  return { svc, accountId };
}

export async function runConsoleBench(): Promise<SuiteReport> {
  const table: SuiteReport["table"] = [];
  const bench = new Bench({ time: 1500, warmupTime: 200 });
  const stores: ReturnType<typeof ledgerOf>[] = [];
  for (const rows of [10_000, 100_000, 1_000_000]) {
    const s = ledgerOf(rows);
    stores.push(s);
    const t0 = performance.now();
    usageReport(s.svc.db, s.accountId, NOW_MS, 30);
    table.push({
      task: `first usage report (catch-up), ${rows.toLocaleString("en-US")} ledger rows`,
      "mean ms": Number((performance.now() - t0).toFixed(2)),
      "p99 ms": "one run",
    });
    // Each later report folds in 100 new debits, as a busy account writes between two page views.
    let n = 0;
    const add = s.svc.db.prepare(`INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after) VALUES (?, ?, -1, 'debit', ?, '/v1/heatmap', 1)`);
    bench.add(`usage report after 100 new rows, ${rows.toLocaleString("en-US")} ledger rows`, () => {
      s.svc.db.transaction(() => {
        for (let i = 0; i < 100; i++) add.run(s.accountId, NOW_MS - 1000, `new${n++}`);
      })();
      usageReport(s.svc.db, s.accountId, NOW_MS, 30);
    });
  }
  const stored = await hashPassword("a long console password");
  bench.add("password check, scrypt N=2^15 r=8 p=1", async () => void (await verifyPassword("a long console password", stored)));
  await bench.run();
  for (const task of bench.tasks) {
    const r = task.result as { latency?: { mean: number; p99?: number }; period?: number; samples?: number[] } | undefined;
    const mean = r?.latency?.mean ?? r?.period ?? NaN;
    table.push({ task: task.name, "mean ms": Number(mean.toFixed(2)), "p99 ms": Number((r?.latency?.p99 ?? NaN).toFixed(2)) });
  }
  for (const s of stores) s.svc.close();
  return { table, checks: [], notes: [`load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores (shared)`] };
}

/** The suite for bench/run.ts. */
export const consoleSuite: Suite = { name: "console", run: runConsoleBench };

if (process.argv[1]?.endsWith("console.bench.ts")) {
  console.log(`# console bench ${new Date().toISOString()} node ${process.version} ${cpus()[0]?.model ?? "cpu"} load ${loadavg()[0].toFixed(2)}`);
  const report = await runConsoleBench();
  console.table(report.table);
  for (const n of report.notes) console.log(`  - ${n}`);
}
