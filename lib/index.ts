// optionscope: the isomorphic library. Runs in Node and in browsers; nothing here touches the
// network, the disk or the environment, and importing it instantiates nothing.

// Every library error: a stable code and details (the server maps codes to statuses in one table)
export { CodedError, isCodedError } from "./coded-error";

// Calendar and session instants (NYSE, America/New_York)
export * from "./time";

// OPRA contract symbols and option roots
export * from "./symbols";

// Normal distribution, Black-Scholes-Merton, implied volatility
export * from "./math";

// Batch kernels: WebAssembly engine with a JS fallback
export * from "./kernels";

// The market-data interface, its records and clocks, print records, and the file-backed provider. The simulated
// market (its universe, boards and prints) is `optionscope/market`: about 43 KB gzip that a page
// computing from its own chains never needs (docs/architecture.md#packages).
export * from "./market/interface";
export * from "./market/files";
export * from "./market/prints/records";

// Positioning analytics: exposure grid, heatmap frames, nodes, key levels, daily statistics
export * from "./positioning";

// Flow analytics: trade side, sweeps, Flow Score, RVOL, ratios, chains, tide, overview, rollups
export * from "./flow";

// Price bars: aggregation across resolutions and sessions, the UDF history rules
export * from "./price";

// Volatility: SVX (Cboe VIX methodology per chain), term structure, IV rank, sigma, cones
export * from "./vol";

// Stream client: fetch-based SSE reader that sends Authorization and resumes without gaps
export * from "./stream-client";

// Names defined by more than one area: one meaning each.
export type { IsoDate } from "./time";
export type { OptionRight } from "./symbols";
export type { ImpliedVolInput, ImpliedVolResult } from "./math";

// Typed API client: one method per route, the spec's retry guidance, typed errors, page iterators
export * from "./client";
