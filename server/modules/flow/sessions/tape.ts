/**
 * The session tape every flow endpoint reads: one ticker's option prints of one regular session,
 * scored once (columnar batch), with its sweeps, premium norm and opening open interest; plus the
 * flow module's shared resolvers for tickers, contracts and dates (errors in the spec's codes; the
 * renderer upper-cases them on the flow host).
 *
 * Exported API (flow A and flow B build on it):
 * - `sessionTape(state, ticker, date, nowMs, { cache })` -> `SessionTape`: prints in
 *   `[openMs, min(closeMs, nowMs))` with `columns`, `scores`, `sweeps`, `norm`, `oi`, `board`.
 *   A finished session is cached whole; today's is cached and extended with the prints that
 *   arrived since (only the new prints are fetched; the batch is re-scored, a few ms for SPXW).
 *   `cache: false` reads a cached tape but stores nothing new (market-wide scans).
 * - `tapeTrades(tape)` -> `ScoredTrade[]` of every print (built once per tape, on first use).
 * - `tapeTradesInWindow(tape, fromMs, toMs)` -> the scored trades with `fromMs <= tsMs < toMs`.
 * - `sessionPrints(state, ticker, date, nowMs)` -> raw prints of the session so far (finished sessions cached).
 * - `premiumNormFor(state, ticker, date)` -> the ticker's premium norm for `date` (memoised).
 * - `openingBoard(state, ticker, date)` -> `{ board, oi }` at the session's open (memoised).
 * - `flowUniverse(state)` -> `Map<ticker, SymbolInfo>` of the market (memoised).
 * - `resolveFlowTicker(state, raw, param)` -> the upper-cased known ticker, or 404 `SYMBOL_NOT_FOUND`.
 * - `resolveFlowTickers(state, list, param)` -> the known ones of a list (404 when none is).
 * - `resolveFlowContract(state, raw, param)` -> `{ symbol, ticker, contract }` (URL-safe symbol,
 *   the tape's ticker), 400 `INVALID_PARAMETER` when malformed, 404 when its root is unknown.
 * - `currentFlowDate(nowMs)` -> the current trading date (today once the session opened, else the
 *   previous session).
 * - `resolveFlowDate(raw, nowMs, param)` -> a session date in `[FLOW_FIRST_DATE, today]`, 400 otherwise.
 * - `resolveFlowInstantDate(ms, nowMs, param)` -> the same for an instant's ET date (400 for any instant without one).
 * - `sessionUptoMs(date, nowMs)` -> the end of the part of the session that has happened.
 * @see docs/methodology.md#flow-session-tape
 */
import { runStepsOnLoop } from "../../../yield-to-loop";
import { groupSweepsSteps } from "../../../../lib/flow/sweeps";
import { flowColumnsSteps, scoreFlowColumnsSteps } from "../../../../lib/flow/flow-columns";
import { computeOffLoop, FLOW_NORM } from "../../../daily-store/compute-pool";
import {
  openInterestBySymbol,
  premiumNorm,
  scoredTradesFromColumns,
  SWEEP_WINDOW,
  type FlowColumns,
  type FlowScoreColumns,
  type ScoredTrade,
  type SweepGrouping,
} from "../../../../lib/flow";
import { boardInstantMs } from "../../../../lib/market/board-instant";
import type { ChainSnapshot, OptionPrint, SymbolInfo } from "../../../../lib/market/market-data";
import { OptionSymbolError, formatOptionSymbol, parseOptionSymbol, type OptionContractId } from "../../../../lib/symbols";
import { CalendarError, etDateOf, isTradingDay, previousTradingDay, sessionBounds, sessionDateAt } from "../../../../lib/time";
import { ApiError, apiErrors } from "../../../errors";
import { TICKER_RE } from "../../params";
import type { FlowState } from "../flow-route";

/** The first session with data (spec: history goes back to 2023-03-28). */
export const FLOW_FIRST_DATE = "2023-03-28";

/** One ticker's scored session so far. Immutable: an extension makes a new tape. */
export interface SessionTape {
  ticker: string;
  date: string;
  openMs: number;
  closeMs: number;
  /** Prints cover `[openMs, uptoMs)`. */
  uptoMs: number;
  /** True once `uptoMs` reached the close (the tape will not change). */
  complete: boolean;
  /** Time order. */
  prints: readonly OptionPrint[];
  columns: FlowColumns;
  scores: FlowScoreColumns;
  sweeps: SweepGrouping;
  /** The premium norm used for scoring (USD per print). */
  norm: number;
  /** Open interest by contract symbol at the session's start. */
  oi: ReadonlyMap<string, number>;
  /** The opening board (null when the market has none). */
  board: ChainSnapshot | null;
}

interface TapeEntry {
  uptoMs: number;
  promise: Promise<SessionTape>;
}

// ---------------------------------------------------------------------------------------------
// Universe, tickers, contracts

/** Every ticker the market serves (memoised per app). */
export async function flowUniverse(state: FlowState): Promise<Map<string, SymbolInfo>> {
  const key = "universe";
  let p = state.memo.get(key) as Promise<Map<string, SymbolInfo>> | undefined;
  if (!p) {
    p = state.services.market.universe().then((list) => new Map(list.map((s) => [s.ticker, s])));
    state.memo.set(key, p);
    p.catch(() => state.memo.delete(key));
  }
  return p;
}

/** 404 `symbol_not_found` naming the parameter. */
function unknownSymbol(param: string, value: string): ApiError {
  return new ApiError(404, "symbol_not_found", `Unknown ${param} "${value.slice(0, 32)}": no such symbol is served.`);
}

/**
 * The upper-cased ticker if the market serves it.
 * @throws ApiError 400 `invalid_parameter` (not a ticker), 404 `symbol_not_found` (unknown)
 */
export async function resolveFlowTicker(state: FlowState, raw: string, param = "ticker"): Promise<string> {
  const ticker = raw.trim().toUpperCase();
  if (!TICKER_RE.test(ticker)) throw apiErrors.invalidParameter(param, "must be a ticker such as SPXW or AAPL.");
  if (!(await flowUniverse(state)).has(ticker)) throw unknownSymbol(param, ticker);
  return ticker;
}

/**
 * The known tickers of a list, in order (unknown ones are dropped, spec: `symbol_not_found` only
 * when none is known).
 */
export async function resolveFlowTickers(state: FlowState, tickers: readonly string[], param = "tickers"): Promise<string[]> {
  const universe = await flowUniverse(state);
  const known = tickers.filter((t) => universe.has(t));
  if (known.length === 0) throw unknownSymbol(param, tickers.join(","));
  return known;
}

/** The ticker whose tape holds a root's prints (the universe entry listing the root). */
async function tickerOfRoot(state: FlowState, root: string): Promise<string | null> {
  const universe = await flowUniverse(state);
  if (universe.has(root) && (universe.get(root)?.optionRoots ?? []).includes(root)) return root;
  for (const s of universe.values()) if (s.optionRoots.includes(root)) return s.ticker;
  return null;
}

/**
 * A contract symbol (URL-safe `ROOT__YYMMDDC########`, or the 21-character padded form) resolved
 * to its URL-safe spelling and the ticker whose tape carries it.
 * @throws ApiError 400 `invalid_parameter` (malformed), 404 `symbol_not_found` (unknown root)
 */
export async function resolveFlowContract(state: FlowState, raw: string, param = "symbol"): Promise<{ symbol: string; ticker: string; contract: OptionContractId }> {
  let contract: OptionContractId;
  try {
    contract = parseOptionSymbol(raw.toUpperCase());
  } catch (e) {
    if (e instanceof OptionSymbolError) {
      throw apiErrors.invalidParameter(param, `must be an OPRA contract symbol such as SPXW__240315C05100000 (${e.message}).`);
    }
    throw e;
  }
  const ticker = await tickerOfRoot(state, contract.root);
  if (!ticker) throw unknownSymbol(param, raw);
  return {
    symbol: formatOptionSymbol(contract, "url"),
    ticker,
    contract: { root: contract.root, expiry: contract.expiry, right: contract.right, strike: contract.strike },
  };
}

// ---------------------------------------------------------------------------------------------
// Dates

/** The current trading date: today once its session opened, else the previous session. */
export function currentFlowDate(nowMs: number): string {
  const date = sessionDateAt(nowMs);
  return nowMs >= sessionBounds(date).openMs ? date : previousTradingDay(date);
}

/**
 * A session date: the current trading date when absent; else a trading day from
 * `FLOW_FIRST_DATE` to today.
 * @throws ApiError 400 `invalid_parameter` naming `param`
 */
export function resolveFlowDate(raw: string | undefined, nowMs: number, param = "date"): string {
  if (raw === undefined) return currentFlowDate(nowMs);
  const today = etDateOf(nowMs);
  if (raw < FLOW_FIRST_DATE) throw apiErrors.invalidParameter(param, `must not be before ${FLOW_FIRST_DATE} (got ${raw}).`);
  if (raw > today) throw apiErrors.invalidParameter(param, `must not be after today (${today}, ET).`);
  let trading: boolean;
  try {
    trading = isTradingDay(raw);
  } catch (e) {
    if (e instanceof CalendarError) throw apiErrors.invalidParameter(param, `must be a date YYYY-MM-DD (${e.message}).`);
    throw e;
  }
  if (!trading) throw apiErrors.invalidParameter(param, `${raw} is not a trading day (weekend or NYSE holiday).`);
  return raw;
}

/**
 * The session date of an instant a caller gave (`start`, `end`): `resolveFlowDate` of its ET date.
 * An instant outside the ET calendar's years (`0`, `1.5` as Unix seconds, a trade id of nanosecond 60) has no
 * date: 400 too.
 * @throws ApiError 400 `invalid_parameter` naming `param`
 */
export function resolveFlowInstantDate(ms: number, nowMs: number, param: string): string {
  let date: string;
  try {
    date = etDateOf(ms);
  } catch (e) {
    if (e instanceof CalendarError) throw apiErrors.invalidParameter(param, `must be a time from ${FLOW_FIRST_DATE} to now (this one is outside the calendar).`);
    throw e;
  }
  return resolveFlowDate(date, nowMs, param);
}

/**
 * The end of the part of `date`'s regular session that has happened by `nowMs`: the instant of
 * the board a reading at `nowMs` uses too. @see docs/methodology.md#the-board-at-an-instant
 */
export function sessionUptoMs(date: string, nowMs: number): number {
  return boardInstantMs(date, nowMs);
}

// ---------------------------------------------------------------------------------------------
// Premium norm and the tape

/**
 * The ticker's prints of session `date` up to `nowMs`: a cached tape's, else a finished session's
 * raw prints cached whole (the norm, RVOL baselines and later tapes share them), else fetched.
 */
export async function sessionPrints(state: FlowState, ticker: string, date: string, nowMs: number): Promise<readonly OptionPrint[]> {
  const { openMs, closeMs } = sessionBounds(date);
  const uptoMs = sessionUptoMs(date, nowMs);
  const tape = state.tapes.get(`tape|${ticker}|${date}`) as TapeEntry | undefined;
  if (tape && tape.uptoMs === uptoMs) return (await tape.promise).prints;
  if (uptoMs < closeMs) return state.services.market.optionPrints(ticker, openMs, uptoMs);
  const key = `prints|${ticker}|${date}`;
  let p = state.tapes.get(key) as Promise<OptionPrint[]> | undefined;
  if (!p) {
    p = state.services.market.optionPrints(ticker, openMs, closeMs);
    state.tapes.set(key, p);
    p.catch(() => state.tapes.delete(key));
  }
  return p;
}

/**
 * The ticker's premium norm for scoring `date`: the median premium per print of the previous
 * session (0 when there is none, which makes every size ratio 1).
 * @see docs/methodology.md#flow-session-tape
 */
export async function premiumNormFor(state: FlowState, ticker: string, date: string): Promise<number> {
  const key = `norm|${ticker}|${date}`;
  let p = state.memo.get(key) as Promise<number> | undefined;
  if (!p) {
    const prior = previousTradingDay(date);
    if (prior < FLOW_FIRST_DATE) return 0;
    // The prior session's whole tape is read for one number: with a compute pool, in a worker.
    const task = { kind: FLOW_NORM, ticker, session: date, nowMs: sessionBounds(prior).closeMs } as const;
    p = computeOffLoop(state.services.computePool, task, () => sessionPrints(state, ticker, prior, sessionBounds(prior).closeMs).then(premiumNorm));
    state.memo.set(key, p);
    p.catch(() => state.memo.delete(key));
  }
  return p;
}

/** The opening board and its open interest (memoised per ticker and session). */
export async function openingBoard(state: FlowState, ticker: string, date: string): Promise<{ board: ChainSnapshot | null; oi: Map<string, number> }> {
  const key = `board|${ticker}|${date}`;
  let p = state.memo.get(key) as Promise<{ board: ChainSnapshot | null; oi: Map<string, number> }> | undefined;
  if (!p) {
    p = state.services.market.chain(ticker, sessionBounds(date).openMs).then((board) => {
      // A board from another session (none yet today) says nothing about this one's OI.
      const b = board && board.sessionDate === date ? board : null;
      return { board: b, oi: b ? openInterestBySymbol(b) : new Map<string, number>() };
    });
    state.memo.set(key, p);
    p.catch(() => state.memo.delete(key));
  }
  return p;
}

/** Prints per piece of the tape's passes on the loop (a few ms each). */
export const TAPE_PRINTS_PER_PIECE = 10_000;

/**
 * The tape's columns, scores and sweeps: each a pass over every print (tens of ms each for SPY's
 * session, more for SPXW's), a piece at a time with the loop let through once a slice's budget
 * has run (docs/architecture.md#worker-pools).
 */
async function scoreTape(base: Omit<SessionTape, "columns" | "scores" | "sweeps">): Promise<SessionTape> {
  const columns = await runStepsOnLoop(flowColumnsSteps(base.prints, base.oi, TAPE_PRINTS_PER_PIECE));
  const scores = await runStepsOnLoop(scoreFlowColumnsSteps(columns, { normPremiumUsd: base.norm }, TAPE_PRINTS_PER_PIECE));
  const sweeps = await runStepsOnLoop(groupSweepsSteps(base.prints, SWEEP_WINDOW, TAPE_PRINTS_PER_PIECE));
  return { ...base, columns, scores, sweeps };
}

/** A tape built from scratch (the stream keeps its own tapes; see `sessionTape` for the cached path). */
export async function buildTape(state: FlowState, ticker: string, date: string, uptoMs: number): Promise<SessionTape> {
  const { openMs, closeMs } = sessionBounds(date);
  const [prints, norm, { board, oi }] = await Promise.all([
    uptoMs >= closeMs ? sessionPrints(state, ticker, date, closeMs) : state.services.market.optionPrints(ticker, openMs, uptoMs),
    premiumNormFor(state, ticker, date),
    openingBoard(state, ticker, date),
  ]);
  return scoreTape({ ticker, date, openMs, closeMs, uptoMs, complete: uptoMs >= closeMs, prints, norm, oi, board });
}

/** `prev` extended to `uptoMs` with the prints that arrived since (a new tape). */
export async function extendTape(state: FlowState, prev: SessionTape, uptoMs: number): Promise<SessionTape> {
  const fresh = await state.services.market.optionPrints(prev.ticker, prev.uptoMs, uptoMs);
  const complete = uptoMs >= prev.closeMs;
  if (fresh.length === 0) return { ...prev, uptoMs, complete };
  return scoreTape({ ...prev, uptoMs, complete, prints: prev.prints.concat(fresh) });
}

/**
 * The tape of `ticker`'s session `date` up to `nowMs` (the whole session once it is over).
 * Concurrent callers share one build; a failed build is not cached.
 * @param options.cache false: use a cached tape if there is one, but store nothing (scans over
 *   the whole universe would otherwise evict every hot tape)
 * @example const tape = await sessionTape(state, "SPXW", "2024-03-05", nowMs); tape.scores.flowScore[0]
 * @see docs/methodology.md#flow-session-tape
 */
export async function sessionTape(state: FlowState, ticker: string, date: string, nowMs: number, options: { cache?: boolean } = {}): Promise<SessionTape> {
  const uptoMs = sessionUptoMs(date, nowMs);
  const key = `tape|${ticker}|${date}`;
  const entry = state.tapes.get(key) as TapeEntry | undefined;
  if (entry && entry.uptoMs === uptoMs) return entry.promise;
  // A clock that moved back (a pinned test clock) asks for less than is cached: build apart.
  if (entry && entry.uptoMs > uptoMs) return buildTape(state, ticker, date, uptoMs);
  const promise = entry
    ? entry.promise.then(
        (prev) => extendTape(state, prev, uptoMs),
        () => buildTape(state, ticker, date, uptoMs),
      )
    : buildTape(state, ticker, date, uptoMs);
  if (options.cache === false) return promise;
  state.tapes.set(key, { uptoMs, promise } satisfies TapeEntry);
  promise.catch(() => {
    if ((state.tapes.get(key) as TapeEntry | undefined)?.promise === promise) state.tapes.delete(key);
  });
  return promise;
}

const TRADES = new WeakMap<SessionTape, ScoredTrade[]>();

/** Every print of the tape as a `ScoredTrade` (built on first use, then kept with the tape). */
export function tapeTrades(tape: SessionTape): ScoredTrade[] {
  let t = TRADES.get(tape);
  if (!t) {
    t = scoredTradesFromColumns(tape.prints, tape.columns, tape.scores);
    TRADES.set(tape, t);
  }
  return t;
}

/** Index of the first print at or after `tsMs` (binary search; prints are in time order). */
export function tapeIndexAt(tape: SessionTape, tsMs: number): number {
  const ts = tape.columns.tsMs;
  let lo = 0;
  let hi = tape.columns.n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] < tsMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The scored trades with `fromMs <= tsMs < toMs`. */
export function tapeTradesInWindow(tape: SessionTape, fromMs: number, toMs: number): ScoredTrade[] {
  return tapeTrades(tape).slice(tapeIndexAt(tape, fromMs), tapeIndexAt(tape, toMs));
}
