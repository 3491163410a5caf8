/**
 * Request and response schemas of `GET /v1/board` (the raw option board, columnar), shared by the
 * server's route (server/modules/positioning/board.ts) and the typed client.
 */
import * as z from "zod";
import { instantParam, symbolsParam } from "./params";
import { FIRST_HISTORY_DATE } from "./positioning";

/** Query of `/v1/board`. */
export const BoardQuerySchema = z.object({
  symbol: symbolsParam(1, "One ticker or option root (SPXW, SPY, ...)."),
  at: instantParam(`RFC 3339 instant; the board at or before it. Not before ${FIRST_HISTORY_DATE}. Default: now.`).optional(),
});

const nums = (description: string) => z.array(z.number()).meta({ description });

/** The board's per-contract columns (rows with open interest only: the others add no exposure). */
const ContractsSchema = z.object({
  strikeIndex: nums("Row in `strikes`."),
  expIndex: nums("Index in `expirations`, `expirySettleMs` and `expiryRoot`."),
  right: nums("1 call, 0 put."),
  oi: nums("Open interest, contracts (> 0)."),
  bid: nums("Bid, option price units."),
  ask: nums("Ask, option price units."),
  iv: z.array(z.number().nullable()).meta({ description: "Implied volatility, decimal; null when the board has none (solve it from the mid)." }),
});

/** `data` of `/v1/board`: the columnar chain snapshot (docs/architecture.md, "Chain snapshot"). */
export const BoardDataSchema = z.object({
  symbol: z.string(),
  underlying: z.string(),
  asOf: z.string().meta({ description: "ISO-8601 UTC instant of the board." }),
  asOfMs: z.number().int(),
  sessionDate: z.string(),
  spot: z.number(),
  rate: z.number().meta({ description: "Continuous risk-free rate per year, decimal." }),
  dividendYield: z.number().meta({ description: "Continuous dividend yield per year, decimal." }),
  simulated: z.boolean(),
  expirations: z.array(z.string()),
  expirySettleMs: z.array(z.number()).meta({ description: "Settlement instant of each expiration, ms since the epoch." }),
  expiryRoot: z.array(z.string()),
  strikes: nums("Every listed strike, ascending."),
  contracts: ContractsSchema,
});

/** `meta` of `/v1/board`. */
export const BoardMetaSchema = z.object({ simulated: z.boolean(), contracts: z.number().int(), attribution: z.object({}).loose().optional() });
