import * as z from "zod";
import { normCdf } from "../math/normal";
import { isoUtc } from "../positioning/iso-utc";
import { SIGMA_DAYS, SIGMA_ODDS_SESSIONS } from "./defaults";
import { VolError } from "./errors";

/** One completed session of a symbol's sigma history, oldest first. */
export const SigmaHistoryRowSchema = z.object({
  /** ET session date. */
  date: z.string(),
  /** The session's close. */
  close: z.number().positive(),
  /** The 1-sigma move to this session's close priced at the previous session's close, percent; null if none. */
  em1dPct: z.number().positive().nullable(),
});

/** Input of `sigma`: prices, the priced moves and the session instants, all at one instant. */
export const SigmaInputSchema = z.object({
  /** The instant of the reading, ms. */
  asOfMs: z.number(),
  /** Price now. */
  spot: z.number().positive(),
  /** The previous session's close (price) and its instant, ms. */
  priorClose: z.number().positive(),
  priorCloseMs: z.number(),
  /** Today's regular session, ms (`[openMs, closeMs)`). */
  sessionOpenMs: z.number(),
  sessionCloseMs: z.number(),
  /** 1-sigma move to today's close priced at the prior close, percent of the prior close. */
  em1dPct: z.number().positive().nullable(),
  /** 1-sigma move from now to today's close priced by the board now, percent of spot; null after hours. */
  emRestNowPct: z.number().nonnegative().nullable(),
  /** Completed sessions before today, oldest first (at least the last 61 for a full `days`). */
  history: z.array(SigmaHistoryRowSchema),
});
export type SigmaInput = z.output<typeof SigmaInputSchema>;
export type SigmaHistoryRow = z.output<typeof SigmaHistoryRowSchema>;

/** One session of `days`. */
export const SigmaDaySchema = z.object({
  date: z.string(),
  /** Close-to-close move, percent. */
  move_pct: z.number(),
  /** The move priced at the prior close, percent. */
  em_1d_pct: z.number(),
  /** `move_pct / em_1d_pct`. */
  sigma: z.number(),
});

/** The `sigma` module object (`/v1/vol/sigma`, snake_case as the reference service). */
export const SigmaModuleSchema = z.object({
  prior_close_at: z.string(),
  /** Move since the prior close, percent. */
  move_pct: z.number(),
  /** The one-day 1-sigma move priced at the prior close, percent. */
  em_1d_pct: z.number().nullable(),
  /** `move_pct / em_1d_pct`, signed. */
  running_sigma: z.number().nullable(),
  /** Share of the 1-sigma budget used, percent (`100 |running_sigma|`). */
  budget_used_pct: z.number().nullable(),
  /** Move left before a 1-sigma day, percent of the prior close (`em_1d_pct max(0, 1 - |running_sigma|)`). */
  budget_left_pct: z.number().nullable(),
  odds: z.object({
    /** Normal odds of a day beyond 1 and 2 sigma, percent. */
    theo_1s_pct: z.number(),
    theo_2s_pct: z.number(),
    /** Share of the trailing sessions beyond 1 and 2 sigma, percent (null without history). */
    hist_1s_pct: z.number().nullable(),
    hist_2s_pct: z.number().nullable(),
    /** Sessions counted in the historical odds. */
    sessions: z.number().int(),
  }),
  /** Historical share of sessions at least as large as today's `|running_sigma|`, percent. */
  sigma_odds_pct: z.number().nullable(),
  /** Normal odds of a day at least as large as today's, percent. */
  sigma_odds_theo_pct: z.number().nullable(),
  /** Share of the prior-close-to-close span elapsed (calendar minutes), 0-1; null outside regular hours. */
  elapsed_frac: z.number().nullable(),
  /** Today's move against the priced move for the time elapsed, in sigma; null outside regular hours. */
  day_pace: z.number().nullable(),
  /** The rest-of-day move priced now over what the prior close priced for it; null outside regular hours. */
  day_reprice: z.number().nullable(),
  /** The last 60 sessions, oldest first. */
  days: z.array(SigmaDaySchema),
});
export type SigmaModule = z.output<typeof SigmaModuleSchema>;
export type SigmaDay = z.output<typeof SigmaDaySchema>;

/** Two-sided normal odds (percent) of a move of at least `z` standard deviations. */
const normalOddsPct = (z: number): number => 200 * normCdf(-Math.abs(z));

/**
 * Per-session sigma readings of a history: `move_pct / em_1d_pct` for each session whose previous
 * session is in the history and whose priced move is known.
 *
 * @example sigmaDays(history).at(-1)?.sigma
 * @see docs/methodology.md#sigma
 */
export function sigmaDays(history: readonly SigmaHistoryRow[]): SigmaDay[] {
  const out: SigmaDay[] = [];
  for (let i = 1; i < history.length; i++) {
    const em = history[i].em1dPct;
    if (em === null) continue;
    const move = 100 * (history[i].close / history[i - 1].close - 1);
    out.push({ date: history[i].date, move_pct: move, em_1d_pct: em, sigma: move / em });
  }
  return out;
}

/**
 * Tempest-style Sigma: today's move in units of the one-day move priced at the prior close
 * (`running_sigma`), the budget left, theoretical against historical odds of 1- and 2-sigma days,
 * the last 60 sessions, and the intraday `day_pace` and `day_reprice` (null outside regular hours).
 *
 * @example
 * sigma({ asOfMs, spot: 5030, priorClose: 5000, priorCloseMs, sessionOpenMs, sessionCloseMs,
 *   em1dPct: 1, emRestNowPct: 0.7, history }).running_sigma // 0.6
 * @throws VolError `invalid_parameter` when the input does not match `SigmaInputSchema`
 * @see docs/methodology.md#sigma
 */
export function sigma(input: SigmaInput): SigmaModule {
  const parsed = SigmaInputSchema.safeParse(input);
  if (!parsed.success) throw new VolError("invalid_parameter", `sigma: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const x = parsed.data;
  const move = 100 * (x.spot / x.priorClose - 1);
  const em = x.em1dPct;
  const rs = em === null ? null : move / em;

  const all = sigmaDays(x.history);
  const trailing = all.slice(-SIGMA_ODDS_SESSIONS);
  const share = (pred: (d: SigmaDay) => boolean): number | null => (trailing.length === 0 ? null : (100 * trailing.filter(pred).length) / trailing.length);

  const inSession = x.asOfMs >= x.sessionOpenMs && x.asOfMs < x.sessionCloseMs && x.sessionCloseMs > x.priorCloseMs;
  const f = inSession ? (x.asOfMs - x.priorCloseMs) / (x.sessionCloseMs - x.priorCloseMs) : null;
  const dayPace = f !== null && em !== null && f > 0 ? move / (em * Math.sqrt(f)) : null;
  const dayReprice = f !== null && em !== null && x.emRestNowPct !== null && f < 1 ? x.emRestNowPct / (em * Math.sqrt(1 - f)) : null;

  return {
    prior_close_at: isoUtc(x.priorCloseMs),
    move_pct: move,
    em_1d_pct: em,
    running_sigma: rs,
    budget_used_pct: rs === null ? null : 100 * Math.abs(rs),
    budget_left_pct: rs === null || em === null ? null : em * Math.max(0, 1 - Math.abs(rs)),
    odds: {
      theo_1s_pct: normalOddsPct(1),
      theo_2s_pct: normalOddsPct(2),
      hist_1s_pct: share((d) => Math.abs(d.sigma) >= 1),
      hist_2s_pct: share((d) => Math.abs(d.sigma) >= 2),
      sessions: trailing.length,
    },
    sigma_odds_pct: rs === null ? null : share((d) => Math.abs(d.sigma) >= Math.abs(rs)),
    sigma_odds_theo_pct: rs === null ? null : normalOddsPct(rs),
    elapsed_frac: f,
    day_pace: dayPace,
    day_reprice: dayReprice,
    days: all.slice(-SIGMA_DAYS),
  };
}
