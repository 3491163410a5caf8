import type { KeyLevels, Level } from "./key-levels";
import type { HeatmapFrame } from "./types";

/** How many levels and changed strikes a brief lists. @see docs/methodology.md#briefs-explain-levels-and-whats-changed */
export const BRIEF_TOP_N = 5;

/** Dollars in a sentence: `$1.23B`, `-$450.0M`, `$12.3K`, `$512`. */
export function formatUsd(value: number): string {
  const sign = value < 0 ? "-" : "";
  const v = Math.abs(value);
  const [div, unit] = v >= 1e9 ? [1e9, "B"] : v >= 1e6 ? [1e6, "M"] : v >= 1e3 ? [1e3, "K"] : [1, ""];
  return `${sign}$${(v / div).toFixed(div === 1 ? 0 : div === 1e9 ? 2 : 1)}${unit}`;
}

const levelText = (l: Level) => `${l.strike} (${formatUsd(l.value)}, ${l.distancePct >= 0 ? "+" : ""}${l.distancePct.toFixed(2)}%)`;

/** The compact levels of one symbol and a one-paragraph factual summary. */
export interface LevelsBrief {
  summary: string;
  data: {
    symbol: string;
    asOf: string;
    spot: number;
    kingNode: Level | null;
    flip: number | null;
    zeroGamma: number | null;
    positiveWall: Level | null;
    negativeWall: Level | null;
    netExposure: number;
    topLevels: Level[];
  };
}

/**
 * The `explain_levels` answer from one symbol's key levels: spot, king node, flip, walls, net
 * exposure and the five strongest levels, with a summary that states them and nothing else.
 * @see docs/methodology.md#briefs-explain-levels-and-whats-changed
 * @example levelsBrief(keyLevels(chain, { metric: "gamma" }, engine)).summary
 */
export function levelsBrief(levels: Pick<KeyLevels, "symbol" | "asOf" | "spot" | "kingNode" | "levels" | "summary">): LevelsBrief {
  const { summary: s } = levels;
  const topLevels = levels.levels.slice(0, BRIEF_TOP_N);
  const parts = [`${levels.symbol} at ${levels.spot.toFixed(2)} (${levels.asOf}).`];
  parts.push(levels.kingNode ? `King node ${levelText(levels.kingNode)}.` : "No king node.");
  parts.push(s.flip ? `Cumulative exposure flips sign at ${s.flip.level.toFixed(2)} (${s.flip.direction}).` : "Cumulative exposure does not change sign.");
  if (s.positiveWall) parts.push(`Largest positive wall ${levelText(s.positiveWall)}.`);
  if (s.negativeWall) parts.push(`Largest negative wall ${levelText(s.negativeWall)}.`);
  parts.push(`Net exposure ${formatUsd(s.netExposure)}.`);
  return {
    summary: parts.join(" "),
    data: {
      symbol: levels.symbol,
      asOf: levels.asOf,
      spot: levels.spot,
      kingNode: levels.kingNode,
      flip: s.flip?.level ?? null,
      zeroGamma: s.zeroGamma.level,
      positiveWall: s.positiveWall,
      negativeWall: s.negativeWall,
      netExposure: s.netExposure,
      topLevels,
    },
  };
}

/** One strike's net exposure then and now. */
export interface StrikeChange {
  strike: number;
  before: number;
  after: number;
  change: number;
}

/** How a board moved between two frames. */
export interface ChangeBrief {
  summary: string;
  data: {
    symbol: string;
    from: string;
    to: string;
    spotBefore: number;
    spotAfter: number;
    spotChange: number;
    spotChangePct: number;
    kingBefore: { strike: number; value: number } | null;
    kingAfter: { strike: number; value: number } | null;
    largestChanges: StrikeChange[];
  };
}

function kingOf(frame: Pick<HeatmapFrame, "strikes">): { strike: number; value: number } | null {
  const king = frame.strikes.find((s) => s.nodeType === "king");
  return king ? { strike: king.strike, value: king.value } : null;
}

/**
 * The `whats_changed` answer: spot move, king node then and now, and the five strikes whose net
 * exposure changed most in absolute dollars (a strike on one board only counts as 0 on the
 * other; ties by strike).
 * @see docs/methodology.md#briefs-explain-levels-and-whats-changed
 */
export function changeBrief(
  before: Pick<HeatmapFrame, "symbol" | "asOf" | "spot" | "strikes">,
  after: Pick<HeatmapFrame, "symbol" | "asOf" | "spot" | "strikes">,
): ChangeBrief {
  const then = new Map(before.strikes.map((s) => [s.strike, s.value]));
  const now = new Map(after.strikes.map((s) => [s.strike, s.value]));
  const strikes = [...new Set([...then.keys(), ...now.keys()])];
  const changes = strikes
    .map((strike) => {
      const b = then.get(strike) ?? 0;
      const a = now.get(strike) ?? 0;
      return { strike, before: b, after: a, change: a - b };
    })
    .sort((x, y) => Math.abs(y.change) - Math.abs(x.change) || x.strike - y.strike)
    .slice(0, BRIEF_TOP_N);
  const spotChange = after.spot - before.spot;
  const spotChangePct = before.spot > 0 ? (100 * spotChange) / before.spot : 0;
  const kingBefore = kingOf(before);
  const kingAfter = kingOf(after);
  const parts = [
    `${after.symbol} moved ${spotChange >= 0 ? "+" : ""}${spotChange.toFixed(2)} (${spotChangePct >= 0 ? "+" : ""}${spotChangePct.toFixed(2)}%) from ${before.spot.toFixed(2)} at ${before.asOf} to ${after.spot.toFixed(2)} at ${after.asOf}.`,
  ];
  if (kingBefore && kingAfter && kingBefore.strike === kingAfter.strike) {
    parts.push(`King node unchanged at ${kingAfter.strike} (${formatUsd(kingBefore.value)} -> ${formatUsd(kingAfter.value)}).`);
  } else {
    parts.push(`King node ${kingBefore ? kingBefore.strike : "none"} -> ${kingAfter ? kingAfter.strike : "none"}.`);
  }
  if (changes.length > 0) {
    parts.push(`Largest change at ${changes[0].strike}: ${formatUsd(changes[0].before)} -> ${formatUsd(changes[0].after)}.`);
  }
  return {
    summary: parts.join(" "),
    data: {
      symbol: after.symbol,
      from: before.asOf,
      to: after.asOf,
      spotBefore: before.spot,
      spotAfter: after.spot,
      spotChange,
      spotChangePct,
      kingBefore,
      kingAfter,
      largestChanges: changes,
    },
  };
}
