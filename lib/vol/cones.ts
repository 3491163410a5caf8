import * as z from "zod";
import type { ChainSnapshot } from "../market/market-data";
import { isoUtc } from "../positioning/iso-utc";
import { sessionBounds, tradingDaysBetween, etDateOf, marketStateAt, sessionDateAt } from "../time";
import { boardSettlement } from "./_board-settlement";
import { chainTerms, type ChainTerms } from "./chain-terms";
import { CONE_HORIZONS, coneHorizonTargets, type ConeLevelAnchor } from "./cone-horizons";
import { MINUTES_PER_YEAR } from "./defaults";
import { impliedMove } from "./implied-move";
import { macroEventsBetween } from "./macro-calendar";
import { realizedVolPerSession } from "./realized";
import { smileSides } from "./smile-quantiles";
import { expirationSmile } from "./term-structure";

/** One cone horizon (`/v1/vol/cones` `horizons[]`, the reference's field names). */
export const ConeHorizonSchema = z.object({
  name: z.enum(CONE_HORIZONS),
  /** Minutes from `asOf` to the settle. */
  minutes: z.number(),
  settle_at: z.string(),
  /** 1-sigma move, percent of spot: `100 sqrt(w)`. */
  em1_pct: z.number(),
  /** 1- and 2-sigma moves in price. */
  em1: z.number(),
  em2: z.number(),
  /** The same span's move at the 20-session realized vol, percent; null without 21 closes. */
  realized_em_pct: z.number().nullable(),
  /** Skew-aware sides, percent of spot; null when the smile does not reach the 1-sigma quantiles. */
  up1_pct: z.number().nullable(),
  dn1_pct: z.number().nullable(),
  up2_pct: z.number().nullable(),
  dn2_pct: z.number().nullable(),
  tail_src: z.enum(["quantile", "wing"]).nullable(),
  skew_expiry: z.string().nullable(),
  events: z.array(z.object({ kind: z.string(), label: z.string(), at: z.string() }).passthrough()),
  event_adjusted: z.boolean(),
});
export type ConeHorizon = z.output<typeof ConeHorizonSchema>;

/** One fixed level (`levels[]`). */
export const ConeLevelSchema = z.object({
  name: z.enum(["day", "week", "month"]),
  label: z.string(),
  /** Session of the anchor close. */
  anchor: z.string(),
  /** Instant of the anchor close (the board that priced the level). */
  priced_at: z.string(),
  /** Session whose close the level runs to. */
  until: z.string(),
  em1_pct: z.number(),
  hi1: z.number(),
  lo1: z.number(),
  hi2: z.number(),
  lo2: z.number(),
});
export type ConeLevel = z.output<typeof ConeLevelSchema>;

/** The `cones` module object. */
export const ConesModuleSchema = z.object({
  horizons: z.array(ConeHorizonSchema.nullable()),
  levels: z.array(ConeLevelSchema),
});
export type ConesModule = z.output<typeof ConesModuleSchema>;

const LEVEL_LABELS = { day: "Day", week: "Week", month: "Month" } as const;

/**
 * A fixed level priced at its anchor close: `hi_z = C (1 + z em1_pct / 100)`,
 * `lo_z = C (1 - z em1_pct / 100)` for `z = 1, 2`, with `C` the anchor close and `em1_pct` the
 * 1-sigma move the anchor's closing board priced to `until`'s close (`impliedMove`).
 *
 * @example coneLevel(anchor, 5000, 1.2).hi1 // 5060
 * @see docs/methodology.md#cone-levels
 */
export function coneLevel(a: ConeLevelAnchor, anchorClose: number, em1Pct: number): ConeLevel {
  const m = em1Pct / 100;
  return {
    name: a.name,
    label: LEVEL_LABELS[a.name],
    anchor: a.anchor,
    priced_at: isoUtc(a.anchorCloseMs),
    until: a.until,
    em1_pct: em1Pct,
    hi1: anchorClose * (1 + m),
    lo1: anchorClose * (1 - m),
    hi2: anchorClose * (1 + 2 * m),
    lo2: anchorClose * (1 - 2 * m),
  };
}

/**
 * Sessions of realized variance between `asOfMs` and `settleMs`: the remaining fraction of the
 * current regular session (when open) plus one per later session whose close is at or before the
 * settle.
 *
 * @see docs/methodology.md#realized-volatility
 */
export function sessionsToSettle(asOfMs: number, settleMs: number): number {
  const today = sessionDateAt(asOfMs);
  let n = 0;
  for (const d of tradingDaysBetween(today, etDateOf(settleMs))) {
    const { openMs, closeMs } = sessionBounds(d);
    if (closeMs <= asOfMs || closeMs > settleMs) continue;
    n += asOfMs > openMs ? (closeMs - asOfMs) / (closeMs - openMs) : 1;
  }
  return n;
}

/** Inputs of `cones` besides the board. */
export interface ConesOptions {
  /** Terms of the board (shared with SVX); default `chainTerms(chain)`. */
  terms?: ChainTerms;
  /** Daily closes, oldest first, for `realized_em_pct` (the last 21 are used). */
  closes?: ArrayLike<number>;
  /** Fixed levels already priced by the caller (`coneLevel`). */
  levels?: ConeLevel[];
}

/**
 * Tempest-style cones on one board: per horizon (close, 1d, week, opex, 30d) the 1-sigma move
 * priced from now (`100 sqrt(w)` of the constant-maturity total variance to the settle), 1- and
 * 2-sigma moves in price, the skew-aware sides from the smile of the first expiration settling
 * at or after the horizon, and the realized comparison. A horizon that does not exist at that
 * moment (`close` outside regular hours) is null.
 *
 * @example cones(chain, { closes }).horizons.find((h) => h?.name === "1d")?.em1_pct
 * @see docs/methodology.md#cones
 */
export function cones(chain: ChainSnapshot, options: ConesOptions = {}): ConesModule {
  const terms = options.terms ?? chainTerms(chain);
  const rv = options.closes ? realizedVolPerSession(options.closes, 20) : null;
  const open = marketStateAt(chain.asOfMs) === "open";
  const horizons = coneHorizonTargets(chain.asOfMs, boardSettlement(chain)).map((h): ConeHorizon | null => {
    if (h.settleMs === null || (h.name === "close" && !open)) return null;
    const move = impliedMove(terms, h.settleMs);
    if (!move) return null;
    const s = move.em1Pct / 100;
    const em1 = chain.spot * s;
    const sides = horizonSides(chain, terms, h.settleMs, s);
    return {
      name: h.name,
      minutes: move.minutes,
      settle_at: isoUtc(h.settleMs),
      em1_pct: move.em1Pct,
      em1,
      em2: 2 * em1,
      realized_em_pct: rv === null ? null : 100 * rv * Math.sqrt(sessionsToSettle(chain.asOfMs, h.settleMs)),
      ...sides,
      // Scheduled macro releases inside the horizon; their variance is not separated (no jump).
      events: macroEventsBetween(chain.asOfMs, h.settleMs).map((e) => ({ ...e })),
      event_adjusted: false,
    };
  });
  return { horizons, levels: options.levels ?? [] };
}

type Sides = Pick<ConeHorizon, "up1_pct" | "dn1_pct" | "up2_pct" | "dn2_pct" | "tail_src" | "skew_expiry">;

function horizonSides(chain: ChainSnapshot, terms: ChainTerms, settleMs: number, s: number): Sides {
  const none: Sides = { up1_pct: null, dn1_pct: null, up2_pct: null, dn2_pct: null, tail_src: null, skew_expiry: null };
  const exps = terms.expirations;
  let k = exps.findIndex((e) => e.settleMs >= settleMs);
  if (k < 0) k = exps.length - 1;
  if (k < 0) return none;
  const e = exps[k];
  const term = terms.term(k);
  const tYears = e.tMinutes / MINUTES_PER_YEAR;
  const forward = term?.forward ?? chain.spot * Math.exp((chain.rate - chain.dividendYield) * tYears);
  const smile = expirationSmile(chain, e.expIndex, forward, tYears);
  if (smile.strike.length < 3) return none;
  const z = term ? smileSides(smile, Math.sqrt(term.totalVariance)) : smileSides(smile);
  if (!z) return { ...none, skew_expiry: e.expiration };
  const up = (u: number) => 100 * (Math.exp(u * s) - 1);
  const dn = (d: number) => 100 * (1 - Math.exp(-d * s));
  const quantile = z.up2 !== null && z.dn2 !== null;
  return {
    up1_pct: up(z.up1),
    dn1_pct: dn(z.dn1),
    up2_pct: quantile ? up(z.up2!) : 2 * up(z.up1),
    dn2_pct: quantile ? dn(z.dn2!) : 2 * dn(z.dn1),
    tail_src: quantile ? "quantile" : "wing",
    skew_expiry: e.expiration,
  };
}
