// Live feed (issue 33): mapping one Massive chain snapshot of SPXW size (~20,000 contracts, as the
// vendor's `results` objects) to our columnar board, the per-minute CPU a feed spends per symbol
// besides the HTTP paging. Run alone: npx tsx bench/massive-board.bench.ts
// Figures from a loaded, shared machine are indicative only.
import os from "node:os";
import { Bench } from "tinybench";
import { fixedClock } from "../lib/market/clock";
import { boardFromSnapshot } from "../lib/market/massive/snapshot-board";
import { createSimulatedMarket } from "../lib/market/simulated";
import { formatOptionSymbol } from "../lib/symbols/format-option-symbol";

const AT = Date.parse("2024-05-01T15:00:00Z");
const market = createSimulatedMarket({ seed: 42, clock: fixedClock(AT) });
const b = market.chainSync("SPXW", AT)!;
// The simulated board as the vendor would list it (field names of the option chain snapshot).
const results = Array.from(b.right, (r, i) => {
  const e = b.expIndex[i];
  const strike = b.strikes[b.strikeIndex[i]];
  const occ = formatOptionSymbol({ root: b.expiryRoot[e], expiry: b.expirations[e], strike, right: r === 1 ? "C" : "P" }, "url").replace("__", "");
  return {
    details: {
      contract_type: r === 1 ? "call" : "put",
      exercise_style: "european",
      expiration_date: b.expirations[e],
      shares_per_contract: 100,
      strike_price: strike,
      ticker: `O:${occ}`,
    },
    day: { close: b.last[i], volume: b.volume[i] },
    implied_volatility: b.iv[i],
    open_interest: b.oi[i],
    last_quote: { bid: b.bid[i], ask: b.ask[i], last_updated: AT * 1e6 },
    underlying_asset: { price: b.spot, ticker: "I:SPX" },
  };
});
const text = JSON.stringify({ status: "OK", results });
const header = { symbol: "SPXW", underlying: "SPX", roots: ["SPXW"], asOfMs: AT, sessionDate: "2024-05-01", rate: 0.045, dividendYield: 0.015 };

const bench = new Bench({ time: 2000, warmupTime: 300 });
bench
  .add(`SPXW snapshot (${results.length} contracts) -> board`, () => {
    boardFromSnapshot(results, header);
  })
  .add(`SPXW snapshot JSON parse (${(text.length / 2 ** 20).toFixed(1)} MiB, all pages)`, () => {
    JSON.parse(text);
  });
await bench.run();
console.log(`${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg()[0].toFixed(2)}, ${new Date().toISOString()}`);
for (const t of bench.tasks) console.log(`${t.name}: mean ${(t.result as { latency?: { mean: number } })?.latency?.mean?.toFixed(1) ?? "?"} ms`);
