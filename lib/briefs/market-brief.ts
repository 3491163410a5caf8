/**
 * `market_brief` (reference mcp-tools.md): the S&P volatility complex, market-wide options flow
 * and the key levels of SPXW and QQQ in one compact record and a factual paragraph.
 * Pure: it only reshapes what `/v1/vol/market`, `/v1/market/overview` and `/v1/gex/levels`
 * returned. @see docs/methodology.md#briefs-explain-levels-and-whats-changed
 */
import { formatUsd, levelsBrief, type LevelsBrief } from "../positioning/briefs";
import type { KeyLevels } from "../positioning/key-levels";

/** The volatility part read from `/v1/vol/market` (SVX readings in vol points, ratios plain). */
export interface BriefVolComplex {
  asOf: string;
  svx9: number | null;
  svx30: number | null;
  svx3m: number | null;
  ratio_9d_30d: number | null;
  ratio_30d_3m: number | null;
  curve: string | null;
  pct_1y: { svx30: number | null };
}

/** The flow part read from `/v1/market/overview`. */
export interface BriefFlowOverview {
  date: string;
  totalPremium: number;
  callPremium: number;
  putPremium: number;
  netPremium: number;
  callPutRatio: number;
  premiumRvol: number | null;
  topTickers: ReadonlyArray<{ ticker: string; totalPremium: number; netPremium: number }>;
}

/** Tickers of the most active list the brief keeps. */
export const MARKET_BRIEF_TOP_TICKERS = 5;

export interface MarketBrief {
  summary: string;
  data: {
    vol: (BriefVolComplex & { svx30Pct1y: number | null }) | null;
    flow: (Omit<BriefFlowOverview, "topTickers"> & { mostActive: BriefFlowOverview["topTickers"] }) | null;
    levels: LevelsBrief["data"][];
  };
  asOf: string;
}

const pts = (v: number | null) => (v === null ? "n/a" : v.toFixed(2));

/**
 * An integer with its English ordinal suffix: 1st, 2nd, 3rd, 4th, 11th-13th, 21st, 22nd, 23rd, 101st.
 * @example ordinal(23) // "23rd"
 */
export function ordinal(n: number): string {
  const lastTwo = Math.abs(n) % 100;
  const last = Math.abs(n) % 10;
  const suffix = lastTwo >= 11 && lastTwo <= 13 ? "th" : last === 1 ? "st" : last === 2 ? "nd" : last === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

/**
 * Compose the brief. Any part may be missing (null / empty): the summary says so and the caller
 * marks the result `partial`.
 * @example marketBrief(volMarketData, overviewData, levelsData.symbols).summary
 */
export function marketBrief(
  vol: BriefVolComplex | null,
  flow: BriefFlowOverview | null,
  levels: ReadonlyArray<Pick<KeyLevels, "symbol" | "asOf" | "spot" | "kingNode" | "levels" | "summary">>,
): MarketBrief {
  const parts: string[] = [];
  if (vol) {
    parts.push(
      `S&P implied vol (SVX on SPXW): 9-day ${pts(vol.svx9)}, 30-day ${pts(vol.svx30)}, 3-month ${pts(vol.svx3m)}; ` +
        `9d/30d ${pts(vol.ratio_9d_30d)}, 30d/3m ${pts(vol.ratio_30d_3m)}; curve ${vol.curve ?? "unknown"}` +
        (vol.pct_1y.svx30 === null ? "." : `; 30-day at the ${ordinal(Math.round(vol.pct_1y.svx30))} percentile of its year.`),
    );
  } else parts.push("No S&P volatility reading.");
  if (flow) {
    const active = flow.topTickers.slice(0, MARKET_BRIEF_TOP_TICKERS).map((t) => t.ticker);
    parts.push(
      `Options flow ${flow.date}: ${formatUsd(flow.totalPremium)} premium, calls ${formatUsd(flow.callPremium)} vs puts ` +
        `${formatUsd(flow.putPremium)} (call/put ${flow.callPutRatio.toFixed(2)}, net ${formatUsd(flow.netPremium)}), ` +
        (flow.premiumRvol === null ? "no baseline of the usual premium yet" : `${flow.premiumRvol.toFixed(2)}x the usual premium by this time`) +
        (active.length ? `; most active ${active.join(", ")}.` : "."),
    );
  } else parts.push("No market flow reading.");
  const briefs = levels.map((l) => levelsBrief(l));
  for (const b of briefs) parts.push(b.summary);
  const asOf =
    [vol?.asOf, ...briefs.map((b) => b.data.asOf)]
      .filter((s): s is string => typeof s === "string")
      .sort()
      .at(-1) ?? "";
  return {
    summary: parts.join(" "),
    data: {
      vol: vol ? { ...vol, svx30Pct1y: vol.pct_1y.svx30 } : null,
      flow: flow
        ? {
            date: flow.date,
            totalPremium: flow.totalPremium,
            callPremium: flow.callPremium,
            putPremium: flow.putPremium,
            netPremium: flow.netPremium,
            callPutRatio: flow.callPutRatio,
            premiumRvol: flow.premiumRvol,
            mostActive: flow.topTickers.slice(0, MARKET_BRIEF_TOP_TICKERS),
          }
        : null,
      levels: briefs.map((b) => b.data),
    },
    asOf,
  };
}
