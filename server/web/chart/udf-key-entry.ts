// Browser entry of `{atlas_url}/chart/udf-key.js`: lib/price/udf-key.ts as the global
// `OptionscopeUdf`, for pages that load TradingView's charting library by script tag
// (docs/tradingview.md): `OptionscopeUdf.installUdfKey(datafeedUrl, key)` before the datafeed is made.
import { fetchWithKey, installUdfKey } from "../../../lib/price/udf-key";

(globalThis as unknown as { OptionscopeUdf: unknown }).OptionscopeUdf = { installUdfKey, fetchWithKey };
