/**
 * Child process for the ledger concurrency and crash tests (run with `node --import tsx`).
 *
 *   hammer DB_PATH KEY CLIENTS SEED   opens CLIENTS connections, waits for "go" on stdin, then
 *                                     each debits 1-3 credits until its first 402; prints one
 *                                     JSON summary line.
 *   crash  DB_PATH KEY                debits 1 credit in a loop and prints each acknowledged
 *                                     debit's ledger id, one per line, until killed.
 */
import { openAccountService } from "../../../server/accounts";
import { isApiError } from "../../../server/errors";

const [mode, dbPath, key, clientsArg, seedArg] = process.argv.slice(2);

if (mode === "hammer") {
  const clients = Array.from({ length: Number(clientsArg) }, () => openAccountService({ dbPath, busyTimeoutMs: 30_000 }));
  const principal = clients[0].authenticate(`Bearer ${key}`);
  let rng = Number(seedArg) >>> 0 || 1;
  const cost = () => {
    rng = (Math.imul(rng, 1664525) + 1013904223) >>> 0;
    return 1 + (rng % 3);
  };
  process.stdout.write("ready\n");
  process.stdin.once("data", async () => {
    const acked: { ledgerId: number; credits: number }[] = [];
    let otherErrors = 0;
    const active = new Set(clients.keys());
    let n = 0;
    // Round-robin over this process's connections; yield now and then so the loop stays fair.
    while (active.size > 0) {
      for (const i of [...active]) {
        const credits = cost();
        try {
          const r = clients[i].debit(principal, credits, { requestId: `h${process.pid}-${n++}`, route: "/test" });
          acked.push({ ledgerId: r.ledgerId!, credits });
        } catch (error) {
          if (isApiError(error) && error.code === "insufficient_credits") active.delete(i);
          else {
            otherErrors++;
            if (otherErrors > 1000) active.clear();
          }
        }
        // Think time between requests, as real clients have: without it SQLite's backing-off
        // busy handler lets one tight loop starve the other processes.
        if (cost() === 1) await new Promise((r) => setTimeout(r, 1));
      }
    }
    for (const c of clients) c.close();
    process.stdout.write(JSON.stringify({ acked, otherErrors }) + "\n");
    process.exit(0);
  });
} else if (mode === "crash") {
  const service = openAccountService({ dbPath });
  const principal = service.authenticate(key);
  for (let i = 0; ; i++) {
    const r = service.debit(principal, 1, { requestId: `c${process.pid}-${i}`, route: "/test" });
    // stdout to a pipe is synchronous on Linux: once written, the parent may count it as acknowledged.
    process.stdout.write(`${r.ledgerId}\n`);
  }
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
