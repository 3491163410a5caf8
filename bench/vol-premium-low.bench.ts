// What the running premium lows add to a screener minute (docs/methodology.md#premium-low-and-cheap-from-low):
// every covered root's tilt contracts (rows and headline, call and put) priced per minute with
// `contractMinuteQuotes`, (a) cold from the open at 10:00 and at 15:30 (a restart: every low folded
// from 09:30) and (b) warm, one new minute folded onto memoised lows (what each new minute pays).
// Against it, one whole board per root at that minute (what the screener already builds).
//   npx tsx bench/vol-premium-low.bench.ts
import os from "node:os";
import { Bench } from "tinybench";
import { createSimulatedMarket, fixedClock, type ContractRef } from "../lib/market";
import { etInstant } from "../lib/time";
import { chainTerms, tilt } from "../lib/vol";

async function main(): Promise<void> {
  console.log(
    `# vol premium-low bench ${new Date().toISOString()} node ${process.version} ${os.cpus()[0]?.model ?? "cpu"} (${os.cpus().length} cpus) load ${os.loadavg()[0].toFixed(2)}`,
  );
  const market = createSimulatedMarket({ seed: 42, clock: fixedClock(etInstant("2024-05-01", "16:00")) });
  const roots = market.universeSync().flatMap((s) => s.optionRoots.slice(0, 1));
  const bench = new Bench({ iterations: 3, warmupIterations: 1, time: 0 });
  for (const hhmm of ["10:00", "15:30"]) {
    const at = etInstant("2024-05-01", hhmm);
    const contracts = new Map<string, ContractRef[]>();
    for (const r of roots) {
      const board = market.chainSync(r, at);
      if (!board) continue;
      const t = tilt(board, chainTerms(board));
      const rows = t.headline ? [...t.rows, t.headline] : t.rows;
      contracts.set(
        r,
        rows.flatMap((x) => [
          { expiration: x.expiration, strike: x.call_strike, right: "C" as const },
          { expiration: x.expiration, strike: x.put_strike, right: "P" as const },
        ]),
      );
    }
    const n = [...contracts.values()].reduce((a, c) => a + c.length, 0);
    bench.add(`lows cold from the open to ${hhmm}, ${contracts.size} roots, ${n} contracts`, async () => {
      for (const [r, c] of contracts) await market.contractMinuteQuotes!(r, c, 0, at);
    });
    bench.add(`lows warm: one new minute at ${hhmm}, ${contracts.size} roots, ${n} contracts`, async () => {
      for (const [r, c] of contracts) await market.contractMinuteQuotes!(r, c, at, at);
    });
    bench.add(`for scale: one whole board per root at ${hhmm} (no volume)`, async () => {
      for (const r of contracts.keys()) market.chainSync(r, at + 60_000);
    });
  }
  await bench.run();
  for (const t of bench.tasks) console.log(`${t.name}: mean ${(t.result as { latency?: { mean: number } }).latency?.mean.toFixed(1)} ms`);
  console.log(`load average after: ${os.loadavg()[0].toFixed(2)}`);
}

await main();
