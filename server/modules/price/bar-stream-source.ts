/**
 * What `/v1/stream/bars` carries for one symbol: the latest bar of its extended session (04:00-20:00
 * ET; indices the regular session) at the stream's resolution, as of the last completed minute, so
 * an in-progress 5-minute bar is re-sent each minute it changes. The streams machinery does the
 * rest (admission, billing, resume, limits, fan-out). See docs/api.md#bar-stream.
 */
import { aggregateIntraday } from "../../../lib/price";
import { etDateOf, sessionBounds } from "../../../lib/time";
import type { BoardState, TopicSource } from "../../streams/board-hub";
import { eventData } from "../../streams/replay-store";
import { SharedEvent } from "../../streams/sink";
import { createStreamHub, type StreamHub } from "../../streams/stream-hub";
import type { PriceState } from "./price-route";

/** The stream's options: the bar size in minutes (the 1-minute tier of `/v1/history`). */
export interface BarsQuery {
  resolution: "1" | "2" | "3" | "5" | "15" | "30";
}

const MINUTE_MS = 60_000;

function unavailable(symbol: string, message: string): BoardState {
  return { kind: "unavailable", reason: "no_live_bars", message: `${symbol}: ${message}` };
}

/** The latest bar of `symbol` as of the last minute completed at `nowMs`. */
async function buildBarState(state: PriceState, symbol: string, query: BarsQuery, nowMs: number): Promise<BoardState> {
  const { market } = state.services;
  const info = await market.symbolInfo(symbol);
  if (!info) return unavailable(symbol, "unknown symbol.");
  const extended = info.type !== "index";
  const date = etDateOf(nowMs);
  const { openMs } = sessionBounds(date, { extended });
  const asOfMs = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  if (asOfMs <= openMs) return unavailable(symbol, "no bars yet in the current session.");
  const minutes = await market.minuteBars(info.ticker, openMs, asOfMs, { extended });
  if (minutes.t.length === 0) return unavailable(symbol, "no bars yet in the current session.");
  const bars = aggregateIntraday(minutes, Number(query.resolution), { extended });
  const k = bars.t.length - 1;
  if (k < 0) return unavailable(symbol, "no bars yet in the current session.");
  const bar: Record<string, unknown> = {
    symbol: info.ticker,
    resolution: query.resolution,
    t: Math.floor(bars.t[k] / 1000),
    o: bars.o[k],
    h: bars.h[k],
    l: bars.l[k],
    c: bars.c[k],
    v: bars.v[k],
    ...(bars.bv && bars.sv && bars.uv && info.type !== "index" ? { bv: bars.bv[k], sv: bars.sv[k], uv: bars.uv[k] } : {}),
    asOf: new Date(minutes.t[minutes.t.length - 1] + MINUTE_MS).toISOString(),
  };
  const json = JSON.stringify(bar);
  return {
    kind: "board",
    asOfMs: minutes.t[minutes.t.length - 1] + MINUTE_MS,
    eventName: "bar",
    snapshot: bar,
    snapshotJson: json,
    snapshotEvent: new SharedEvent("bar", eventData({ data: json, lagged: false })),
    laggedSnapshotEvent: new SharedEvent("bar", eventData({ data: json, lagged: true })),
  };
}

/** The price bars as a stream topic source. */
function barTopicSource(state: PriceState): TopicSource<BarsQuery> {
  return {
    optionsKey: (q) => q.resolution,
    build: (symbol, q, nowMs) => buildBarState(state, symbol, q, nowMs),
    connectedFields: (q) => ({ resolution: q.resolution }),
  };
}

/** The app's bar stream hub, made on first use. */
export function priceStreamHub(state: PriceState): StreamHub<BarsQuery> {
  state.hub ??= createStreamHub(state.services, barTopicSource(state));
  return state.hub;
}
