// Symbol lookups shared by the price routes, and the UDF-shaped symbol errors.
import type { SymbolInfo } from "../../../lib/market/market-data";
import { ApiError } from "../../errors";
import type { AppServices } from "../../services";
import { TICKER_RE } from "../params";

/**
 * 400/404 of `/v1/symbols` in the spec's UDF form `{success: false, error: <text>}`: the renderer
 * writes that body (plus `s: "error"`, `errmsg`, `code`) for price errors whose details carry
 * `success: false` (server/http/render-error.ts).
 */
function udfSymbolError(status: 400 | 404, code: string, text: string): ApiError {
  return new ApiError(status, code, text, { details: { success: false } });
}

/**
 * The symbol's record, or a 404: `symbol_not_found` in the price style (`udf` false, history), or
 * the UDF form (`udf` true, `/v1/symbols`).
 */
export async function resolveSymbol(services: AppServices, symbol: string, udf: boolean): Promise<SymbolInfo> {
  if (udf && !TICKER_RE.test(symbol)) throw udfSymbolError(400, "invalid_parameter", "invalid symbol");
  const info = await services.market.symbolInfo(symbol);
  if (info) return info;
  if (udf) throw udfSymbolError(404, "symbol_not_found", "symbol not found");
  throw new ApiError(404, "symbol_not_found", `Unknown symbol "${symbol}".`);
}
