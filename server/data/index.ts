// Loading real data from a folder of CSV files
export { loadFileMarket, readFileMarketTables } from "./load-file-market";
export type { LoadFileMarketOptions, LoadProgress, ReloadableFileMarket } from "./load-file-market";
export { progressBar } from "./progress-bar";
