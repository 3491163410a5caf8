// Prints the simulated SPXW board tables of docs/data.md: npx tsx test/market/_print-board.ts
import { chainRows } from "../../lib/market";
import { simulatedMarketAt } from "../_helpers/simulated-market";
const m = simulatedMarketAt(42, Date.parse("2025-06-02T20:30:00Z"));
const c = m.chainSync("SPXW", Date.parse("2024-05-15T18:00:00Z"))!; // 14:00 ET
console.log(
  c.sessionDate,
  new Date(c.asOfMs).toISOString(),
  "spot",
  c.spot,
  "contracts",
  c.right.length,
  "expirations",
  c.expirations.length,
  c.expirations.slice(0, 3),
  c.expirations.slice(-3),
);
const rows = chainRows(c);
const near = (k: number) => Math.abs(k - c.spot) <= 30;
for (const exp of [c.expirations[0], "2024-06-21"]) {
  console.log(`\n${exp}`);
  console.log("| strike | call bid | call ask | call IV | call OI | call vol | put bid | put ask | put IV | put OI | put vol |");
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  const strikes = [...new Set(rows.filter((r) => r.expiry === exp && near(r.strike)).map((r) => r.strike))].filter((k) => k % 10 === 0);
  for (const k of strikes) {
    const C = rows.find((r) => r.expiry === exp && r.strike === k && r.right === "C")!;
    const P = rows.find((r) => r.expiry === exp && r.strike === k && r.right === "P")!;
    const f = (x: number) => x.toFixed(2);
    console.log(
      `| ${k} | ${f(C.bid)} | ${f(C.ask)} | ${(C.iv * 100).toFixed(1)}% | ${C.oi} | ${C.volume} | ${f(P.bid)} | ${f(P.ask)} | ${(P.iv * 100).toFixed(1)}% | ${P.oi} | ${P.volume} |`,
    );
  }
}
