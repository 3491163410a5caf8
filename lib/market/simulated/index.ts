// The simulated market
export { createSimulatedMarket } from "./create-simulated-market";
export type { SimulatedMarket, SimulatedMarketOptions } from "./create-simulated-market";
export type { ChainWindowSelect } from "./chain-quotes";

// Model pieces (documented in docs/methodology.md#market-data-and-the-simulated-market)
export { listedExpirations, EXPIRATION_COUNTS } from "./expirations";
export type { Expiration } from "./expirations";
export { strikeSteps, expiryStrikes, sessionStrikes } from "./strike-grid";
export { atmTotalVariance, ssviTotalVariance, ssviPhi, impliedVolAt } from "./vol-surface";
export type { SurfaceState } from "./vol-surface";
export { SIM_RATE, GARCH, JUMPS, EARNINGS, TREND, EXTENDED, INTRADAY, SURFACE, SPREAD, OI, VOLUME } from "./params";
