/**
 * Prints a SHA-256 of a few simulated boards and bars, so a test can compare processes.
 * Usage: npx tsx test/market/_fingerprint.ts SEED
 */
import { createHash } from "node:crypto";
import { fixedClock } from "../../lib/market/clock";
import { createSimulatedMarket } from "../../lib/market/simulated";

/** SHA-256 over the columns of chains and bars that the market produces for these requests. */
export function fingerprint(seed: number, order: "forward" | "reverse" = "forward"): string {
  const market = createSimulatedMarket({ seed, clock: fixedClock(Date.parse("2025-06-02T20:30:00Z")) });
  const requests: (() => ArrayBufferView[])[] = [
    () => {
      const c = market.chainSync("SPXW", Date.parse("2024-05-01T17:03:00Z"))!;
      return [c.strikes, c.strikeIndex, c.expIndex, c.right, c.oi, c.bid, c.ask, c.last, c.iv, c.volume];
    },
    () => {
      const c = market.chainSync("AAPL", Date.parse("2023-11-02T14:45:00Z"))!;
      return [c.strikes, c.oi, c.bid, c.ask, c.iv, c.volume];
    },
    () => {
      const b = market.minuteBarsSync("NVDA", Date.parse("2024-02-21T09:00:00Z"), Date.parse("2024-02-23T01:00:00Z"), { extended: true });
      return [b.t, b.o, b.h, b.l, b.c, b.v, b.bv, b.sv, b.uv];
    },
    () => [Float64Array.of(market.spotSync("QQQ", Date.parse("2025-01-15T15:00:00Z")) ?? -1)],
  ];
  const parts = (order === "forward" ? requests : [...requests].reverse()).map((r) => r());
  if (order === "reverse") parts.reverse();
  const h = createHash("sha256");
  for (const views of parts) for (const v of views) h.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  return h.digest("hex");
}

if (process.argv[1]?.endsWith("_fingerprint.ts")) {
  process.stdout.write(fingerprint(Number(process.argv[2] ?? 42)) + "\n");
}
