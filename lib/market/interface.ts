// The market-data interface: what the library's root re-exports (lib/index.ts) besides the file
// provider and the print records. The simulated market (the rest of lib/market/index.ts) is the
// `optionscope/market` entry only (docs/architecture.md#packages).
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
