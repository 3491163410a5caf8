/**
 * Minimum quoting increments of listed options (the exchanges' tick grid): penny classes quote
 * $0.01 below $3 and $0.05 from $3; SPY, QQQ and IWM quote $0.01 at every price; the index
 * products SPX/SPXW, NDX/NDXP and RUT/RUTW $0.05 below $3 and $0.10 from $3; XSP like a penny class.
 * Prices on the grid are made from whole cents, so they are the doubles nearest to x.xx.
 * @see docs/methodology.md#tick-grid
 */

/** Tick below and from $3, in cents. */
export interface TickRule {
  belowCents: number;
  aboveCents: number;
}

const ALL_PENNY = new Set(["SPY", "QQQ", "IWM"]);
const INDEX_TICKS = new Set(["SPX", "SPXW", "NDX", "NDXP", "RUT", "RUTW"]);

/**
 * The tick rule of an option root.
 * @example
 * optionTickRule("SPXW"); // { belowCents: 5, aboveCents: 10 }
 */
export function optionTickRule(root: string): TickRule {
  if (ALL_PENNY.has(root)) return { belowCents: 1, aboveCents: 1 };
  if (INDEX_TICKS.has(root)) return { belowCents: 5, aboveCents: 10 };
  return { belowCents: 1, aboveCents: 5 };
}

/** The tick (USD) at a price level. */
export function tickAt(rule: TickRule, priceUsd: number): number {
  return (priceUsd < 3 ? rule.belowCents : rule.aboveCents) / 100;
}

/** `x` rounded to the nearest grid price (USD), never below 0. */
export function roundToTick(rule: TickRule, x: number): number {
  if (!(x > 0)) return 0;
  const c = x < 3 ? rule.belowCents : rule.aboveCents;
  return (Math.round((x * 100) / c) * c) / 100;
}
