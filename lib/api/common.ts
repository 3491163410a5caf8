import * as z from "zod";

/** The query of routes that take no parameters (one instance, so the client generator finds it). */
export const EmptyQuerySchema = z.object({});
