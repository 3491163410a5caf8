// The interface and its records
export type {
  MarketData,
  Clock,
  ChainSnapshot,
  MinuteBars,
  ChainOptions,
  MinuteBarsOptions,
  IsoDate,
  SimulatedMarketContext,
  SimulatedEarningsFn,
  SimulatedOptionPrintsFn,
  SimulatedOffExchangePrintsFn,
  ContractRef,
  ContractMinuteQuotes,
} from "./market-data";
export {
  TickerSchema,
  SymbolTypeSchema,
  TierSchema,
  RightSchema,
  SymbolInfoSchema,
  ChainContractRowSchema,
  ChainSnapshotHeaderSchema,
  MinuteBarRowSchema,
} from "./schemas";
export type { SymbolInfo, ChainContractRow, ChainSnapshotHeader, MinuteBarRow } from "./schemas";
export { chainRows } from "./chain-rows";
export { boardInstantMs, lastListingInstantsMs } from "./board-instant";

// Clocks
export { systemClock, fixedClock, scaledClock } from "./clock";
export type { ScaledClockOptions } from "./clock";

// Symbol universe
export { INDEX_ETF_TIER_SYMBOLS, SIMULATION_START_DATE, symbolSpecs, toSymbolInfo } from "./universe";
export type { SymbolSpec } from "./universe";

// The simulated market
export * from "./simulated";

// Option prints, off-exchange prints, earnings (the market-prints engineer's area)
export * from "./prints";

// Real data from files (the market-prints engineer's area)
export * from "./files";
