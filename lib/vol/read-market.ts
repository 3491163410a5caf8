// Compositions over the MarketData interface: what the server's vol routes (and a daily history
// store) read for a symbol. No state; every board comes from the market passed in.
import type { ChainSnapshot, IsoDate, MarketData } from "../market/market-data";
import { nextTradingDay, previousTradingDay, sessionBounds } from "../time";
import { chainTerms, type ChainTerms } from "./chain-terms";
import { coneLevelAnchors } from "./cone-horizons";
import { coneLevel, cones, type ConeLevel, type ConesModule } from "./cones";
import { type CurveState, curveState, termSlopePct } from "./term-structure";
import { impliedMove } from "./implied-move";
import { type ChainQuality, chainQuality } from "./modules";
import { sigma, type SigmaHistoryRow, type SigmaModule } from "./sigma";
import { skew30 } from "./skew";
import { MINUTE_MS, MINUTES_PER_DAY, SKEW_TENOR_MINUTES, SVX_TENOR_MINUTES, SVX_TENORS, TILT_HEADLINE_DAYS } from "./defaults";
import { svxAll } from "./svx";
import { tilt21 } from "./tilt";

/** A symbol's readings on its closing board of one session (one row of a daily history). */
export interface SessionCloseReading {
  date: IsoDate;
  /** Instant of the closing board, ms. */
  closeMs: number;
  /** Underlying price on the closing board. */
  close: number;
  svx1d: number | null;
  svx9: number | null;
  svx30: number | null;
  svx3m: number | null;
  svx6m: number | null;
  /** The 1-sigma move this close prices to the next session's close, percent. */
  em_1d_next_pct: number | null;
  term_slope: number | null;
  curve: CurveState | null;
  rr25_30: number | null;
  tilt_21: number | null;
  quality: ChainQuality;
}

/** A market that can build the head of a board (the simulator's `chainHeadSync`). */
type HeadChain = (symbol: string, atMs: number, untilMs: number) => ChainSnapshot | null;

/**
 * How far out a closing reading looks, minutes: its longest tenor (SVX6M; the 30-day skew and the
 * 21-day tilt are shorter). The expirations up to the first at or past it bracket every tenor.
 */
const READING_REACH_MINUTES = Math.max(...Object.values(SVX_TENOR_MINUTES), SKEW_TENOR_MINUTES, TILT_HEADLINE_DAYS * MINUTES_PER_DAY);

/**
 * The readings of `symbol` on the closing board of session `date` (as `MarketData.chain` answers
 * at the session's close). Null when the market has no board. On a market that builds heads of
 * boards (the simulator), the head out to the reach is read first; the full board only when a
 * reading there looked past the head's last expiration (same values either way).
 *
 * @example await sessionCloseReading(market, "SPXW", "2024-05-01")
 * @see docs/methodology.md#daily-readings
 */
export async function sessionCloseReading(market: MarketData, symbol: string, date: IsoDate): Promise<SessionCloseReading | null> {
  const { closeMs } = sessionBounds(date);
  const nextClose = sessionBounds(nextTradingDay(date)).closeMs;
  const headOf = (market as MarketData & { chainHeadSync?: HeadChain }).chainHeadSync;
  if (typeof headOf === "function") {
    const untilMs = Math.max(closeMs + READING_REACH_MINUTES * MINUTE_MS, nextClose);
    const head = headOf.call(market, symbol, closeMs, untilMs);
    // The head is null exactly when the board is (same session, same instant).
    if (!head || head.sessionDate !== date) return null;
    const read = readingOn(head, date, nextClose);
    // A head that ends before the reach is the whole board.
    const whole = head.expirySettleMs[head.expirySettleMs.length - 1] < untilMs;
    if (read.withinHead || whole) return read.reading;
  }
  const board = await market.chain(symbol, closeMs);
  if (!board || board.sessionDate !== date) return null;
  return readingOn(board, date, nextClose).reading;
}

/**
 * The reading of one closing board, and whether every search for a term forward of a tenor
 * (SVX's next term, the implied move's, the skew's, the tilt's headline) found it on this board.
 * Each search starts at the first expiration at or past its target and stops at the first usable
 * one, and everything else reads nearer expirations: so a reading whose searches all stopped
 * within a head of the board (every expiration up to one past each target) equals the reading of
 * the full board. @see docs/methodology.md#daily-readings
 */
function readingOn(board: ChainSnapshot, date: IsoDate, nextClose: number): { reading: SessionCloseReading; withinHead: boolean } {
  const terms = chainTerms(board);
  const svx = svxAll(terms);
  const v = (x: { value: number } | null) => x?.value ?? null;
  const em = impliedMove(terms, nextClose);
  const skew = skew30(board, terms);
  const tilt_21 = tilt21(board, terms);
  const withinHead =
    SVX_TENORS.every((t) => svx[t]?.next) &&
    em?.read.next != null &&
    // The skew's forward read is `next`, or `near` when no read came before 30 days.
    skew !== null &&
    (skew.next !== null || skew.near.tMinutes >= SKEW_TENOR_MINUTES) &&
    tilt_21 !== null;
  const reading: SessionCloseReading = {
    date,
    closeMs: board.asOfMs,
    close: board.spot,
    svx1d: v(svx.svx1d),
    svx9: v(svx.svx9),
    svx30: v(svx.svx30),
    svx3m: v(svx.svx3m),
    svx6m: v(svx.svx6m),
    em_1d_next_pct: em?.em1Pct ?? null,
    term_slope: termSlopePct(v(svx.svx30), v(svx.svx3m)),
    curve: curveState({ svx9: v(svx.svx9), svx30: v(svx.svx30), svx3m: v(svx.svx3m) }),
    rr25_30: skew?.rr25_30 ?? null,
    tilt_21,
    quality: chainQuality(svx.svx30),
  };
  return { reading, withinHead };
}

/**
 * Sigma history rows from consecutive daily readings (oldest first): each session's priced move
 * is the previous reading's `em_1d_next_pct` when the two are consecutive sessions.
 *
 * @see docs/methodology.md#daily-readings
 */
export function sigmaHistory(readings: readonly SessionCloseReading[]): SigmaHistoryRow[] {
  return readings.map((r, i) => {
    const prev = readings[i - 1];
    const consecutive = prev !== undefined && nextTradingDay(prev.date) === r.date;
    return { date: r.date, close: r.close, em1dPct: consecutive ? prev.em_1d_next_pct : null };
  });
}

/**
 * The `sigma` module of `symbol` at `asOfMs`: today is the session of the board at `asOfMs`
 * (during the session, the session itself; after the close or before the next open, the last
 * session); the priced move comes from the prior session's closing board, the rest-of-day move
 * from the board now. `readings` are the daily readings of the sessions before today (oldest
 * first; a server keeps them in a daily store, since each is a closing board; the prior session's
 * reading, when there, stands in for its closing board). `live`: the board at `asOfMs` and its
 * terms when the caller has read them already. Null without a
 * board now or at the prior close.
 *
 * @example await readSigma(market, "SPY", Date.now(), cachedReadings)
 * @see docs/methodology.md#daily-readings
 */
export async function readSigma(
  market: MarketData,
  symbol: string,
  asOfMs: number,
  readings: readonly SessionCloseReading[],
  live?: { board: ChainSnapshot; terms: ChainTerms },
): Promise<SigmaModule | null> {
  const board = live?.board ?? (await market.chain(symbol, asOfMs));
  if (!board) return null;
  const today = board.sessionDate;
  const { openMs, closeMs } = sessionBounds(today);
  const prior = await priorClose(market, symbol, previousTradingDay(today), closeMs, readings);
  if (!prior) return null;
  const inSession = board.asOfMs >= openMs && board.asOfMs < closeMs;
  const before = readings.filter((r) => r.date < today);
  return sigma({
    asOfMs: board.asOfMs,
    spot: board.spot,
    priorClose: prior.close,
    priorCloseMs: prior.closeMs,
    sessionOpenMs: openMs,
    sessionCloseMs: closeMs,
    em1dPct: prior.em1dPct,
    emRestNowPct: inSession ? (impliedMove(live?.terms ?? chainTerms(board), closeMs)?.em1Pct ?? null) : null,
    history: sigmaHistory(before),
  });
}

/**
 * The prior session's close, its instant and the one-day move it priced to `closeMs` (today's
 * close): from that session's daily reading when the caller has it (its `em_1d_next_pct` is that
 * very move, read on the same closing board), else from the closing board itself. The reading
 * saves rebuilding a closing board per symbol and minute. Null without a board at that close.
 */
async function priorClose(
  market: MarketData,
  symbol: string,
  prior: IsoDate,
  closeMs: number,
  readings: readonly SessionCloseReading[],
): Promise<{ close: number; closeMs: number; em1dPct: number | null } | null> {
  const r = readings.findLast((x) => x.date === prior);
  if (r) return { close: r.close, closeMs: r.closeMs, em1dPct: r.em_1d_next_pct };
  const board = await market.chain(symbol, sessionBounds(prior).closeMs);
  if (!board || board.sessionDate !== prior) return null;
  return { close: board.spot, closeMs: board.asOfMs, em1dPct: impliedMove(chainTerms(board), closeMs)?.em1Pct ?? null };
}

/**
 * The `cones` module of `symbol` at `asOfMs`: horizons from the board now, fixed levels from the
 * anchor sessions' closing boards (a level is left out when its anchor has no board), realized
 * comparison from the daily readings' closes (the last 21 of them, plus the board's spot when the
 * board is after the last reading).
 *
 * @example await readCones(market, "SPY", Date.now(), cachedReadings)
 * @see docs/methodology.md#cone-levels
 */
export async function readCones(market: MarketData, symbol: string, asOfMs: number, readings: readonly SessionCloseReading[] = []): Promise<ConesModule | null> {
  const board = await market.chain(symbol, asOfMs);
  if (!board) return null;
  const levels: ConeLevel[] = [];
  for (const a of coneLevelAnchors(board.asOfMs)) {
    if (a.anchorCloseMs > board.asOfMs) continue;
    const anchorBoard = await market.chain(symbol, a.anchorCloseMs);
    if (!anchorBoard || anchorBoard.sessionDate !== a.anchor) continue;
    const em = impliedMove(chainTerms(anchorBoard), a.untilMs);
    if (em) levels.push(coneLevel(a, anchorBoard.spot, em.em1Pct));
  }
  const closes = readings.filter((r) => r.closeMs <= board.asOfMs).map((r) => r.close);
  return cones(board, { closes: closes.length > 0 ? closes : undefined, levels });
}
