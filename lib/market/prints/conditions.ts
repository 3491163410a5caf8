/**
 * Option trade condition codes (OPRA last-sale message types, by their four-letter
 * abbreviations) and the exchanges (OPRA participants) that prints carry.
 * @see docs/methodology.md#condition-codes
 */

/** Every condition code a print may carry. */
export const OPTION_CONDITIONS = [
  "AUTO", // electronic trade, single leg
  "ISOI", // intermarket sweep order
  "SLAN", // single-leg auction, non-ISO
  "SLAI", // single-leg auction, ISO
  "SLCN", // single-leg cross, non-ISO
  "SLCI", // single-leg cross, ISO
  "SLFT", // single-leg floor trade
  "MLET", // multi-leg auto-electronic trade
  "MLAT", // multi-leg auction
  "MLCT", // multi-leg cross
  "MLFT", // multi-leg floor trade
  "MESL", // multi-leg auto-electronic trade against single leg(s)
  "TLET", // stock-options auto-electronic trade (options leg of a stock/option package)
  "TLAT", // stock-options auction
  "TLCT", // stock-options cross
  "TLFT", // stock-options floor trade
  "TESL", // stock-options auto-electronic trade against single leg(s)
  "CBMO", // multi-leg floor trade of proprietary products
  "LATE", // reported late (out of sequence)
] as const;

/** One condition code. */
export type OptionCondition = (typeof OPTION_CONDITIONS)[number];

/** Intermarket-sweep conditions: the order was routed to several exchanges at once. */
export const SWEEP_CONDITIONS: ReadonlySet<OptionCondition> = new Set(["ISOI", "SLAI", "SLCI"]);

/** Conditions that mark one leg of a multi-leg (spread, combo, stock-option) package. */
export const MULTI_LEG_CONDITIONS: ReadonlySet<OptionCondition> = new Set(["MLET", "MLAT", "MLCT", "MLFT", "MESL", "TLET", "TLAT", "TLCT", "TLFT", "TESL", "CBMO"]);

/** Pre-negotiated crosses: the execution side says nothing about who initiated the trade. */
export const CROSS_CONDITIONS: ReadonlySet<OptionCondition> = new Set(["SLCN", "SLCI", "MLCT", "TLCT"]);

/** Spellings accepted from files and mapped to the canonical code. */
export const CONDITION_ALIASES: Readonly<Record<string, OptionCondition>> = { ISO: "ISOI" };

/**
 * True when any condition marks an intermarket sweep.
 * @example
 * isSweepPrint({ conditions: ["ISOI"] }); // true
 */
export function isSweepPrint(print: { conditions: readonly string[] }): boolean {
  return print.conditions.some((c) => SWEEP_CONDITIONS.has(c as OptionCondition));
}

/**
 * True when any condition marks a leg of a multi-leg package.
 * @example
 * isMultiLegPrint({ conditions: ["MLET"] }); // true
 */
export function isMultiLegPrint(print: { conditions: readonly string[] }): boolean {
  return print.conditions.some((c) => MULTI_LEG_CONDITIONS.has(c as OptionCondition));
}

/**
 * True when any condition marks a pre-negotiated cross.
 * @example
 * isCrossPrint({ conditions: ["SLCN"] }); // true
 */
export function isCrossPrint(print: { conditions: readonly string[] }): boolean {
  return print.conditions.some((c) => CROSS_CONDITIONS.has(c as OptionCondition));
}

/** OPRA participants, by the short names used in records and files. */
export const OPTION_EXCHANGES = ["CBOE", "C2", "PHLX", "ISE", "GEMX", "MRX", "MIAX", "MPRL", "EMLD", "SPHR", "ARCA", "AMEX", "BOX", "NOM", "BX", "EDGX", "MEMX"] as const;

/** One exchange. */
export type OptionExchange = (typeof OPTION_EXCHANGES)[number];

/** Spellings accepted from files and mapped to the canonical name. */
export const EXCHANGE_ALIASES: Readonly<Record<string, OptionExchange>> = {
  PEARL: "MPRL",
  XCBO: "CBOE",
  XPHL: "PHLX",
  NYSEAMERICAN: "AMEX",
  NSDQ: "NOM",
};

/** Off-exchange (TRF) venues: FINRA/Nasdaq TRF Carteret (`FINN`) and FINRA/Nasdaq TRF Chicago (`FINC`). */
export const OFF_EXCHANGE_VENUES = ["FINN", "FINC"] as const;

/** One off-exchange venue. */
export type OffExchangeVenue = (typeof OFF_EXCHANGE_VENUES)[number];
