// The wrapper shared by every per-symbol volatility endpoint (spec "Volatility-module records"):
// `data.symbols[]` with `symbol`, `asOf`, `sessionDate`, `stale` and the module object(s),
// `data.missing[]` with reasons, the volatility `meta`; up to 10 symbols per call.
import type { z } from "zod";
import { VolMetaSchema, VolSymbolsQuerySchema, type VolMissing, type VolModuleName } from "../../../lib/api/vol";
import { apiErrors } from "../../errors";
import { timeSlicer } from "../../yield-to-loop";
import { memoizeJsonOnce, wrapperFields } from "./live-reading";
import { moduleOf, symbolInputs } from "./module-objects";
import { volMeta } from "./vol-meta";
import { volRoute, type VolState } from "./vol-route";

/** The per-symbol entries of `modules` for the covered symbols of a request, and the missing ones. */
async function wrapperEntries(
  state: VolState,
  requested: readonly string[],
  modules: readonly VolModuleName[],
  nowMs: number,
): Promise<{ symbols: Record<string, unknown>[]; missing: VolMissing[]; newestMs: number | null; cached: boolean }> {
  const covered = await state.coverage.all();
  if (!requested.some((s) => covered.has(s))) {
    // Nothing to serve: unknown symbols are a 404 (spec "Codes"); known but uncovered ones too.
    throw apiErrors.symbolNotFound(requested);
  }
  const symbols: Record<string, unknown>[] = [];
  const missing: VolMissing[] = [];
  let newestMs: number | null = null;
  let cached = true;
  // A symbol's modules (an SVI fit per expiration, premium lows, ...) are tens of ms each: sliced.
  const slice = timeSlicer();
  for (const s of requested) {
    if (!covered.has(s)) {
      missing.push({ symbol: s, reason: "not_covered" });
      continue;
    }
    const minuteKey = `live|${s}|${Math.floor(nowMs / 60_000)}`;
    if (!state.memo.has(minuteKey)) cached = false;
    const x = await symbolInputs(state, s, nowMs);
    if (!x) {
      missing.push({ symbol: s, reason: "no_history" });
      continue;
    }
    const entry: Record<string, unknown> = wrapperFields(x.live, nowMs, state.services);
    // Module objects are memoised per board minute: serialise each once for every response.
    for (const m of modules) {
      entry[m] = memoizeJsonOnce(await moduleOf(state, m, x));
      await slice();
    }
    symbols.push(entry);
    newestMs = Math.max(newestMs ?? -Infinity, x.live.board.asOfMs);
  }
  return { symbols, missing, newestMs, cached };
}

/**
 * Declare a per-symbol volatility route serving `modules` (one for `/v1/vol/iv` and the like,
 * all seven for the snapshot).
 */
export function symbolModulesRoute(o: {
  path: string;
  operationId: string;
  cost: number;
  /** `meta.module`: which endpoint answered. */
  module: string;
  modules: readonly VolModuleName[];
  /** Its `data` schema (lib/api/vol.ts): the wrapper with these modules. */
  data: z.ZodType;
  summary: string;
  description: string;
}) {
  return volRoute({
    host: "base",
    module: "volatility",
    method: "GET",
    path: o.path,
    operationId: o.operationId,
    cost: o.cost,
    entitlement: "volatility",
    query: VolSymbolsQuerySchema,
    symbolsOf: (q) => q.symbols,
    data: o.data,
    meta: VolMetaSchema,
    cacheControl: "private, max-age=5",
    summary: o.summary,
    description: o.description,
    tags: ["Volatility"],
    handler: async ({ query, state, nowMs, services }) => {
      const r = await wrapperEntries(state, query.symbols, o.modules, nowMs);
      return {
        data: { symbols: r.symbols, missing: r.missing },
        meta: volMeta({ module: o.module, nowMs, asOfMs: r.newestMs, cached: r.cached, simulated: services.market.simulated }),
      };
    },
  });
}
