import type { z } from "zod";
import { MAX_STREAM_SYMBOLS, StreamQuerySchema } from "../../../lib/api/positioning";
import type { Principal } from "../../accounts/types";
import type { BoardQuery } from "./grid-route";

/** Query of `/v1/stream` and `/v1/stream/ws` (lib/api/positioning.ts). */
export const streamQuery = StreamQuerySchema;

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
