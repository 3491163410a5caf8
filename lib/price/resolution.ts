/**
 * Bar resolutions of the price module and the tier each one reads from.
 * @see docs/methodology.md#resolutions-and-tiers
 */

/** Every resolution `/v1/history` serves, in the spec's order. */
export const RESOLUTIONS = ["1", "2", "3", "5", "15", "30", "60", "240", "480", "D", "W"] as const;

/** A normalised resolution: minutes as a decimal string, `D` (daily) or `W` (weekly). */
export type Resolution = (typeof RESOLUTIONS)[number];

/** The bar tier a resolution reads from; the trading-day cap is per tier. */
export type BarTier = "1-minute" | "1-hour" | "1-day";

/** Trading days one `/v1/history` request may span, per tier (spec, Price endpoints, rule 3). */
export const TIER_MAX_TRADING_DAYS: Readonly<Record<BarTier, number>> = Object.freeze({
  "1-minute": 90,
  "1-hour": 720,
  "1-day": 2600,
});

/** Resolutions the charting library builds from bars of its own (UDF `intraday_multipliers`). */
export const INTRADAY_MULTIPLIERS: readonly string[] = Object.freeze(["1", "60"]);

const ALIASES: Readonly<Record<string, Resolution>> = { "1D": "D", "1W": "W" };

/**
 * A resolution as clients send it, normalised: `1D` -> `D`, `1W` -> `W`, letters upper-cased;
 * null when it is not one of {@link RESOLUTIONS}.
 * @example normalizeResolution("1D") // "D"
 * @example normalizeResolution("7") // null
 * @see docs/methodology.md#resolutions-and-tiers
 */
export function normalizeResolution(raw: string): Resolution | null {
  const s = raw.trim().toUpperCase();
  const r = ALIASES[s] ?? s;
  return (RESOLUTIONS as readonly string[]).includes(r) ? (r as Resolution) : null;
}

/**
 * Minutes per bar of an intraday resolution; null for `D` and `W`.
 * @example resolutionMinutes("240") // 240
 */
export function resolutionMinutes(resolution: Resolution): number | null {
  return resolution === "D" || resolution === "W" ? null : Number(resolution);
}

/**
 * The tier a resolution reads from: `1`-`30` the 1-minute tier, `60`/`240`/`480` the 1-hour tier,
 * `D`/`W` the 1-day tier.
 * @example resolutionTier("240") // "1-hour"
 */
export function resolutionTier(resolution: Resolution): BarTier {
  const m = resolutionMinutes(resolution);
  if (m === null) return "1-day";
  return m >= 60 ? "1-hour" : "1-minute";
}

/**
 * Trading days one request may span at this resolution (90, 720 or 2600).
 * @example maxTradingDays("5") // 90
 */
export function maxTradingDays(resolution: Resolution): number {
  return TIER_MAX_TRADING_DAYS[resolutionTier(resolution)];
}

/**
 * The cap keyed by every resolution (the `/v1/config` field `max_fetch_trading_days`).
 * @example maxFetchTradingDays()["240"] // 720
 */
export function maxFetchTradingDays(): Record<Resolution, number> {
  const out = {} as Record<Resolution, number>;
  for (const r of RESOLUTIONS) out[r] = maxTradingDays(r);
  return out;
}
