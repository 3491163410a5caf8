/**
 * `market_brief` (reference mcp-tools.md): the S&P volatility complex (SVX on SPXW), market-wide
 * options flow and the key levels of SPXW and QQQ, in one call. Credits: the sum of the three
 * calls it stands for (`/v1/gex/levels` 1, `/v1/market/overview` 3, `/v1/vol/market` 1 = 5, the
 * reference's figure). A plan without flow or volatility still gets the parts it may read:
 * the refused part is left out (`partial: true`), never charged.
 */
import { marketBrief } from "../../lib/briefs/market-brief";
import { ApiError } from "../errors";
import type { BriefCalls, IntelligenceTool } from "./intelligence-tools";

/** Symbols whose levels the brief lists (the reference's Trinity view: S&P dailies and weeklies, and QQQ). */
const MARKET_BRIEF_SYMBOLS = ["SPXW", "QQQ"] as const;

/** One part of the brief, or null when the caller's plan does not include it. */
async function optional<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 403 && error.code === "not_entitled") return null;
    throw error;
  }
}

export const marketBriefTool: IntelligenceTool = {
  name: "market_brief",
  title: "Market brief",
  description:
    "The market in one call: S&P implied volatility (SVX 9-day, 30-day, 3-month and their ratios, curve, percentile), " +
    "market-wide options flow (premium, call/put ratio, net premium, most active tickers) and the key dealer-positioning " +
    "levels of SPXW and QQQ, with a short factual summary. Credits: 5 (GET /v1/gex/levels 1, GET /v1/market/overview 3, " +
    "GET /v1/vol/market 1); parts the plan does not include are left out and not charged.",
  properties: {},
  required: [],
  async run(_args, calls: BriefCalls) {
    const levels = await optional(() => calls.get("/v1/gex/levels", { symbols: MARKET_BRIEF_SYMBOLS.join(","), metric: "gamma" }));
    const flow = await optional(() => calls.get("/v1/market/overview", {}));
    const vol = await optional(() => calls.get("/v1/vol/market", {}));
    const brief = marketBrief(vol?.data ?? null, flow?.data ?? null, levels?.data.symbols ?? []);
    const partial = !levels || !flow || !vol || (levels.data.symbols?.length ?? 0) < MARKET_BRIEF_SYMBOLS.length;
    return { summary: brief.summary, data: brief.data, asOf: brief.asOf, partial };
  },
};
