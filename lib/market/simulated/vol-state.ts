/**
 * Implied volatility as its own state: the short end of a path owner's surface is a daily
 * process in ln vol that mean-reverts toward a level set by the conditional variance (so it
 * follows realized clustering), reacts to spot through a spot-vol beta (overnight gaps included),
 * and carries its own vol-of-vol noise; within a session it moves with spot and a pinned noise
 * bridge from the previous close's level to this close's. Scheduled events (earnings, FOMC, CPI,
 * the 2024 election) add their variance to every expiration that settles after them.
 * @see docs/methodology.md#implied-volatility-state
 */
import type { SymbolSpec } from "../universe";
import { simCalendar } from "./_calendar";
import { levelAnchors } from "./anchors";
import { key, normal } from "./_hash";
import { EARN_AMC, EARN_BMO, earningsGapSd, symbolId, type DailyPath } from "./daily-path";
import { macroEvents } from "./macro-events";
import { IV_STATE, SKEW, SURFACE } from "./params";

/** Base SSVI rho of single names with their own skew (others: `SKEW.stockDefault`). */
const STOCK_SKEW_RHO: Readonly<Record<string, number>> = {
  AAPL: -0.12,
  MSFT: -0.15,
  GOOGL: -0.15,
  AMZN: -0.14,
  META: -0.12,
  NVDA: -0.07,
  AMD: -0.1,
  AVGO: -0.12,
  TSLA: -0.07,
  PLTR: -0.08,
  MSTR: -0.06,
  COIN: -0.08,
  SMCI: -0.08,
  HOOD: -0.1,
  SOFI: -0.1,
  MARA: -0.06,
  RIVN: -0.12,
  NIO: -0.1,
  SHOP: -0.12,
  NFLX: -0.12,
  JPM: -0.28,
  BAC: -0.28,
  KO: -0.3,
  PG: -0.3,
  JNJ: -0.3,
  XOM: -0.25,
};

/**
 * Short implied vol at the long-run variance (decimal) of owners whose implied level is not
 * `IV_STATE.shortLevel x vol`: the S&P 500's (its 30-day ATM implied runs a few points above the
 * realized vol of ordinary days, the variance risk premium).
 * @see docs/methodology.md#implied-volatility-state
 */
const IMPLIED_LEVEL: Readonly<Record<string, number>> = { SPX: 0.135 };

/**
 * Quiet-regime floor of the short implied vol (decimal): the VIX did not close below about 12
 * in the window (11.86 in July 2024), however calm the tape. @see docs/methodology.md#implied-volatility-state
 */
const QUIET_FLOOR: Readonly<Record<string, number>> = { SPX: 0.1 };

/** The implied-vol state of one path owner, by session. */
export interface VolState {
  /** ln short implied vol at each session's close. */
  y: Float64Array;
  /** The session's change of ln short vol that does not come from spot (pull + noise). */
  delta: Float64Array;
  /** ln short vol before the first session. */
  y0: number;
  /** ln short vol target at the long-run variance, and the clamp bounds. */
  yBar: number;
  yMin: number;
  yMax: number;
  /** d ln vol / d ln spot, for spot below and above the previous close. */
  spotBetaDown: number;
  spotBetaUp: number;
  /** ln long implied vol at y = yBar. */
  lnLong: number;
  /** SSVI rho per session and eta. */
  rho: Float64Array;
  eta: number;
  /** Event releases (ms, ascending) and the cumulative variance before each (length n + 1). */
  eventMs: Float64Array;
  eventCumVar: Float64Array;
  seed: number;
  id: number;
}

/** Factor loading of an owner on the S&P 500 (through NDX or SOXX where that is its factor). */
function marketBeta(daily: DailyPath): number {
  let b = 1;
  for (let p: DailyPath | null = daily; p?.factor; p = p.factor) b *= p.beta;
  return b;
}

/**
 * Builds the state of a path owner from its daily factors.
 * @see docs/methodology.md#implied-volatility-state
 */
export function computeVolState(seed: number, spec: SymbolSpec, daily: DailyPath): VolState {
  const cal = simCalendar();
  const n = daily.n;
  const isIndexLike = spec.type !== "stock";
  const S = IV_STATE;
  const yBar = Math.log(IMPLIED_LEVEL[spec.ticker] ?? S.shortLevel * spec.vol);
  const spotBetaDown = isIndexLike ? S.spotBetaIndexDown : S.spotBetaStockDown;
  const spotBetaUp = isIndexLike ? S.spotBetaIndexUp : S.spotBetaStockUp;
  const noise = isIndexLike ? S.noiseIndex : S.noiseStock;
  const id = symbolId(spec.ticker);
  const y = new Float64Array(n);
  const delta = new Float64Array(n);
  const rho = new Float64Array(n);
  const yMin = Math.log(Math.max(S.minRatio * spec.vol, QUIET_FLOOR[spec.ticker] ?? 0));
  const yMax = Math.log(S.maxRatio * spec.vol);
  const target = (d: number) => yBar + 0.5 * S.psi * Math.log(daily.hTotal[Math.min(d, n - 1)] / daily.longRunVar);
  const y0 = target(0);
  let prev = y0;
  let prevClose = daily.refPrice;
  const rhoBase = isIndexLike ? SURFACE.rhoIndex : (STOCK_SKEW_RHO[spec.ticker] ?? SKEW.stockDefault);
  let wander = normal(key(seed, id, 0, 0x5c3e), 0);
  const persist = SKEW.wanderPersistence;
  const shocks = new Map<number, number>();
  for (const a of levelAnchors(spec.ticker)) if (a.volShock) shocks.set(cal.dayIndex.get(a.date) ?? -1, a.volShock);
  for (let d = 0; d < n; d++) {
    const k = key(seed, id, d, 0x1f01);
    const dl = S.kappa * (target(d + 1) - prev) + noise * normal(k, 1) + (shocks.get(d) ?? 0);
    const r = Math.log(daily.close[d] / prevClose);
    const v = Math.min(Math.max(prev + dl + (r < 0 ? spotBetaDown : spotBetaUp) * r, yMin), yMax);
    delta[d] = dl;
    y[d] = v;
    prev = v;
    prevClose = daily.close[d];
    if (isIndexLike) rho[d] = rhoBase;
    else {
      wander = persist * wander + Math.sqrt(1 - persist * persist) * normal(k, 2);
      rho[d] = Math.min(Math.max(rhoBase + SKEW.wanderSd * wander, SKEW.min), SKEW.max);
    }
  }

  // Scheduled events: earnings (own gap variance) and macro news (through the market beta).
  const ev: { ms: number; v: number }[] = [];
  const bm = marketBeta(daily);
  for (const e of macroEvents()) ev.push({ ms: e.releaseMs, v: (bm * e.sd) ** 2 });
  if (spec.type === "stock") {
    const g2 = earningsGapSd(spec) ** 2;
    for (let d = 0; d < n; d++) {
      if (daily.earn[d] === EARN_BMO) ev.push({ ms: cal.regOpen[d] - 1, v: g2 });
      else if (daily.earn[d] === EARN_AMC) ev.push({ ms: cal.regClose[d] + 1, v: g2 });
    }
  }
  ev.sort((a, b) => a.ms - b.ms);
  const eventMs = Float64Array.from(ev, (e) => e.ms);
  const eventCumVar = new Float64Array(ev.length + 1);
  for (let i = 0; i < ev.length; i++) eventCumVar[i + 1] = eventCumVar[i] + ev[i].v;

  return {
    y,
    delta,
    y0,
    yBar,
    yMin,
    yMax,
    spotBetaDown,
    spotBetaUp,
    lnLong: yBar + Math.log(S.longLevel / S.shortLevel),
    rho,
    eta: isIndexLike ? SURFACE.etaIndex : SURFACE.etaStock,
    eventMs,
    eventCumVar,
    seed,
    id,
  };
}

/** Number of event releases at or before `ms`. */
function countUpTo(ms: Float64Array, t: number): number {
  let lo = 0;
  let hi = ms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ms[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Event variance released in `(fromMs, toMs]` (per unit of total variance, decimal^2). */
export function eventVarianceBetween(s: VolState, fromMs: number, toMs: number): number {
  if (!(toMs > fromMs)) return 0;
  return s.eventCumVar[countUpTo(s.eventMs, toMs)] - s.eventCumVar[countUpTo(s.eventMs, fromMs)];
}

/** The surface's short and long variance (per year), rho and eta at one instant. */
export interface SurfaceLevel {
  vShort: number;
  vLong: number;
  rho: number;
  eta: number;
}

/**
 * Short/long implied variance of session `d` at elapsed fraction `frac` of its regular session,
 * with spot `lnSpotMove = ln(S / previous close)` (owner units).
 * @see docs/methodology.md#implied-volatility-state
 */
export function surfaceLevel(s: VolState, d: number, frac: number, lnSpotMove: number): SurfaceLevel {
  const prev = d > 0 ? s.y[d - 1] : s.y0;
  let b = 0;
  if (frac > 0 && frac < 1) {
    // Brownian bridge in ln vol, pinned at the open and the close (Karhunen-Loeve, 6 terms), sd ~ intradayNoise mid-session.
    const k = key(s.seed, s.id, d, 0x1f02);
    for (let j = 1; j <= 6; j++) b += (Math.sin(j * Math.PI * frac) / (j * Math.PI)) * normal(k, j);
    b *= 2 * Math.SQRT2 * IV_STATE.intradayNoise;
  }
  const beta = lnSpotMove < 0 ? s.spotBetaDown : s.spotBetaUp;
  const y = Math.min(Math.max(prev + frac * s.delta[d] + beta * lnSpotMove + b, s.yMin), s.yMax);
  const lnLong = s.lnLong + IV_STATE.longBeta * (y - s.yBar);
  return { vShort: Math.exp(2 * y), vLong: Math.exp(2 * lnLong), rho: s.rho[d], eta: s.eta };
}
