import { PositioningError } from "./errors";
import type { PositioningChain } from "./types";

/**
 * Indices (into `chain.expirations`, ascending) of the expirations a grid nets: the explicit
 * `expirations` that the chain has and that have not settled, else the nearest `maxExpirations`
 * unsettled ones. Settled expirations (settlement instant at or before `asOfMs`) never count.
 *
 * @throws PositioningError `expiration_not_found` when explicit dates match none (message lists the available ones);
 *   `no_data` when the chain has no unsettled expiration at all
 * @example selectExpirations(chain, { maxExpirations: 5 }) // [0, 1, 2, 3, 4]
 * @see docs/methodology.md#window
 */
export function selectExpirations(
  chain: Pick<PositioningChain, "symbol" | "asOfMs" | "expirations" | "expirySettleMs">,
  opts: { expirations?: readonly string[]; maxExpirations: number | "all" },
): number[] {
  const live: number[] = [];
  for (let j = 0; j < chain.expirations.length; j++) {
    if (chain.expirySettleMs[j] > chain.asOfMs) live.push(j);
  }
  if (opts.expirations) {
    const wanted = new Set(opts.expirations);
    const picked = live.filter((j) => wanted.has(chain.expirations[j]));
    if (picked.length === 0) {
      const avail = live.map((j) => chain.expirations[j]).join(", ");
      throw new PositioningError("expiration_not_found", `None of the requested expirations are available for ${chain.symbol}. Available: ${avail || "none"}.`);
    }
    return picked;
  }
  if (live.length === 0) {
    throw new PositioningError("no_data", `No unexpired expirations in the ${chain.symbol} snapshot.`);
  }
  return opts.maxExpirations === "all" ? live : live.slice(0, opts.maxExpirations);
}
