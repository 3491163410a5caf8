// GET /v1/market/overview: market-wide (or listed tickers') flow of the session so far (spec
// "Flow endpoints", `/v1/market/overview` parameters; record "Market overview").
import { timeSlicer } from "../../../yield-to-loop";
import { MarketOverviewQuerySchema } from "../../../../lib/api/flow";
import { marketOverview, MarketOverviewSchema, PREMIUM_RVOL_LOOKBACK_SESSIONS } from "../../../../lib/flow";
import { addTradingDays, previousTradingDay, sessionBounds } from "../../../../lib/time";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { heldSummary, scanTickers, summariesOf, type SessionSummary } from "../sessions/session-summary";
import { computeOffLoop, SUMMARY_PREMIUMS } from "../../../daily-store/compute-pool";
import { decodeDaily } from "../../../daily-store/codec";
import { FLOW_SUMMARY } from "../../../daily-store/kinds";
import type { FlowState } from "../flow-route";
import { FLOW_FIRST_DATE, currentFlowDate, resolveFlowTickers } from "../sessions/tape";

/** The `premiumRvol` baseline of a request: the sessions it wants and the premiums of those built. */
interface Baseline {
  /** Trailing sessions the baseline is made of (20, fewer only near the first flow session). */
  wanted: number;
  /** Premium through the same time of day of each wanted session whose summaries are all built. */
  premiums: number[];
}

/** Sessions of the baseline whose stored summaries are decoded at once (their bodies are held meanwhile). */
const SESSIONS_AT_ONCE = 4;

/** Flow memo key of a finished session's premium by minute (a few KB, kept apart from its summary). */
const premiumKey = (ticker: string, date: string) => `premium-minutes|${ticker}|${date}`;

/** A stored summary's premium by minute, decoded here (no compute pool), or null when its body does not decode. */
function decodedPremiums(body: Uint8Array): Float64Array | null {
  try {
    return decodeDaily<SessionSummary>(body).premiumByMinute;
  } catch {
    return null;
  }
}

/**
 * Each ticker's premium by minute of the finished session `date`, or null when the session is
 * not built for every ticker: from the memo, a summary this process holds, or the daily store. A
 * stored summary is megabytes of rows for this one column, so its body is decoded in a compute
 * worker (`SUMMARY_PREMIUMS`, one task per session) and only the column kept.
 */
async function sessionPremiums(state: FlowState, tickers: readonly string[], date: string, nowMs: number, signal?: AbortSignal): Promise<ArrayLike<number>[] | null> {
  const out: (ArrayLike<number> | null)[] = [];
  const stored: number[] = [];
  const bodies: Uint8Array[] = [];
  const store = state.services.dailyStore;
  const slice = timeSlicer();
  for (const t of tickers) {
    const held = (state.memo.get(premiumKey(t, date)) as Float64Array | undefined) ?? (await heldSummary(state, t, date))?.premiumByMinute;
    if (held) {
      out.push(held);
      continue;
    }
    const body = store?.getEncoded?.(FLOW_SUMMARY, t, date);
    if (body === undefined) {
      // A stand-in store without bodies: its decoded value.
      const value = store && !store.getEncoded ? store.get<SessionSummary>(FLOW_SUMMARY, t, date)?.premiumByMinute : undefined;
      if (!value) return null;
      out.push(value);
      continue;
    }
    stored.push(out.length);
    bodies.push(body);
    out.push(null);
    await slice();
  }
  if (bodies.length > 0) {
    const inline = async () => {
      const decoded: (Float64Array | null)[] = [];
      for (const b of bodies) {
        decoded.push(decodedPremiums(b));
        await slice();
      }
      return decoded;
    };
    const task = { kind: SUMMARY_PREMIUMS, symbol: "*", session: date, bodies, nowMs } as const;
    const decoded = await computeOffLoop<(Float64Array | null)[]>(state.services.computePool, task, inline, signal);
    for (let j = 0; j < decoded.length; j++) {
      const p = decoded[j];
      if (!p) return null;
      out[stored[j]] = p;
      state.memo.set(premiumKey(tickers[stored[j]], date), p);
    }
  }
  return out as ArrayLike<number>[];
}

/**
 * Baseline premiums for `premiumRvol`: each of the trailing 20 sessions' premium through the same
 * time of day, over the same tickers, from the session summaries built or stored (building 20
 * market-wide sessions inside one request would pass its time limit: the daily fill builds them
 * in the background). @see docs/methodology.md#flow-session-summaries
 */
async function baselinePremiums(state: FlowState, tickers: readonly string[], date: string, elapsedMs: number, nowMs: number, signal?: AbortSignal): Promise<Baseline> {
  const minute = Math.floor(elapsedMs / 60_000);
  const first = addTradingDays(date, -PREMIUM_RVOL_LOOKBACK_SESSIONS);
  const sessions: string[] = [];
  for (let d = previousTradingDay(date); d >= first && d >= FLOW_FIRST_DATE; d = previousTradingDay(d)) sessions.push(d);
  const premiums: number[] = [];
  for (let i = 0; i < sessions.length; i += SESSIONS_AT_ONCE) {
    const batch = await Promise.all(sessions.slice(i, i + SESSIONS_AT_ONCE).map((d) => sessionPremiums(state, tickers, d, nowMs, signal)));
    for (const byTicker of batch) {
      if (!byTicker) continue;
      let sum = 0;
      for (const p of byTicker) sum += p[Math.min(minute, p.length - 1)];
      premiums.push(sum);
    }
  }
  return { wanted: sessions.length, premiums };
}

export const marketOverviewRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/market/overview",
  operationId: "getMarketOverview",
  cost: 3,
  query: MarketOverviewQuerySchema,
  symbolsOf: (q) => q.tickers ?? [],
  data: MarketOverviewSchema,
  summary: "Market-wide flow overview",
  description:
    "The current session so far across every ticker (or the listed ones): premium and volume by right, call/put ratio, bullish and " +
    "bearish premium, FIR, premium relative to the trailing 20-session baseline at the same time of day (null until that whole baseline " +
    "is built: `meta.baselineSessions` of `meta.baselineSessionsWanted`), and the top 10 tickers by premium.",
  tags: ["Market"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = currentFlowDate(nowMs);
    const tickers = q.tickers ? await resolveFlowTickers(state, q.tickers) : await scanTickers(state, principal);
    const summaries: SessionSummary[] = await summariesOf(state, tickers, date, nowMs, signal);
    const { openMs, closeMs } = sessionBounds(date);
    const elapsedMs = Math.min(closeMs, nowMs) - openMs;
    const { wanted, premiums } = await baselinePremiums(state, tickers, date, elapsedMs, nowMs, signal);
    // Only the whole baseline: a part of it would make the ratio depend on what this process has built.
    const complete = premiums.length === wanted;
    const data = marketOverview(
      date,
      summaries.map((s) => ({ ticker: s.ticker, trades: s.overviewTrades })),
      complete ? premiums : [],
    );
    return { data, meta: flowMeta(services, requestId, { baselineSessions: premiums.length, baselineSessionsWanted: wanted }) };
  },
});
