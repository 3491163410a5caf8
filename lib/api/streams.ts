import * as z from "zod";

/** The `lastEventId` resume cursor of every stream (for clients that cannot send the header). */
export const lastEventIdParam = z
  .string()
  .max(256, { error: "at most 256 characters." })
  .optional()
  .meta({ description: "Resume cursor for clients that cannot send the Last-Event-ID header; the header wins when both are sent." });
