// The interface and its records, clocks
export * from "./interface";

// Symbol universe
export { INDEX_ETF_TIER_SYMBOLS, SIMULATION_START_DATE, symbolSpecs, toSymbolInfo } from "./universe";
export type { SymbolSpec } from "./universe";

// The simulated market
export * from "./simulated";

// Option prints, off-exchange prints, earnings (the market-prints engineer's area)
export * from "./prints";

// Real data from files (the market-prints engineer's area)
export * from "./files";
