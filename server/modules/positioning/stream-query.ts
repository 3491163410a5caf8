import { z } from "zod";
import type { Principal } from "../../accounts/types";
import { symbolsParam } from "../params";
import { lastEventIdParam } from "../stream-route";
import { extendedParam, gridQueryShape, MAX_POSITIONING_SYMBOLS, type BoardQuery } from "./grid-route";

/** Hard ceiling of symbols per stream connection (spec: up to 10). */
export const MAX_STREAM_SYMBOLS = MAX_POSITIONING_SYMBOLS;

/** Query of `/v1/stream` and `/v1/stream/ws`: the heatmap's board options plus a resume cursor. */
export const streamQuery = z.object({
  ...gridQueryShape,
  extended: extendedParam,
  symbols: symbolsParam(
    MAX_STREAM_SYMBOLS,
    "Comma-separated tickers or option roots, at most limits.symbolsPerStream (never more than 10); more is 400 invalid_parameter.",
  ),
  lastEventId: lastEventIdParam,
});

export type StreamQuery = z.output<typeof streamQuery>;

/** Per-connection symbol ceiling of a plan. */
export function symbolsPerStream(p: Principal): number {
  return Math.min(MAX_STREAM_SYMBOLS, p.limits.symbolsPerStream);
}

/** The board options of a stream query. */
export function boardQueryOf(q: StreamQuery): BoardQuery {
  const { symbols: _s, lastEventId: _l, ...board } = q;
  return board;
}
