/**
 * The documented ranges of the data files' numeric fields: a value outside its range stops the
 * load with an error naming file, line and field. Wide enough for any real listing, narrow enough
 * that nothing downstream overflows or cannot be written (a strike of 1e308 has no OPRA symbol;
 * a price times a size times 100 stays an exact-enough finite number).
 * @see docs/data.md#value-ranges
 */

/** An inclusive range; the lower bound may be exclusive (`> 0`) through the row reader's kind. */
export interface ValueRange {
  min?: number;
  max: number;
}

/** Price per share of an instrument or an option, USD (spot, bid, ask, last, bars, prints). */
export const PRICE_USD: ValueRange = { max: 1_000_000 };
/** Strike: the OPRA/OSI 8-digit field holds thousandths up to 99,999.999. */
export const STRIKE: ValueRange = { max: 99_999.999 };
/** Implied volatility, decimal (20 = 2000%). */
export const IMPLIED_VOL: ValueRange = { max: 20 };
/** Option contracts: open interest, board volume, one print's size. */
export const CONTRACTS: ValueRange = { max: 100_000_000 };
/** Shares of one minute bar's volume (and its buy/sell/unclassified parts). */
export const BAR_SHARES: ValueRange = { max: 10_000_000_000 };
/** Shares of one off-exchange print. */
export const PRINT_SHARES: ValueRange = { max: 1_000_000_000 };
/** Continuous risk-free rate per year, decimal. */
export const RATE: ValueRange = { min: -1, max: 1 };
/** Continuous dividend yield per year, decimal (the symbol schema's bound). */
export const DIVIDEND_YIELD: ValueRange = { max: 0.25 };
