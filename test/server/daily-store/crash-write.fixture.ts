// Child process of the crash test: commits one batch, says so, then writes a large batch in one
// transaction and is killed (SIGKILL) by the parent while it runs.
import { FLOW_SUMMARY, openDailyStore } from "../../../server/daily-store";

const [path, identity] = process.argv.slice(2);
const store = openDailyStore(path, identity);
store.putMany(FLOW_SUMMARY, [{ symbol: "KEEP", session: "2024-03-04", value: { kept: true } }]);
// A pipe to the parent is written synchronously on Linux: the parent sees this before the batch starts.
process.stdout.write("committed\n");
const big = Array.from({ length: 200_000 }, (_, i) => ({ symbol: `S${i}`, session: "2024-03-05", value: { i, pad: "x".repeat(64) } }));
process.stdout.write("writing\n");
store.putMany(FLOW_SUMMARY, big);
process.stdout.write("done\n");
