// What the trade rows add to a scored trade (`premiumPercentile`, `agg*`, `strategy*`,
// `earnings*`, `sector`, `industry`, `mlSibling`, `cacheMiss`): per tape the IV changes, the
// multi-leg packages and the running shares, per ticker and session the premium band thresholds
// and the earnings and sector facts, each computed once and kept while the tape lives.
// @see docs/methodology.md#flow-trade-row-extras
import {
  addCalendarDays,
  aggregationOf,
  earningsFields,
  EARNINGS_LOOKAHEAD_DAYS,
  ivChanges,
  premiumUsd,
  PREV_CLOSE_LOOKBACK,
  previousCloses,
  strategiesOf,
  tapeRowColumns,
  type TapeRowColumns,
  type TradeRowExtras,
  type TradeStrategy,
} from "../../../../lib/flow";
import { premiumBand, premiumBandThresholds } from "../../../../lib/flow/premium-percentile";
import { simulatedQuoteSizes } from "../../../../lib/market/quote-sizes";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import type { FlowState } from "../flow-route";
import { FLOW_FIRST_DATE, flowUniverse, sessionPrints, tapeTrades, type SessionTape } from "../sessions/tape";

/** The per-session facts every row of one ticker's tape shares. */
export interface TradeRowContext {
  tape: SessionTape;
  /** Contracts' previous closes (symbol -> last price, sessions back). */
  closes: Map<string, { price: number; age: number }>;
  /** The ticker's data is simulated: rows carry the simulated quote sizes. */
  simulated: boolean;
  thresholds: number[] | null;
  shared: TradeRowExtras;
  strategies: (TradeStrategy | null)[];
  /** Next IVs and running bid/ask shares per print. */
  columns: TapeRowColumns;
  /** Previous IV and IV direction per print. */
  ivs: ReturnType<typeof ivChanges>;
  /** This request computed some of the enrichment rather than reading it from the caches (docs/methodology.md#flow-trade-row-cache-miss). */
  cacheMiss: boolean;
}

/** Set when a lookup had to compute its value for the request at hand. */
interface MissFlag {
  miss: boolean;
}

const STRATEGIES = new WeakMap<SessionTape, (TradeStrategy | null)[]>();
const COLUMNS = new WeakMap<SessionTape, TapeRowColumns>();
const IV_CHANGES = new WeakMap<SessionTape, ReturnType<typeof ivChanges>>();

/** A per-tape value, computed once per tape (the maps hold it as long as the tape lives). */
function perTape<T>(cache: WeakMap<SessionTape, T>, tape: SessionTape, make: () => T, flag: MissFlag): T {
  let v = cache.get(tape);
  if (v === undefined) {
    flag.miss = true;
    v = make();
    cache.set(tape, v);
  }
  return v;
}

/** A per-session value in the module memo; the promise is stored at once, so a concurrent request reads it as a hit. */
function memoised<T>(state: FlowState, key: string, make: () => Promise<T>, flag: MissFlag): Promise<T> {
  let p = state.memo.get(key) as Promise<T> | undefined;
  if (!p) {
    flag.miss = true;
    p = make();
    state.memo.set(key, p);
    p.catch(() => state.memo.delete(key));
  }
  return p;
}

/** Premium band thresholds of `date` from the ticker's previous session (the live stream's rule). */
function bandThresholds(state: FlowState, ticker: string, date: string, flag: MissFlag): Promise<number[] | null> {
  return memoised(
    state,
    `bands|${ticker}|${date}`,
    async () => {
      const prior = previousTradingDay(date);
      if (prior < FLOW_FIRST_DATE) return null;
      const prints = await sessionPrints(state, ticker, prior, sessionBounds(prior).closeMs);
      return premiumBandThresholds(prints.map((x) => premiumUsd(x.price, x.size)));
    },
    flag,
  );
}

/** Previous closes of the ticker's contracts before `date` (finished sessions' prints, cached). */
function closesBefore(state: FlowState, ticker: string, date: string, flag: MissFlag): Promise<Map<string, { price: number; age: number }>> {
  return memoised(
    state,
    `closes|${ticker}|${date}`,
    async () => {
      const sessions = [];
      for (let d = previousTradingDay(date), k = 0; k < PREV_CLOSE_LOOKBACK && d >= FLOW_FIRST_DATE; d = previousTradingDay(d), k++) {
        sessions.push(await sessionPrints(state, ticker, d, sessionBounds(d).closeMs));
      }
      return previousCloses(sessions);
    },
    flag,
  );
}

/** Sector, industry and (stocks only) the earnings fields of a ticker on a session date. */
function sessionFacts(state: FlowState, ticker: string, date: string, flag: MissFlag): Promise<TradeRowExtras> {
  return memoised(
    state,
    `rowfacts|${ticker}|${date}`,
    async () => {
      const info = (await flowUniverse(state)).get(ticker);
      if (!info) return {};
      const out: TradeRowExtras = { sector: info.sector, industry: info.industry };
      if (info.type === "stock") {
        const events = await state.services.market.earnings(info.underlying, date, addCalendarDays(date, EARNINGS_LOOKAHEAD_DAYS));
        Object.assign(out, earningsFields(date, events));
      }
      return out;
    },
    flag,
  );
}

/** The context the rows of one tape read. */
export async function tradeRowContext(state: FlowState, tape: SessionTape): Promise<TradeRowContext> {
  const flag: MissFlag = { miss: false };
  const pending = Promise.all([
    bandThresholds(state, tape.ticker, tape.date, flag),
    sessionFacts(state, tape.ticker, tape.date, flag),
    flowUniverse(state),
    closesBefore(state, tape.ticker, tape.date, flag),
  ]);
  // The per-tape columns are taken before the await, so two concurrent requests see one miss between them.
  const strategies = perTape(STRATEGIES, tape, () => strategiesOf(tape.prints, tape.date, tape.ticker), flag);
  const columns = perTape(COLUMNS, tape, () => tapeRowColumns(tapeTrades(tape)), flag);
  const ivs = perTape(IV_CHANGES, tape, () => ivChanges(tapeTrades(tape)), flag);
  const cacheMiss = flag.miss;
  const [thresholds, shared, universe, closes] = await pending;
  return { tape, closes, simulated: universe.get(tape.ticker)?.simulated === true, thresholds, shared, strategies, columns, ivs, cacheMiss };
}

/** The optional fields of the row of tape print `index`. */
export function rowExtras(c: TradeRowContext, index: number): TradeRowExtras {
  const t = tapeTrades(c.tape)[index];
  const cols = c.columns;
  const close = c.closes.get(t.symbol);
  const out: TradeRowExtras = {
    prevClose: close?.price ?? null,
    prevCloseAge: close?.age ?? null,
    priceChange: close ? t.priceUsd - close.price : null,
    nextIv: cols.nextIv[index],
    chainBidPct: cols.chainBidPct[index],
    chainAskPct: cols.chainAskPct[index],
    contractBidPct: cols.contractBidPct[index],
    contractAskPct: cols.contractAskPct[index],
    ...aggregationOf(index, c.tape.sweeps, t.premiumUsd, t.size),
  };
  const sizes = c.simulated && t.side !== "N" ? simulatedQuoteSizes(t.symbol, t.tsMs, t.bidUsd, t.askUsd) : null;
  if (sizes) Object.assign(out, sizes);
  const band = premiumBand(t.premiumUsd, c.thresholds);
  if (band !== null) out.premiumPercentile = band;
  const s = c.strategies[index];
  if (s) Object.assign(out, s);
  // Rows are included on their own filter match only (docs/api.md#flow-trade-row-flags).
  out.mlSibling = false;
  out.cacheMiss = c.cacheMiss;
  return Object.assign(out, c.shared);
}
