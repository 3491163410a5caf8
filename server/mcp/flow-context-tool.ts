/**
 * `flow_context` (reference mcp-tools.md, intelligence tools): today's flow read for one ticker from
 * three REST calls run for the caller: the chain bull/bear split (3 credits), the day's sweeps
 * (3) and the largest recent dark-pool prints (3), 9 credits in all. See docs/api.md#intelligence-tools.
 */
import { ApiError } from "../errors";
import type { BriefCalls, IntelligenceTool } from "./intelligence-tools";

const usd = (x: number) =>
  x >= 1e9 ? `$${(x / 1e9).toFixed(2)}B` : x >= 1e6 ? `$${(x / 1e6).toFixed(2)}M` : x >= 1e3 ? `$${(x / 1e3).toFixed(1)}K` : `$${x.toFixed(0)}`;
const pct = (x: number) => `${Math.round(x)}%`;

/** The sweeps read, or null when this server has no sweeps route (the answer is then partial). */
// biome-ignore lint/suspicious/noExplicitAny: the route's `data` is read field by field, as the brief builders do
async function sweepsOrNull(calls: BriefCalls, ticker: string): Promise<{ data: any } | null> {
  try {
    return await calls.get("/v1/sweeps/:ticker", { timeframe: "1d" }, { ticker });
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found" && e.message.startsWith("No route")) return null;
    throw e;
  }
}

export const flowContextTool: IntelligenceTool = {
  name: "flow_context",
  title: "Flow context for a ticker",
  description:
    "Today's flow read for one ticker: bull/bear split of the chain's volume and its bias, sweep counts and premium, and the " +
    "largest dark-pool prints of the last 45 days. Credits: 9 (GET /v1/chain-bull-bear/{ticker} 3, GET /v1/sweeps/{ticker} 3, " +
    "GET /v1/dark-pool/top-prints/{ticker} 3).",
  properties: { ticker: { type: "string", description: "Underlying ticker or option root (AAPL, SPY, SPXW)." } },
  required: ["ticker"],
  async run(args, calls) {
    const ticker = args.ticker.trim().toUpperCase();
    const bb = await calls.get("/v1/chain-bull-bear/:ticker", {}, { ticker });
    const sw = await sweepsOrNull(calls, ticker);
    const dp = await calls.get("/v1/dark-pool/top-prints/:ticker", {}, { ticker });
    const m = bb.data.metrics;
    const i = bb.data.interpretation;
    const s = sw?.data.summary ?? null;
    const prints: { timestamp: string; price: number; notional: number; size: number }[] = dp.data;
    const data = {
      ticker: bb.data.ticker,
      date: bb.data.date,
      bullBear: {
        tradeCount: bb.data.tradeCount,
        totalVolume: bb.data.totalVolume,
        totalPremium: bb.data.totalPremium,
        bullPct: m.bullPct,
        bearPct: m.bearPct,
        neutralPct: m.neutralPct,
        callBullPct: m.callBullPct,
        putBullPct: m.putBullPct,
        bias: i.bias,
        strength: i.strength,
        confidence: i.confidence,
      },
      sweeps: s && { totalSweeps: s.totalSweeps, bullishSweeps: s.bullishSweeps, bearishSweeps: s.bearishSweeps, totalSweepPremium: s.totalSweepPremium, sdf: s.sdf },
      darkPool: { topPrints: prints },
    };
    const parts = [
      `${data.ticker} on ${data.date}: ${i.bias} (${i.strength}), ${pct(m.bullPct)} of volume bullish and ${pct(m.bearPct)} bearish over ${bb.data.tradeCount} trades.`,
      s ? `${s.totalSweeps} sweeps (${s.bullishSweeps} bullish, ${s.bearishSweeps} bearish), ${usd(s.totalSweepPremium)} premium.` : "Sweeps unavailable.",
      prints.length > 0
        ? `Largest dark-pool print: ${usd(prints[0].notional)} (${prints[0].size} shares at ${prints[0].price}) on ${prints[0].timestamp.slice(0, 10)}.`
        : "No dark-pool prints in the last 45 days.",
    ];
    return { summary: parts.join(" "), data, asOf: bb.meta.timestamp, partial: s === null };
  },
};
