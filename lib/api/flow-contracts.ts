// Schemas of the per-contract flow paths the spec leaves to the reference (flowseeker.yaml): the
// `{symbol}` path parameter and the contract history; shared by the server's routes
// (server/modules/flow/contracts/) and the typed client. Names and shapes follow the reference;
// bounds and messages are ours. The contract chart's schemas are in `./flow-charts`.
import * as z from "zod";
import { requiredDateParam } from "./params";

const int = z.number().int();

/** `{symbol}` path parameter: an OPRA contract symbol. */
export const FlowRefContractParamsSchema = z.object({
  symbol: z.string().min(1).max(40).meta({ description: "OPRA contract symbol, URL-safe ROOT__YYMMDDC######## (the padded 21-character form is accepted)." }),
});

/** Widest `/v1/contract/{symbol}/history` range, calendar days (each session is a ticker's summary). */
export const CONTRACT_HISTORY_MAX_DAYS = 31;

/** Query of `/v1/contract/{symbol}/history` (reference `getContractHistory`). */
export const ContractHistoryQuerySchema = z.object({
  start_date: requiredDateParam("First session, YYYY-MM-DD."),
  end_date: requiredDateParam(`Last session, YYYY-MM-DD (at most ${CONTRACT_HISTORY_MAX_DAYS} calendar days after \`start_date\`).`),
});

/** One session of `/v1/contract/{symbol}/history`. */
const ContractHistoryRowSchema = z.object({
  date: z.string(),
  totalPremium: z.number(),
  totalVolume: int,
  openInterest: int,
  oiChange: int,
  oiChangePct: z.number().meta({ description: "oiChange as a percent of the previous session's open interest (0 when unknown)." }),
  bidVolume: int,
  askVolume: int,
  midVolume: int,
  bidPct: z.number().meta({ description: "Percent of volume in the bid bucket." }),
  askPct: z.number().meta({ description: "Percent of volume in the ask bucket." }),
  sweepVolume: int,
  multiLegVolume: int,
  sweepPct: z.number(),
  multiLegPct: z.number(),
  vwap: z.number(),
  lastPrice: z.number(),
  underlyingPrice: z.number(),
  iv: z.number(),
  tradeCount: int,
});

/** `data` of `/v1/contract/{symbol}/history`: the sessions the contract traded, oldest first. */
export const ContractHistoryDataSchema = z.array(ContractHistoryRowSchema);
