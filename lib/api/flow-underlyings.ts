// Schemas of the per-underlying flow paths the spec leaves to the reference (flowseeker.yaml): the
// underlying list, vol/OI and moneyness; shared by the server's routes (server/modules/flow/
// underlyings/) and the typed client. Names and shapes follow the reference; bounds, messages and
// formulas are ours. The underlying chart's schemas are in `./flow-charts`.
// @see docs/methodology.md#flow-reference-paths-2
import * as z from "zod";
import { MoneynessBreakdownSchema } from "../flow/moneyness-breakdown";
import { VolOiResultSchema } from "../flow/vol-oi";
import { dateParam, enumParam, intParam, numberParam, optionalIntParam } from "./params";

const int = z.number().int();

/** Query of `/v1/underlying` (reference `listUnderlyings`). */
export const UnderlyingListQuerySchema = z.object({
  limit: intParam({ min: 1, max: 500, default: 100, description: "Rows returned (largest total premium first)." }),
  date: dateParam("Trading date YYYY-MM-DD; default the current trading date."),
  min_premium: numberParam({ min: 0, description: "Only tickers with at least this total premium, USD." }),
  min_volume: optionalIntParam({ min: 0, description: "Only tickers with at least this many contracts traded." }),
});

/** `data` of `/v1/underlying`: tickers that traded options on the date, largest premium first. */
export const UnderlyingListDataSchema = z.array(z.object({ ticker: z.string(), totalPremium: z.number(), totalVolume: int }));

/** Sessions in the `weekly` vol/OI timeframe. */
export const VOL_OI_WEEK_SESSIONS = 5;

/** Query of `/v1/vol-oi/{ticker}` (reference `getVolOi`). */
export const VolOiQuerySchema = z.object({
  timeframe: enumParam(
    ["daily", "weekly"],
    "daily",
    `\`daily\`: the session's volume against its opening open interest; \`weekly\`: the last ${VOL_OI_WEEK_SESSIONS} sessions' volume against the open interest at the first one's open.`,
  ),
  option_type: enumParam(["call", "put", "all"], "all", "Calls, puts or both (the other type's block is then empty)."),
  moneyness: enumParam(["otm_10plus", "otm_5_10", "otm_3_5", "atm_itm", "all"], "all", "Keep one moneyness band (percent out of the money at the window's end)."),
  min_oi: optionalIntParam({ min: 0, description: "Leave out contracts with less open interest." }),
  date: dateParam("Trading date YYYY-MM-DD (the last session of the timeframe); default the current trading date."),
});

/** `data` of `/v1/vol-oi/{ticker}`. */
export const VolOiDataSchema = VolOiResultSchema.extend({
  ticker: z.string(),
  timestamp: z.string().meta({ description: "End of the period read (now, or the close of a finished session)." }),
  timeframe: z.enum(["daily", "weekly"]),
});

/** Sessions of each moneyness timeframe (`intraday` is the last hour of the session so far). */
export const MONEYNESS_TIMEFRAME_SESSIONS = { intraday: 1, daily: 1, "7d": 7, "30d": 30 } as const;

/** Query of `/v1/moneyness/{ticker}` (reference `getMoneyness`). */
export const MoneynessQuerySchema = z.object({
  timeframe: enumParam(
    ["intraday", "daily", "7d", "30d"],
    "daily",
    "`intraday`: the last hour of the session so far; `daily`: the session; `7d`, `30d`: that many sessions ending on `date`.",
  ),
  date: dateParam("Trading date YYYY-MM-DD; default the current trading date."),
  min_premium: numberParam({ min: 0, description: "Leave out trades below this premium, USD." }),
});

/** `data` of `/v1/moneyness/{ticker}`. */
export const MoneynessDataSchema = MoneynessBreakdownSchema.extend({ ticker: z.string(), timeframe: z.string() });
