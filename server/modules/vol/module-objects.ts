// The per-symbol module objects (`iv`, `term`, `cones`, `sigma`, `surface`, `tilt`, `events`),
// each from the live reading and the symbol's daily readings; the formulas are the library's
// (docs/methodology.md#volatility-methodology), this file only gathers their inputs.
import type { z } from "zod";
import type { ContractRef, EarningsEvent, IsoDate } from "../../../lib/market/market-data";
import { isoUtc } from "../../../lib/positioning/iso-utc";
import {
  daysToEvent,
  eventImpliedMove,
  IV_WINDOWS,
  ivModule,
  type IvModuleSchema,
  ivRankPercentiles,
  pastMoveStats,
  reactionSessions,
  readCones,
  readSigma,
  reportInstantMs,
  SVX_TENORS,
  termModule,
  termStructure,
  tilt,
  vrp,
  zScore,
  type SessionCloseReading,
  type SvxTenor,
  type TiltRow,
} from "../../../lib/vol";
import { fromLowPct } from "../../../lib/vol/premium-low";
import { runningLows } from "./premium-low";
import type { EarningsReportSchema, EventsModuleSchema, SurfaceWithPctSchema, TermWithContextSchema, TiltModuleSchema, VolModuleName } from "../../../lib/api/vol";
import { earningsContext } from "../../../lib/vol/earnings-context";
import { skewIndex } from "../../../lib/vol/skew-index";
import { surfaceSteps } from "../../../lib/vol/surface";
import { runStepsOnLoop } from "../../yield-to-loop";
import { earningsOf, recordReports, shiftDays } from "./event-record";
import { liveReading, type LiveReading } from "./live-reading";
import { REFERENCE_SYMBOL, type VolState } from "./vol-route";

/** Calendar days ahead searched for the next report. */
const NEXT_EVENT_DAYS = 120;

/** Everything the module builders of one symbol read. */
export interface SymbolInputs {
  live: LiveReading;
  /** Completed sessions before today, oldest first. */
  history: SessionCloseReading[];
  nowMs: number;
}

/** The inputs of `symbol` at `nowMs`, or null without a live board. */
export async function symbolInputs(state: VolState, symbol: string, nowMs: number): Promise<SymbolInputs | null> {
  const live = await liveReading(state, symbol, nowMs);
  if (!live) return null;
  const history = await state.daily.before(symbol, live.board.sessionDate, state.historySessions);
  return { live, history, nowMs };
}

/** A daily series of one reading, history then today's value (NaN where missing). */
function series(history: readonly SessionCloseReading[], pick: (r: SessionCloseReading) => number | null, today: number | null): number[] {
  return [...history.map((r) => pick(r) ?? Number.NaN), today ?? Number.NaN];
}

/** The `iv` module. @see docs/methodology.md#iv-module */
export async function ivOf(state: VolState, x: SymbolInputs): Promise<z.output<typeof IvModuleSchema>> {
  const daily: Partial<Record<SvxTenor, number[]>> = {};
  for (const t of SVX_TENORS) daily[t] = series(x.history, (r) => r[t], x.live.svx[t]?.value ?? null);
  const ref = x.live.symbol === REFERENCE_SYMBOL ? x.live : await liveReading(state, REFERENCE_SYMBOL, x.nowMs);
  const refHistory = x.live.symbol === REFERENCE_SYMBOL ? x.history : ref ? await state.daily.before(REFERENCE_SYMBOL, ref.board.sessionDate, state.historySessions) : [];
  const refByDate = new Map(refHistory.map((r) => [r.date, r.svx30]));
  const ratioDaily = x.history.map((r) => {
    const s = refByDate.get(r.date);
    return r.svx30 !== null && s ? r.svx30 / s : Number.NaN;
  });
  const dates = [...x.history.map((r) => r.date), x.live.board.sessionDate];
  return ivModule(x.live.svx, { daily, referenceSvx30: ref?.svx.svx30?.value ?? null, ratioDaily, dates });
}

/** The `term` module with `earnings_context`. @see docs/methodology.md#term-structure @see docs/methodology.md#volatility-server-readings */
async function termOf(state: VolState, x: SymbolInputs): Promise<z.output<typeof TermWithContextSchema>> {
  return { ...termModule(termStructure(x.live.board, x.live.terms)), earnings_context: await contextOf(state, x) };
}

/** The symbol's next report after the board (within `NEXT_EVENT_DAYS`), if any. */
async function nextReport(state: VolState, x: SymbolInputs): Promise<EarningsEvent | undefined> {
  const { board, symbol } = x.live;
  const today = board.sessionDate;
  return (await earningsOf(state, symbol, today, shiftDays(today, NEXT_EVENT_DAYS)))
    .filter((e) => reportInstantMs(e) > board.asOfMs)
    .sort((a, b) => reportInstantMs(a) - reportInstantMs(b))[0];
}

/** `earnings_context` of a symbol's live board (indices: no calendar). */
async function contextOf(state: VolState, x: SymbolInputs) {
  const info = (await state.coverage.all()).get(x.live.symbol)?.info;
  const calendar = !!info && info.type !== "index";
  const next = calendar ? await nextReport(state, x) : undefined;
  return earningsContext(x.live.terms, { calendar, next: next ? { date: next.date, timing: next.timing } : null });
}

/**
 * The `surface` module with `skew_pct_1y` (percentile of `rr25_30` in its trailing year) and the
 * symbol's own SKEW-style index. @see docs/methodology.md#surface @see docs/methodology.md#skew-index
 */
async function surfaceOf(x: SymbolInputs): Promise<z.output<typeof SurfaceWithPctSchema>> {
  // One SVI fit per expiration, ~100 ms for SPY in all: the loop runs other work between fits.
  const s = await runStepsOnLoop(surfaceSteps(x.live.board, x.live.terms));
  return {
    ...s,
    skew_pct_1y: ivRankPercentiles(series(x.history, (r) => r.rr25_30, s.rr25_30)).iv_pct,
    skew_index: skewIndex(x.live.terms)?.value ?? null,
  };
}

/**
 * The `tilt` module: z-score and percentile of `tilt_21` in its trailing year, and each row's
 * contracts' distance from their running premium lows.
 * @see docs/methodology.md#tilt @see docs/methodology.md#premium-low-and-cheap-from-low
 */
export async function tiltOf(state: VolState, x: SymbolInputs): Promise<z.output<typeof TiltModuleSchema>> {
  const t = tilt(x.live.board, x.live.terms);
  const s = series(x.history, (r) => r.tilt_21, t.tilt_21);
  const window = s.slice(0, -1).slice(-IV_WINDOWS["1y"]);
  const withLows = await tiltRowsFromLow(state, x, t.headline ? [...t.rows, t.headline] : t.rows);
  return {
    tilt_21: t.tilt_21,
    tilt_z: t.tilt_21 === null ? null : zScore(window, t.tilt_21),
    tilt_pct_1y: ivRankPercentiles(s).iv_pct,
    cheap: t.headline?.cheap ?? null,
    liquid: t.headline !== null,
    headline: t.headline ? withLows[withLows.length - 1] : null,
    rows: t.headline ? withLows.slice(0, -1) : withLows,
  };
}

/** Tilt rows with `call_from_low_pct` and `put_from_low_pct`, from the contracts' running lows. */
async function tiltRowsFromLow(state: VolState, x: SymbolInputs, rows: readonly TiltRow[]) {
  const contracts: ContractRef[] = rows.flatMap((r) => [
    { expiration: r.expiration, strike: r.call_strike, right: "C" as const },
    { expiration: r.expiration, strike: r.put_strike, right: "P" as const },
  ]);
  const lows = await runningLows(state, x.live.board, contracts);
  const pct = (i: number) => {
    const l = lows[i];
    return l ? fromLowPct(l.last, l.low) : null;
  };
  return rows.map((r, k) => ({ ...r, call_from_low_pct: pct(2 * k), put_from_low_pct: pct(2 * k + 1) }));
}

/** The `sigma` module. @see docs/methodology.md#sigma */
export function sigmaOf(state: VolState, x: SymbolInputs) {
  return readSigma(state.services.market, x.live.symbol, x.nowMs, x.history, x.live);
}

/**
 * The `cones` module, with the next earnings report placed in every horizon it falls inside
 * (after the board, at or before the settle): `jump_pct` is the report's own implied move (the
 * straddle estimate when only that exists), `var_share` its variance over the horizon's.
 * @see docs/methodology.md#volatility-server-readings
 */
async function conesOf(state: VolState, x: SymbolInputs) {
  const c = await readCones(state.services.market, x.live.symbol, x.nowMs, x.history);
  if (!c) return c;
  const ev = await eventsOf(state, x);
  const jump = ev ? (ev.implied_move_pct ?? ev.estimate_move_pct) : null;
  if (!ev || jump === null) return c;
  const atMs = Date.parse(ev.at);
  const horizons = c.horizons.map((h) => {
    if (!h || atMs <= x.live.board.asOfMs || atMs > Date.parse(h.settle_at)) return h;
    const event = {
      kind: "earnings",
      label: `Earnings ${ev.fiscal_quarter ?? ev.date}`,
      at: ev.at,
      timing: ev.timing,
      jump_pct: jump,
      var_share: Math.min(1, (jump / h.em1_pct) ** 2),
    };
    const events = [...h.events, event].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    return { ...h, events, event_adjusted: true };
  });
  return { ...c, horizons };
}

/** Close of `symbol` on session `date`: its closing board's spot, as in the daily readings. */
async function closeOn(state: VolState, symbol: string, date: IsoDate): Promise<number | null> {
  return (await state.daily.reading(symbol, date))?.close ?? null;
}

/** The `events` module: null when no report is scheduled. @see docs/methodology.md#events-and-vrp */
export async function eventsOf(state: VolState, x: SymbolInputs): Promise<z.output<typeof EventsModuleSchema>> {
  const { board, terms, symbol } = x.live;
  const today = board.sessionDate;
  const next = await nextReport(state, x);
  if (!next) return null;
  const move = eventImpliedMove(board, terms, reportInstantMs(next));
  const past = await recordReports(state, symbol, today);
  const record: z.output<typeof EarningsReportSchema>[] = [];
  for (const e of past) {
    const { before, after } = reactionSessions(e);
    const c0 = await closeOn(state, symbol, before);
    const c1 = await closeOn(state, symbol, after);
    if (c0 && c1) record.push({ date: e.date, timing: e.timing, fiscal_quarter: e.fiscalQuarter, move_pct: 100 * (c1 / c0 - 1) });
  }
  const implied = move?.implied_move_pct ?? null;
  const stats = pastMoveStats(
    record.map((r) => r.move_pct),
    implied,
  );
  const closes = [...x.history.map((r) => r.close), board.spot];
  const svx30 = series(x.history, (r) => r.svx30, x.live.svx.svx30?.value ?? null);
  const v = vrp(closes, svx30);
  return {
    kind: "earnings",
    date: next.date,
    timing: next.timing,
    fiscal_quarter: next.fiscalQuarter,
    at: isoUtc(reportInstantMs(next)),
    days_to_event: daysToEvent(today, next.date),
    implied_move_pct: implied,
    estimate: move?.estimate ?? true,
    estimate_move_pct: move?.estimate_move_pct ?? null,
    median_move_pct: stats.median_move_pct,
    mean_move_pct: stats.mean_move_pct,
    implied_vs_median: stats.implied_vs_median,
    reports: stats.reports,
    record,
    vrp: { expected_vrp: v.expected_vrp, vrp_pct_1y: v.vrp_pct_1y, rv20: v.rv20, overpaid_share_pct: v.overpaid_share_pct },
    earnings_context: earningsContext(terms, { calendar: true, next: { date: next.date, timing: next.timing } }),
  };
}

/**
 * One module of one symbol by name, memoised per (module, symbol, board minute): a snapshot, the
 * single-module routes, the screener and the stream share one computation.
 */
export function moduleOf(state: VolState, name: VolModuleName, x: SymbolInputs): Promise<unknown> {
  const key = `mod|${name}|${x.live.symbol}|${x.live.board.asOfMs}`;
  let p = state.memo.get(key) as Promise<unknown> | undefined;
  if (!p) {
    p = buildModule(state, name, x);
    state.memo.set(key, p);
  }
  return p;
}

async function buildModule(state: VolState, name: VolModuleName, x: SymbolInputs): Promise<unknown> {
  switch (name) {
    case "iv":
      return ivOf(state, x);
    case "term":
      return termOf(state, x);
    case "cones":
      return conesOf(state, x);
    case "sigma":
      return sigmaOf(state, x);
    case "surface":
      return surfaceOf(x);
    case "tilt":
      return tiltOf(state, x);
    case "events":
      return eventsOf(state, x);
  }
}
