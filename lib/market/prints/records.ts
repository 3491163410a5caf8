// Print records, condition codes and nanosecond timestamps: what a feed of real prints is read
// with, re-exported by the library's root; the simulated tapes (prints/index.ts) are `optionscope/market` only.
// Records
export { OptionPrintSchema, OffExchangePrintSchema, EarningsEventSchema } from "./schemas";
export type { OptionPrint, OffExchangePrint, EarningsEvent } from "./schemas";

// Condition codes, exchanges, venues
export {
  OPTION_CONDITIONS,
  SWEEP_CONDITIONS,
  MULTI_LEG_CONDITIONS,
  CROSS_CONDITIONS,
  CONDITION_ALIASES,
  OPTION_EXCHANGES,
  EXCHANGE_ALIASES,
  OFF_EXCHANGE_VENUES,
  isSweepPrint,
  isMultiLegPrint,
  isCrossPrint,
} from "./conditions";
export type { OptionCondition, OptionExchange, OffExchangeVenue } from "./conditions";

// Nanosecond timestamps
export { composeTsNs, tsNsToMs, isTsNs, compareTsNs, parseIsoInstantNs, formatTsNsIso } from "./ts-ns";
