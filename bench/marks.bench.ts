// Chart marks and the typed client (issue 17): `/v1/marks` for SPY over a finished session, the
// session in progress and both, cold (fresh app: the sessions' option and off-exchange tapes
// generated on the first call) and warm (the same call again: a finished session comes from the
// marks cache, the live one reuses its past king samples), and the client's overhead on a free
// call against raw requests.
// Run alone: npx tsx bench/marks.bench.ts
import { cpus, loadavg } from "node:os";
import { Bench } from "tinybench";
import { createClient } from "../lib/client";
import { fixedClock } from "../lib/market/clock";
import { createSimulatedMarket } from "../lib/market/simulated";
import { openAccountService } from "../server/accounts";
import { createApp } from "../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../server/limits";

const NOW = Date.parse("2024-03-06T20:30:00Z"); // Wednesday 15:30 ET

function appAt() {
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { key } = accounts.createAccount({ plan: "top", credits: 100_000_000 });
  let wallMs = Date.parse("2024-01-01T00:00:00Z");
  const app = createApp({
    market: createSimulatedMarket({ seed: 42, clock: fixedClock(NOW) }),
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    wallNowMs: () => (wallMs += 61_000),
    toolServer: false,
  });
  return { app, key };
}

async function main() {
  const rows: Record<string, string | number>[] = [];
  // Tuesday 2024-03-05 is finished (memoised after the first call); Wednesday is in progress at NOW.
  const cases = [
    ["finished session (Tue)", "2024-03-05T14:30:00Z", "2024-03-05T21:00:00Z"],
    ["session in progress (Wed to 15:30)", "2024-03-06T14:30:00Z", "2024-03-06T20:30:00Z"],
    ["2 sessions (Tue + Wed)", "2024-03-05T14:30:00Z", "2024-03-06T20:30:00Z"],
  ] as const;
  for (const [label, fromIso, toIso] of cases) {
    const { app, key } = appAt();
    const path = `/atlas/v1/marks?symbol=SPY&from=${Date.parse(fromIso) / 1000}&to=${Date.parse(toIso) / 1000}&resolution=5`;
    const get = async () => {
      const res = await app.request(path, { headers: { Authorization: `Bearer ${key}` } });
      const body = (await res.json()) as unknown[];
      if (res.status !== 200) throw new Error(`${res.status}`);
      return body.length;
    };
    const t0 = performance.now();
    const n = await get();
    const coldMs = performance.now() - t0;
    const bench = new Bench({ iterations: 5, warmupIterations: 1 });
    bench.add("warm", get);
    await bench.run();
    const warm = bench.tasks[0].result as { latency?: { mean: number } } | undefined;
    rows.push({ case: `/v1/marks SPY ${label}`, marks: n, "cold ms": coldMs.toFixed(0), "warm mean ms": warm?.latency?.mean.toFixed(1) ?? "?" });
  }
  const { app, key } = appAt();
  const api = createClient({ baseUrl: "http://bench.local", apiKey: key, fetch: (input, init) => app.request(input, init) });
  const bench = new Bench({ time: 1500 });
  bench.add("raw app.request /v1/account", async () => {
    const res = await app.request("/v1/account", { headers: { Authorization: `Bearer ${key}` } });
    await res.json();
  });
  bench.add("client.getAccount()", async () => {
    await api.getAccount();
  });
  await bench.run();
  for (const t of bench.tasks) {
    const r = t.result as { latency?: { mean: number } } | undefined;
    rows.push({ case: t.name, marks: "-", "cold ms": "-", "warm mean ms": r?.latency?.mean.toFixed(3) ?? "?" });
  }
  console.log(
    `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model}, load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  console.table(rows);
}

await main();
