import * as z from "zod";
import { POSITIONING_DEFAULTS as D } from "./defaults";
import { DEFAULT_SIGN_MODEL } from "./options";
import { EXPOSURE_METRICS } from "./types";

// The zod form of the grid options, for callers that validate or document them with zod (the
// server's OpenAPI). The library itself parses with `parseGridOptions` (options.ts), which accepts
// and returns exactly what this schema does (test/positioning/grid-options.test.ts) without
// loading zod into a page that only draws a heatmap (docs/methodology.md#package-budgets).

/** Dealer sign model; default dealers long calls (+1), short puts (-1). @see docs/methodology.md#sign-model */
export const SignModelSchema = /* @__PURE__ */ z.object({
  calls: z.number().refine(Number.isFinite, "finite"),
  puts: z.number().refine(Number.isFinite, "finite"),
});

/**
 * Options of {@link exposureGrid} and the functions built on it. Names, bounds and defaults follow
 * the reference service's `maxStrikes`, `maxExpirations`, `includeEmpty`, `expirations`, `layout`.
 * `maxStrikes` below 1 is treated as 1; above the cap is invalid (never silently reduced).
 *
 * @see docs/methodology.md#window
 */
export const ExposureGridOptionsSchema = /* @__PURE__ */ z.object({
  metric: z.enum(EXPOSURE_METRICS).default("gamma"),
  maxStrikes: z
    .union([
      z.literal("all"),
      z
        .number()
        .int()
        .max(D.maxStrikesCap)
        .transform((n) => Math.max(1, n)),
    ])
    .default(D.maxStrikes),
  maxExpirations: z.union([z.literal("all"), z.number().int().min(1).max(D.maxExpirationsCap)]).default(D.maxExpirations),
  includeEmpty: z.boolean().default(false),
  /** Explicit expirations `YYYY-MM-DD`; supersedes `maxExpirations`. Unknown dates are ignored. */
  expirations: z
    .array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/))
    .min(1)
    .optional(),
  layout: z.enum(["net", "matrix"]).default("net"),
  signModel: SignModelSchema.default(DEFAULT_SIGN_MODEL),
});

/** Input shape of the options (every field optional). */
export type ExposureGridOptionsInput = z.input<typeof ExposureGridOptionsSchema>;
/** Options after defaults. */
export type ExposureGridOptions = z.output<typeof ExposureGridOptionsSchema>;
