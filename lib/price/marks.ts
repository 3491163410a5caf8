/**
 * Chart marks (the UDF `marks` and `timescale_marks` conventions): king-node changes, large
 * sweeps and dark-pool blocks on bars, earnings dates on the time scale, each linking to the
 * minute's heatmap. Pure: the server gathers boards, prints and events; these turn them into marks.
 * Thresholds and rules: docs/methodology.md#chart-marks.
 */
import type { SweepGroup } from "../flow/sweeps";
import type { EarningsEvent, OffExchangePrint } from "../market/market-data";
import { etInstant } from "../time";

/** @see docs/methodology.md#chart-marks */
export const MARK_RULES = Object.freeze({
  /** A sweep is marked when its total premium reaches this, USD. */
  sweepMinPremiumUsd: 500_000,
  /** An off-exchange print is a block when price x size reaches this, USD. */
  blockMinNotionalUsd: 10_000_000,
  /** The king node is sampled every this many minutes of the regular session. */
  kingStepMinutes: 15,
  /** Bar marks cover at most this many trading sessions (the latest of the window). */
  maxSessions: 2,
});

type BarMarkKind = "king_node" | "sweep" | "dark_pool_block";

/** One bar mark (UDF `marks` record, plus `kind` and the heatmap link `url`). */
export interface BarMark {
  id: string;
  /** Unix seconds of the event's minute. */
  time: number;
  color: string;
  /** Tooltip text. */
  text: string;
  /** One letter drawn in the mark. */
  label: string;
  labelFontColor: string;
  minSize: number;
  kind: BarMarkKind;
  /** The minute's heatmap (`/heatmap?symbol=...&at=...`) on {base_url}. */
  url: string;
}

/** One time-scale mark (UDF `timescale_marks` record, plus `kind` and `url`). */
export interface TimescaleMark {
  id: string;
  time: number;
  color: string;
  label: string;
  tooltip: string[];
  kind: "earnings";
  url: string;
}

const MINUTE_MS = 60_000;
const COLORS = { king: "#f5a623", buy: "#26a69a", sell: "#ef5350", block: "#7e57c2", earnings: "#2962ff" } as const;

const minuteMs = (tsMs: number) => Math.floor(tsMs / MINUTE_MS) * MINUTE_MS;
const isoMinute = (tsMs: number) => new Date(minuteMs(tsMs)).toISOString().replace(".000Z", "Z");

/** The heatmap page of `symbol` at the minute of `tsMs`. */
function heatmapUrl(symbol: string, tsMs: number): string {
  return `/heatmap?symbol=${encodeURIComponent(symbol)}&at=${isoMinute(tsMs)}`;
}

const usd = (v: number) => (v >= 1e6 ? `$${(v / 1e6).toFixed(1)}M` : `$${Math.round(v / 1e3)}K`);

/**
 * A mark at each sample whose king strike differs from the previous sample's (the first sample
 * sets the baseline; a sample without a king breaks nothing and is skipped).
 * @example kingChangeMarks("SPY", [{ tsMs: t0, strike: 500 }, { tsMs: t1, strike: 505 }]) // one mark at t1
 */
export function kingChangeMarks(heatmapSymbol: string, samples: readonly { tsMs: number; strike: number | null }[]): BarMark[] {
  const out: BarMark[] = [];
  let previous: number | null = null;
  for (const s of samples) {
    if (s.strike === null) continue;
    if (previous !== null && s.strike !== previous) {
      out.push({
        id: `king-${s.tsMs}`,
        time: minuteMs(s.tsMs) / 1000,
        color: COLORS.king,
        text: `${heatmapSymbol} king node ${previous} -> ${s.strike}`,
        label: "K",
        labelFontColor: "#000000",
        minSize: 14,
        kind: "king_node",
        url: heatmapUrl(heatmapSymbol, s.tsMs),
      });
    }
    previous = s.strike;
  }
  return out;
}

/** A mark per sweep whose premium reaches `minPremiumUsd` (green buyer-initiated, red seller-initiated). */
export function sweepMarks(heatmapSymbol: string, groups: readonly SweepGroup[], minPremiumUsd = MARK_RULES.sweepMinPremiumUsd): BarMark[] {
  return groups
    .filter((g) => g.totalPremiumUsd >= minPremiumUsd)
    .map((g) => ({
      id: `sweep-${g.symbol}-${g.firstTsMs}-${g.id}`,
      time: minuteMs(g.firstTsMs) / 1000,
      color: g.sideSign > 0 ? COLORS.buy : COLORS.sell,
      text: `${g.sideSign > 0 ? "Bought" : "Sold"} sweep ${g.totalContracts} x ${g.underlying} ${g.expiry} ${g.strike}${g.right}, ${usd(g.totalPremiumUsd)}`,
      label: "S",
      labelFontColor: "#ffffff",
      minSize: 12,
      kind: "sweep" as const,
      url: heatmapUrl(heatmapSymbol, g.firstTsMs),
    }));
}

/** A mark per off-exchange print whose notional (price x size) reaches `minNotionalUsd`. */
export function blockMarks(heatmapSymbol: string, prints: readonly OffExchangePrint[], minNotionalUsd = MARK_RULES.blockMinNotionalUsd): BarMark[] {
  return prints
    .filter((p) => p.price * p.size >= minNotionalUsd)
    .map((p) => ({
      id: `block-${p.id}`,
      time: minuteMs(p.tsMs) / 1000,
      color: COLORS.block,
      text: `Dark-pool block ${p.size.toLocaleString("en-US")} ${p.ticker} @ ${p.price.toFixed(2)} (${usd(p.price * p.size)}, ${p.venue})`,
      label: "D",
      labelFontColor: "#ffffff",
      minSize: 12,
      kind: "dark_pool_block" as const,
      url: heatmapUrl(heatmapSymbol, p.tsMs),
    }));
}

/**
 * A time-scale mark per earnings release, at 09:30 ET of its session (before the open) or
 * 16:00 ET (after the close), linking to the heatmap at that minute.
 */
export function earningsMarks(heatmapSymbol: string, events: readonly EarningsEvent[]): TimescaleMark[] {
  return events.map((e) => {
    const atMs = etInstant(e.date, e.timing === "bmo" ? "09:30" : "16:00");
    return {
      id: `earnings-${e.ticker}-${e.date}`,
      time: atMs / 1000,
      color: COLORS.earnings,
      label: "E",
      tooltip: [`${e.ticker} earnings ${e.date} ${e.timing === "bmo" ? "before the open" : "after the close"}`, ...(e.fiscalQuarter ? [e.fiscalQuarter] : [])],
      kind: "earnings" as const,
      url: heatmapUrl(heatmapSymbol, atMs),
    };
  });
}

/** Bar marks of every kind, in time order (ties by id, so the order is stable). */
export function mergeBarMarks(...lists: readonly BarMark[][]): BarMark[] {
  return lists.flat().sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Sample instants of the king node in one session: every `stepMinutes` after the open, through the close. */
export function kingSampleInstants(openMs: number, closeMs: number, stepMinutes = MARK_RULES.kingStepMinutes): number[] {
  const out: number[] = [];
  for (let t = openMs + stepMinutes * MINUTE_MS; t <= closeMs; t += stepMinutes * MINUTE_MS) out.push(t);
  return out;
}
