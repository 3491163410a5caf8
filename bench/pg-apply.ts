// PostgreSQL CPU per debit of the group-commit functions (issue 18): `os_apply` (002, one
// operation at a time) against `os_apply_set` (005, set-based), by batch size, from 3 concurrent
// callers (the three instances of bench/scale-out.ts, one batch in flight each) on 3 accounts.
// Reports the PostgreSQL process tree's CPU ms per debit from /proc, which a shared machine's load
// moves far less than the rate. Starts its own PostgreSQL (test/_services, fsync on).
//
//   npx tsx bench/pg-apply.ts [--ops 3000] [--sizes 1,4,16,64] [--fns os_apply,os_apply_set]
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import { openPostgresAccountService } from "../server/accounts/postgres";
import type { PgOp } from "../server/accounts/postgres/pg-batcher";
import { grantDue } from "../server/accounts/postgres/pg-store";
import { usagePeriods } from "../server/accounts/sqlite-ledger";
import { startPostgres } from "../test/_services/postgres-server";
import { findPid, treeCpuMs } from "./_proc-cpu";

const { values } = parseArgs({
  options: { ops: { type: "string", default: "3000" }, sizes: { type: "string", default: "1,4,16,64" }, fns: { type: "string", default: "os_apply,os_apply_set" } },
});
const totalOps = Number(values.ops);
const CALLERS = 3;

const pg = await startPostgres();
const svc = await openPostgresAccountService({ url: pg.url });
try {
  const postmaster = findPid(["postgres", `-p ${pg.port}`]);
  if (!postmaster) throw new Error("postmaster not found");
  const accounts = await Promise.all(Array.from({ length: CALLERS }, () => svc.createAccount({ plan: "top", credits: 10_000_000 })));
  const [sc] = await svc.sql<{ synchronous_commit: string }[]>`SHOW synchronous_commit`;
  console.log(
    `pg-apply: ${totalOps} debits per row, ${CALLERS} callers (one account each), synchronous_commit=${sc?.synchronous_commit}, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  let seq = 0;
  for (const batchSize of values.sizes.split(",").map(Number)) {
    for (const fn of values.fns.split(",")) {
      const perCaller = Math.ceil(totalOps / CALLERS / batchSize);
      const cpu0 = treeCpuMs(postmaster);
      const t0 = performance.now();
      await Promise.all(
        accounts.map(async ({ accountId }) => {
          for (let b = 0; b < perCaller; b++) {
            const ts = Date.now();
            const { day, month } = usagePeriods(ts);
            const g = grantDue("top", ts);
            const ops: PgOp[] = Array.from({ length: batchSize }, () => ({
              op: "debit",
              a: accountId,
              n: 1,
              rq: `b${++seq}`,
              rt: "/v1/heatmap",
              ts,
              d: day,
              m: month,
              gp: g.period,
              gc: g.credits,
              gm: g.monthly,
            }));
            if (fn === "os_apply") await svc.sql`SELECT * FROM os_apply(${svc.sql.json(ops as never)})`;
            else if (fn === "os_apply_set") await svc.sql`SELECT * FROM os_apply_set(${svc.sql.json(ops as never)})`;
            else throw new Error(`unknown function ${fn}`);
          }
        }),
      );
      const ms = performance.now() - t0;
      const done = perCaller * batchSize * CALLERS;
      const cpu = treeCpuMs(postmaster) - cpu0;
      console.log(
        `batch ${String(batchSize).padStart(2)} ${fn.padEnd(12)} PostgreSQL CPU ${(cpu / done).toFixed(3)} ms/debit, ${Math.round((done / ms) * 1000)} debits/s`,
      );
    }
  }
  if ((await svc.verifyLedger()).length > 0) throw new Error("ledger does not balance");
} finally {
  await svc.close();
  await pg.stop();
}
