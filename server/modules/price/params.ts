// The price module's query-parameter schemas live in the library (lib/api/price.ts) so the typed
// client shares them; re-exported here for the route files.
export { countbackParam, extendedParam, rawSymbolParam, resolutionParam, searchLimitParam, tickerParam, unixSecondsParam } from "../../../lib/api/price";
