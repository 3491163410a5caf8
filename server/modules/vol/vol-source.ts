// What `/v1/vol/stream` carries for one symbol: the `data.symbols[]` element of
// `/v1/vol/snapshot` (the requested modules) as of the symbol's live board, re-sent when the board
// minute changes. The streams machinery does the rest (admission, billing, resume, limits,
// fan-out). See docs/api.md#volatility-stream.
import { eventData } from "../../streams/replay-store";
import { SharedEvent } from "../../streams/sink";
import { createStreamHub, type StreamHub } from "../../streams/stream-hub";
import type { BoardState, TopicSource } from "../../streams/board-hub";
import { wrapperFields } from "./live-reading";
import { toApiError } from "../../errors";
import { feedBoardFreshness, staleStreamState } from "../freshness-meta";
import type { VolModuleName } from "../../../lib/api/vol";
import { volMarket } from "./market";
import { moduleOf, symbolInputs } from "./module-objects";
import { REFERENCE_SYMBOL, type VolState } from "./vol-route";

/** The stream's options: which modules each `vol` event carries. */
export interface VolStreamQuery {
  modules: readonly VolModuleName[];
  /** Whether the connection also carries the `market` topic (shown in `connected`; not part of a topic's key). */
  market?: boolean;
  /** The symbols asked for, without the `market` topic (shown in `connected`; not part of a topic's key). */
  symbols?: readonly string[];
}

/**
 * The topic of `market=true`: the S&P complex as one more stream topic, so the machinery bills,
 * limits and resumes it like a symbol. `$` keeps it apart from every ticker and option root.
 */
export const VOL_MARKET_TOPIC = "$market";

function unavailable(symbol: string, message: string): BoardState {
  return { kind: "unavailable", reason: "no_live_board", message: `${symbol}: ${message}` };
}

/** The `market` event at `nowMs`: the `/v1/vol/market` object, re-sent when SPXW's board minute changes. */
async function buildMarketState(state: VolState, nowMs: number): Promise<BoardState> {
  const m = await volMarket(state, nowMs);
  if (!m) return { kind: "unavailable", reason: "no_live_board", message: `${REFERENCE_SYMBOL}: no live board yet for the market complex.` };
  const stale = staleStreamState(state.services, REFERENCE_SYMBOL, Date.parse(m.asOf), nowMs);
  if (stale) return stale;
  const json = JSON.stringify(m);
  return {
    kind: "board",
    asOfMs: Date.parse(m.asOf),
    eventName: "market",
    snapshot: m as unknown as Record<string, unknown>,
    snapshotJson: json,
    snapshotEvent: new SharedEvent("market", eventData({ data: json, lagged: false })),
    laggedSnapshotEvent: new SharedEvent("market", eventData({ data: json, lagged: true })),
  };
}

/** The `vol` event of `symbol` at `nowMs`. */
async function buildVolState(state: VolState, symbol: string, q: VolStreamQuery, nowMs: number): Promise<BoardState> {
  if (!(await state.coverage.all()).has(symbol)) return unavailable(symbol, "not covered by the volatility module.");
  let x: Awaited<ReturnType<typeof symbolInputs>>;
  try {
    x = await symbolInputs(state, symbol, nowMs);
  } catch (error) {
    // A live feed that is down refuses boards past the limit (503, like the JSON routes): say so,
    // with the age of the symbol's newest board (docs/methodology.md#staleness).
    const e = toApiError(error);
    if (e.code !== "data_unavailable" || !state.services.feedStatus) throw error;
    return { kind: "unavailable", reason: "data_unavailable", message: e.message, fields: feedBoardFreshness(state.services, symbol) };
  }
  if (!x) return unavailable(symbol, "no live board yet.");
  // Past the staleness limit the stream says so instead of re-sending nothing (docs/methodology.md#staleness).
  const stale = staleStreamState(state.services, symbol, x.live.board.asOfMs, nowMs);
  if (stale) return stale;
  const entry: Record<string, unknown> = wrapperFields(x.live, nowMs, state.services);
  for (const m of q.modules) entry[m] = await moduleOf(state, m, x);
  const json = JSON.stringify(entry);
  return {
    kind: "board",
    asOfMs: x.live.board.asOfMs,
    eventName: "vol",
    snapshot: entry,
    snapshotJson: json,
    snapshotEvent: new SharedEvent("vol", eventData({ data: json, lagged: false })),
    laggedSnapshotEvent: new SharedEvent("vol", eventData({ data: json, lagged: true })),
  };
}

/** The volatility readings as a stream topic source. */
function volTopicSource(state: VolState): TopicSource<VolStreamQuery> {
  return {
    optionsKey: (q) => q.modules.join(","),
    build: (symbol, q, nowMs) => (symbol === VOL_MARKET_TOPIC ? buildMarketState(state, nowMs) : buildVolState(state, symbol, q, nowMs)),
    // `symbols` as asked (the market topic is reported as `market: true`, not as a symbol).
    connectedFields: (q) => ({ ...(q.symbols ? { symbols: q.symbols } : {}), modules: q.modules, market: q.market === true }),
  };
}

/** The app's volatility stream hub, made on first use. */
export function volStreamHub(state: VolState): StreamHub<VolStreamQuery> {
  state.hub ??= createStreamHub(state.services, volTopicSource(state));
  return state.hub;
}
