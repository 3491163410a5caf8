// Schemas of the two chart paths of the reference (flowseeker.yaml `getUnderlyingChart`,
// `getContractChart`): one query, one cost rule, a data schema each; shared by the server's routes
// and the typed client. @see docs/methodology.md#flow-reference-paths-2
import * as z from "zod";
import { CHART_BUCKETS, CHART_MAX_DAYS, ContractChartBarSchema, UnderlyingChartBarSchema } from "../flow/chart-bars";

/** `interval`: `{N}D`, N trading days from 1 to 365, output as N. */
function chartIntervalParam() {
  return z
    .string({ error: "is required: {N}D with N from 1 to 365, such as 1D or 7D." })
    .transform((raw, ctx) => {
      const m = /^(\d{1,3})D$/i.exec(raw.trim());
      const n = m ? Number(m[1]) : NaN;
      if (!(n >= 1 && n <= CHART_MAX_DAYS.daily)) {
        ctx.addIssue({ code: "custom", message: `must be {N}D with N from 1 to ${CHART_MAX_DAYS.daily} (trading days), such as 1D or 7D.` });
        return z.NEVER;
      }
      return n;
    })
    .meta({
      description: `Trailing window of N trading days ending with the current session, \`{N}D\`: at most ${CHART_MAX_DAYS.intraday}D with an intraday bucket, ${CHART_MAX_DAYS.daily}D with 1d or 1w.`,
      examples: ["1D", "7D"],
    });
}

const CHART_BUCKET_NAMES = Object.keys(CHART_BUCKETS) as [keyof typeof CHART_BUCKETS, ...(keyof typeof CHART_BUCKETS)[]];

/** Query of both chart endpoints (reference `getUnderlyingChart`, `getContractChart`). */
export const ChartQuerySchema = z.object({
  interval: chartIntervalParam(),
  bucket: z
    .enum(CHART_BUCKET_NAMES, { error: `is required: one of ${CHART_BUCKET_NAMES.join(", ")}.` })
    .meta({ description: "Bar size; every bar of the window is returned, zero-filled." }),
});

/** Credits of a chart: 3 per started 30 trading days of `interval` (reference). */
export function chartCost(days: number): number {
  return 3 * Math.max(1, Math.ceil(days / 30));
}

/** `data` of `/v1/underlying/{ticker}/chart`. */
export const UnderlyingChartDataSchema = z.array(UnderlyingChartBarSchema);
/** `data` of `/v1/contract/{symbol}/chart`. */
export const ContractChartDataSchema = z.array(ContractChartBarSchema);
