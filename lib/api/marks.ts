/**
 * Request and response schemas of the chart marks on {atlas_url} (`/v1/marks`,
 * `/v1/timescale_marks`, the UDF conventions), shared by the server's routes and the typed client.
 */
import * as z from "zod";
import { resolutionParam, tickerParam, unixSecondsParam } from "./price";

/** Query of `/v1/marks` and `/v1/timescale_marks` (the UDF parameters). */
export const MarksQuerySchema = z.object({
  symbol: tickerParam,
  from: unixSecondsParam("Window start, Unix seconds (UTC), inclusive."),
  to: unixSecondsParam("Window end, Unix seconds (UTC), exclusive."),
  resolution: resolutionParam,
});

const url = z.string().meta({ description: "The minute's heatmap on {base_url}: `/heatmap?symbol=...&at=...`." });

/** Body of `/v1/marks`: UDF bar marks, oldest first. */
export const BarMarksSchema = z.array(
  z.object({
    id: z.string(),
    time: z.number().int().meta({ description: "Unix seconds of the event's minute." }),
    color: z.string(),
    text: z.string(),
    label: z.string().length(1),
    labelFontColor: z.string(),
    minSize: z.number().int(),
    kind: z.enum(["king_node", "sweep", "dark_pool_block"]),
    url,
  }),
);

/** Body of `/v1/timescale_marks`: UDF time-scale marks (earnings), oldest first. */
export const TimescaleMarksSchema = z.array(
  z.object({
    id: z.string(),
    time: z.number().int(),
    color: z.string(),
    label: z.string().length(1),
    tooltip: z.array(z.string()),
    kind: z.literal("earnings"),
    url,
  }),
);
