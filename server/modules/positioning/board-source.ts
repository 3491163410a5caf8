/**
 * What the live stream carries for one positioning topic: the board of `/v1/heatmap` at the
 * minute (built by the same `liveEntry`, so the two agree) and its per-strike velocity, or why
 * there is none. The streams machinery does the rest. See docs/api.md#stream-events.
 */
import { VELOCITY_LOOKBACK_MINUTES, type ExposureMetric } from "../../../lib/positioning";
import { etDateOf, marketStateAt } from "../../../lib/time";
import { toApiError } from "../../errors";
import { feedBoardFreshness, staleStreamState } from "../freshness-meta";
import { createBoardHub, type BoardState, type TopicSource } from "../../streams/board-hub";
import { eventData } from "../../streams/replay-store";
import { SharedEvent } from "../../streams/sink";
import { createStreamHub, type StreamHub } from "../../streams/stream-hub";
import { liveEntry } from "./frames";
import { optionsKey, type BoardQuery } from "./grid-route";
import type { PositioningState } from "./service";

/** Strikes listed in `topRisers` / `topFallers` of a velocity event. */
const VELOCITY_TOP_N = 5;

/** Per-strike velocity of one board. */
interface VelocityPayload {
  symbol: string;
  metric: ExposureMetric;
  asOf: string;
  lookbackMinutes: number;
  strikes: { strike: number; value: number; velocityPct: number }[];
  topRisers: { strike: number; value: number; velocityPct: number }[];
  topFallers: { strike: number; value: number; velocityPct: number }[];
}

function velocityOf(
  entry: { symbol: string; asOf: string; strikes: { strike: number; value: number; velocityPct?: number }[] },
  metric: ExposureMetric,
): VelocityPayload {
  const strikes = entry.strikes.map((s) => ({ strike: s.strike, value: s.value, velocityPct: s.velocityPct ?? 0 }));
  const byVel = [...strikes].sort((a, b) => b.velocityPct - a.velocityPct || a.strike - b.strike);
  return {
    symbol: entry.symbol,
    metric,
    asOf: entry.asOf,
    lookbackMinutes: VELOCITY_LOOKBACK_MINUTES,
    strikes,
    topRisers: byVel.filter((s) => s.velocityPct > 0).slice(0, VELOCITY_TOP_N),
    topFallers: byVel
      .filter((s) => s.velocityPct < 0)
      .reverse()
      .slice(0, VELOCITY_TOP_N),
  };
}

/** Market states with live boards: the regular session, and with `extended` the pre- and post-market too. */
function hasLiveBoards(nowMs: number, extended: boolean): boolean {
  const s = marketStateAt(nowMs);
  return s === "open" || (extended && (s === "pre_open" || s === "post_close"));
}

/**
 * Build one topic's state at a market instant: a board during the session (regular, or with
 * `extended` 04:00-20:00 ET), else `no_live_board` (spec: "no live board yet, for example outside
 * market hours"). @see docs/methodology.md#extended-hours-boards
 */
export async function buildBoardState(state: PositioningState, symbol: string, query: BoardQuery, nowMs: number): Promise<BoardState> {
  const extended = query.extended === true;
  if (!hasLiveBoards(nowMs, extended)) {
    const session = extended ? "extended session (04:00-20:00 ET; 17:00 on early closes)" : "regular session";
    return { kind: "unavailable", reason: "no_live_board", message: `${symbol} has no live board outside the ${session}.` };
  }
  try {
    const { entry } = await liveEntry(state, symbol, query, nowMs);
    const asOfMs = Date.parse(entry.asOf);
    if (etDateOf(asOfMs) !== etDateOf(nowMs)) {
      return { kind: "unavailable", reason: "no_live_board", message: `${symbol} has no board in today's session yet.` };
    }
    // A board past the staleness limit (a live feed behind or stopped) is not sent as live: the
    // stream says it is stale, with the JSON answers' fields (docs/methodology.md#staleness).
    const stale = staleStreamState(state.services, symbol, asOfMs, nowMs);
    if (stale) return stale;
    const snapshot: Record<string, unknown> = {
      ...entry,
      strikes: entry.strikes.map((s) => ({ strike: s.strike, value: s.value, nodeType: s.nodeType })),
    };
    const velocity = velocityOf(entry, query.metric);
    const snapshotJson = JSON.stringify(snapshot);
    const velocityJson = JSON.stringify(velocity);
    return {
      kind: "board",
      asOfMs,
      eventName: "snapshot",
      snapshot,
      velocity,
      snapshotJson,
      velocityJson,
      snapshotEvent: new SharedEvent("snapshot", eventData({ data: snapshotJson, lagged: false })),
      laggedSnapshotEvent: new SharedEvent("snapshot", eventData({ data: snapshotJson, lagged: true })),
      velocityEvent: new SharedEvent("velocity", velocityJson),
    };
  } catch (error) {
    const e = toApiError(error);
    if (e.code === "expiration_not_found") return { kind: "unavailable", reason: "expiration_not_found", message: e.message };
    if (e.status === 404) return { kind: "unavailable", reason: "no_live_board", message: e.message };
    // A live feed that is down refuses boards past the limit (503, like /v1/heatmap): say so, with
    // the age of the symbol's newest board.
    if (e.code === "data_unavailable" && state.services.feedStatus) {
      return { kind: "unavailable", reason: "data_unavailable", message: e.message, fields: feedBoardFreshness(state.services, symbol) };
    }
    throw error;
  }
}

/** The positioning boards as a stream topic source. */
function boardTopicSource(state: PositioningState): TopicSource<BoardQuery> {
  return {
    optionsKey,
    build: (symbol, query, nowMs) => buildBoardState(state, symbol, query, nowMs),
    connectedFields: (query) => ({ metric: query.metric, ...(query.extended === true ? { extended: true } : {}), ...(query.oi === "flow" ? { oi: "flow" } : {}) }),
  };
}

/** A board hub over the positioning boards (the stream hub makes its own; tests drive one directly). */
export function createPositioningBoardHub(state: PositioningState, options: { fanoutBatch?: number } = {}) {
  return createBoardHub(state.services, boardTopicSource(state), options);
}

/** The app's live-board stream hub, made on first use. */
export function positioningStreamHub(state: PositioningState): StreamHub<BoardQuery> {
  state.hub ??= createStreamHub(state.services, boardTopicSource(state));
  return state.hub;
}
