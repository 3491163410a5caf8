// Child process of the lock test: a filler on the data directory given, logging JSON lines to
// stdout, kept alive until the parent kills it (SIGKILL: no release of its lease).
import { fixedClock } from "../../../lib/market/clock";
import { dailyDbPath, marketIdentity, openDailyStore, startDailyFill } from "../../../server/daily-store";
import { LOCK_SCOPE, NOW_MS } from "./_store-fixtures";

const [dir] = process.argv.slice(2);
const store = openDailyStore(dailyDbPath(dir), marketIdentity({ kind: "simulated", seed: 42 }));
const say = (line: Record<string, unknown>) => process.stdout.write(JSON.stringify(line) + "\n");
const filler = startDailyFill({ store, source: { kind: "simulated", seed: 42 }, clock: fixedClock(NOW_MS), ...LOCK_SCOPE, log: say });
say({ msg: "role", role: filler.role(), pid: process.pid });
setInterval(() => {}, 1000);
