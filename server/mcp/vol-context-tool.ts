/**
 * `vol_context` (reference mcp-tools.md, intelligence toolset): one symbol's volatility context
 * from `GET /v1/vol/iv` and `GET /v1/vol/cones` (2 credits): SVX30, IV rank, one-year percentile
 * and range, curve shape, the 1-sigma moves by horizon from the current price, scheduled events.
 */
import type { IntelligenceTool } from "./intelligence-tools";

const pct = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? "n/a" : `${v.toFixed(digits)}%`);

/** The `vol_context` tool. */
export const volContextTool: IntelligenceTool = {
  name: "vol_context",
  title: "Volatility context",
  description:
    "One symbol's implied-volatility context: 30-day constant-maturity IV (SVX30), IV rank, one-year percentile and range, " +
    "curve shape, the 1-sigma moves options price from the current price to each horizon (close, 1d, week, opex, 30d) " +
    "and the events scheduled inside them, with a short factual summary. Credits: 2 (GET /v1/vol/iv and GET /v1/vol/cones).",
  properties: { symbol: { type: "string", description: "One covered symbol (SPXW for the S&P 500; see tempest_symbols)." } },
  required: ["symbol"],
  async run(args, calls) {
    const ivBody = await calls.get("/v1/vol/iv", { symbols: args.symbol });
    const conesBody = await calls.get("/v1/vol/cones", { symbols: args.symbol });
    const entry = ivBody.data.symbols[0];
    const iv = entry.iv;
    const horizons = (conesBody.data.symbols[0].cones.horizons as ({ name: string; em1_pct: number; em1: number; events: unknown[] } | null)[])
      .filter((h): h is NonNullable<typeof h> => h !== null)
      .map((h) => ({ name: h.name, em1_pct: h.em1_pct, em1: h.em1, events: h.events }));
    const data = {
      symbol: entry.symbol,
      asOf: entry.asOf,
      svx30: iv.svx30,
      iv_rank: iv.iv_rank,
      iv_pct: iv.iv_pct,
      range_1y: iv.range_1y,
      curve: iv.curve,
      term_slope: iv.term_slope,
      quality: iv.quality,
      horizons,
    };
    const oneDay = horizons.find((h) => h.name === "1d");
    const summary =
      `${entry.symbol}: 30-day implied vol ${pct(iv.svx30)}` +
      (iv.iv_rank === null ? " (IV rank n/a: under a year of history)" : `, IV rank ${iv.iv_rank.toFixed(0)}, 1-year percentile ${iv.iv_pct?.toFixed(0) ?? "n/a"}`) +
      `; curve ${iv.curve ?? "n/a"}` +
      (oneDay ? `; options price a 1-sigma move of ${pct(oneDay.em1_pct, 2)} to the next close.` : ".");
    return { summary, data, asOf: entry.asOf, partial: false };
  },
};
