/**
 * Child process for the group-commit crash test (run with `node --import tsx`):
 *
 *   crash DB_PATH KEY BATCH   forever: submits BATCH concurrent `debitAsync` calls of 1 credit and
 *                             prints each one's ledger id as soon as its promise resolves (that is,
 *                             once it is acknowledged), one per line, until killed.
 */
import { openAccountService } from "../../../server/accounts";

const [mode, dbPath, key, batchArg] = process.argv.slice(2);

if (mode === "crash") {
  const service = openAccountService({ dbPath });
  const principal = service.authenticate(key);
  const batch = Number(batchArg);
  let n = 0;
  for (;;) {
    const round = Array.from({ length: batch }, () =>
      service.debitAsync(principal, 1, { requestId: `g${process.pid}-${n++}`, route: "/test" }).then((r) => {
        // stdout to a pipe is synchronous on Linux: once written, the parent counts it as acknowledged.
        process.stdout.write(`${r.ledgerId}\n`);
      }),
    );
    await Promise.all(round);
  }
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
