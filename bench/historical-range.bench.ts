// Range replay bench (issue 16 target: /v1/historical/range at its widest, 15 minutes x 5 symbols
// with SPXW among them, cold <= 1 s). Runs the real app in-process over the simulated market with a
// pinned clock; "cold" is a fresh app and market (no board memoised), repeated for several windows.
//
//   npx tsx bench/historical-range.bench.ts [--runs 5]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createSimulatedMarket, fixedClock } from "../lib/market";
import { etInstant } from "../lib/time";
import { openAccountService } from "../server/accounts";
import { createApp } from "../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../server/limits";

/** The target, ms. */
export const RANGE_TARGET_COLD_MS = 1000;

const SYMBOLS = "SPXW,SPY,QQQ,AAPL,NVDA";

async function coldRange(date: string, hhmm: string): Promise<{ ms: number; frames: number }> {
  const toMs = etInstant(date, hhmm);
  const clock = fixedClock(toMs + 3_600_000);
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { key } = accounts.createAccount({ plan: "top", credits: 1_000_000, requestsPerMinute: 1_000_000 });
  const app = createApp({
    market: createSimulatedMarket({ seed: 42, clock }),
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    clock,
  });
  const path = `/v1/historical/range?symbols=${SYMBOLS}&from=${new Date(toMs - 15 * 60_000).toISOString()}&to=${new Date(toMs).toISOString()}`;
  const t0 = performance.now();
  const res = await app.request(path, { headers: { Authorization: `Bearer ${key}` } });
  const body = await res.json();
  const ms = performance.now() - t0;
  accounts.close();
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms, frames: (body.data.symbols as { frames: unknown[] }[]).reduce((n, s) => n + s.frames.length, 0) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
  const windows: [string, string][] = [
    ["2024-03-06", "11:00"],
    ["2024-03-15", "10:00"],
    ["2024-05-01", "15:30"],
    ["2025-02-03", "12:15"],
    ["2023-11-24", "12:45"],
  ];
  const rows = [];
  for (const [date, hhmm] of windows.slice(0, Number(values.runs))) rows.push({ date, hhmm, ...(await coldRange(date, hhmm)) });
  const worst = Math.max(...rows.map((r) => r.ms));
  for (const r of rows) console.log(`  ${r.date} ${r.hhmm} ET: ${r.frames} frames, cold ${r.ms.toFixed(0)} ms`);
  console.log(
    `${worst <= RANGE_TARGET_COLD_MS ? "PASS" : "FAIL"} historical/range 15 min x 5 symbols (${SYMBOLS}) cold: worst ${worst.toFixed(0)} ms ` +
      `(target <= ${RANGE_TARGET_COLD_MS}), load average ${loadavg()[0].toFixed(1)}`,
  );
}

await main();
