// Records, condition codes, exchanges, venues, nanosecond timestamps
export * from "./records";

// Simulated tapes
export { uCurve } from "./intraday-curve";
export { optionPrintProfile, MULTI_LISTED_EXCHANGES, DEFAULT_ORDERS_PER_DAY } from "./print-profile";
export type { OptionPrintProfile } from "./print-profile";
export { optionPrintsForMinute, PLACEMENT_SHARES } from "./simulated-option-minute";
export type { OptionMinuteInput } from "./simulated-option-minute";
export type { PrintChainView } from "./_chain-index";
export { simulatedOptionPrints, CHAIN_REFRESH_MINUTES } from "./simulated-option-prints";
export { simulatedOffExchangePrints, offExchangePrintsForMinute, OFF_EXCHANGE_PARAMS } from "./simulated-off-exchange";
export type { OffExchangeBar } from "./simulated-off-exchange";
export { simulatedEarnings, earningsTiming, EARNINGS_PARAMS } from "./simulated-earnings";
