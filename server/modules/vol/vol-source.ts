// What `/v1/vol/stream` carries for one symbol: the `data.symbols[]` element of
// `/v1/vol/snapshot` (the requested modules) as of the symbol's live board, re-sent when the board
// minute changes. The streams machinery does the rest (admission, billing, resume, limits,
// fan-out). See docs/api.md#volatility-stream.
import { eventData } from "../../streams/replay-store";
import { SharedEvent } from "../../streams/sink";
import { createStreamHub, type StreamHub } from "../../streams/stream-hub";
import type { BoardState, TopicSource } from "../../streams/board-hub";
import { wrapperFields } from "./live-reading";
import type { VolModuleName } from "../../../lib/api/vol";
import { moduleOf, symbolInputs } from "./symbol-modules";
import type { VolState } from "./vol-route";

/** The stream's options: which modules each `vol` event carries. */
export interface VolStreamQuery {
  modules: readonly VolModuleName[];
}

function unavailable(symbol: string, message: string): BoardState {
  return { kind: "unavailable", reason: "no_live_board", message: `${symbol}: ${message}` };
}

/** The `vol` event of `symbol` at `nowMs`. */
export async function buildVolState(state: VolState, symbol: string, q: VolStreamQuery, nowMs: number): Promise<BoardState> {
  if (!(await state.coverage.all()).has(symbol)) return unavailable(symbol, "not covered by the volatility module.");
  const x = await symbolInputs(state, symbol, nowMs);
  if (!x) return unavailable(symbol, "no live board yet.");
  const entry: Record<string, unknown> = wrapperFields(x.live, nowMs);
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
export function volTopicSource(state: VolState): TopicSource<VolStreamQuery> {
  return {
    optionsKey: (q) => q.modules.join(","),
    build: (symbol, q, nowMs) => buildVolState(state, symbol, q, nowMs),
    connectedFields: (q) => ({ modules: q.modules }),
  };
}

/** The app's volatility stream hub, made on first use. */
export function volStreamHub(state: VolState): StreamHub<VolStreamQuery> {
  state.hub ??= createStreamHub(state.services, volTopicSource(state));
  return state.hub;
}
