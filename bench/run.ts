// `npm run bench`: runs every suite in bench/suites.ts, prints its table, notes and PASS/FAIL lines.
// Optional argument: a suite name to run only that one.
import { arch, cpus, platform } from "node:os";
import { suites } from "./suites";

async function main(): Promise<void> {
  const only = process.argv[2];
  console.log(`machine: ${cpus()[0]?.model ?? "unknown"} (${cpus().length} cores), ${platform()} ${arch()}, node ${process.version}, ${new Date().toISOString()}`);
  let failed = 0;
  for (const suite of suites) {
    if (only && suite.name !== only) continue;
    console.log(`\n== ${suite.name}`);
    const report = await suite.run();
    console.table(report.table);
    for (const note of report.notes) console.log(`  - ${note}`);
    for (const c of report.checks) {
      console.log(`${c.pass ? "PASS" : "FAIL"} ${c.name}: ${c.detail}`);
      if (!c.pass) failed++;
    }
  }
  console.log(`\n${failed === 0 ? "all targets met" : `${failed} target(s) missed`}`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
