// The notional of a print as the decimal product rounded to the cent, half a cent up, computed on
// the price's shortest decimal text with BigInt (independent of the library's integer path).
// docs/methodology.md#dark-pool-trades-filters-and-paging
export function decimalNotional(p: { price: number; size: number }): number {
  const [whole, frac = ""] = String(p.price).split(".");
  const scale = 10n ** BigInt(frac.length);
  const units = BigInt(whole + frac) * BigInt(p.size); // price x size in 1/scale dollars
  const cents = (units * 100n * 2n + scale) / (2n * scale); // half up
  return Number(cents) / 100;
}
