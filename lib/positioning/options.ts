import { z } from "zod";
import { POSITIONING_DEFAULTS as D } from "./defaults";
import { PositioningError } from "./errors";
import { EXPOSURE_METRICS } from "./types";

/** Dealer sign model; default dealers long calls (+1), short puts (-1). @see docs/methodology.md#sign-model */
export const SignModelSchema = z.object({
  calls: z.number().refine(Number.isFinite, "finite"),
  puts: z.number().refine(Number.isFinite, "finite"),
});

/** The documented default sign model: calls +1, puts -1. */
export const DEFAULT_SIGN_MODEL = Object.freeze({ calls: 1, puts: -1 });

/**
 * Options of {@link exposureGrid} and the functions built on it. Names, bounds and defaults follow
 * the reference service's `maxStrikes`, `maxExpirations`, `includeEmpty`, `expirations`, `layout`.
 * `maxStrikes` below 1 is treated as 1; above the cap is invalid (never silently reduced).
 *
 * @see docs/methodology.md#window
 */
export const ExposureGridOptionsSchema = z.object({
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

/**
 * Validate options once at the library boundary, applying the defaults.
 *
 * @throws PositioningError `invalid_parameter` naming the first offending field
 * @example parseGridOptions({ maxStrikes: 0 }).maxStrikes // 1 (below 1 is treated as 1)
 * @see docs/methodology.md#window
 */
export function parseGridOptions(input: ExposureGridOptionsInput | undefined): ExposureGridOptions {
  const r = ExposureGridOptionsSchema.safeParse(input ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw new PositioningError("invalid_parameter", `${i.path.join(".") || "options"}: ${i.message}`);
  }
  return r.data;
}
