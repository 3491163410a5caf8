// Loading real data from a folder of CSV files
export { loadFileMarket } from "./load-file-market";
export type { LoadProgress, ReloadableFileMarket } from "./load-file-market";
export { progressBar } from "./progress-bar";
