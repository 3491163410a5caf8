/**
 * Daily factors of one price path: overnight and intraday log returns, the conditional variance
 * (GJR-GARCH with jumps), earnings gaps, and the post-market level, for every session from
 * 2023-03-28 to the end of the calendar. Computed once per path owner and memoized.
 * @see docs/methodology.md#daily-returns
 */
import type { SymbolSpec } from "../universe";
import { simCalendar } from "./_calendar";
import { levelAnchors } from "./anchors";
import { macroEventsByDate } from "./macro-events";
import { hashText, key, normal, uniform } from "./_hash";
import { EARNINGS, EXTENDED, GARCH, JUMPS, OVERNIGHT_VARIANCE_SHARE, TREND } from "./params";

/** Earnings flag of a session: 0 none, released before this open, or after this close. */
export const EARN_BMO = 1;
export const EARN_AMC = 2;

/** The daily factors of one path owner (all arrays indexed by session). */
export interface DailyPath {
  ticker: string;
  n: number;
  /** Previous close before the first session (the reference price). */
  refPrice: number;
  open: Float64Array;
  close: Float64Array;
  /** Price at the end of the post-market session (20:00 ET). */
  postEnd: Float64Array;
  /** Log return previous close -> open, and open -> close. */
  retOn: Float64Array;
  retId: Float64Array;
  /** Conditional variance of the session's total log return (factor + own), per day. */
  hTotal: Float64Array;
  /** Conditional variance of the own (idiosyncratic) part, per day. */
  hOwn: Float64Array;
  /** Earnings flag per session (0 or EARN_*). */
  earn: Int8Array;
  /** Long-run daily variance of the total return. */
  longRunVar: number;
  /** Loading on the factor and the factor's path (null for the market). */
  beta: number;
  factor: DailyPath | null;
}

/** Stable 32-bit id of a ticker for the hash keys. */
export function symbolId(ticker: string): number {
  return hashText(ticker);
}

/**
 * Sd of a symbol's earnings gap (log return, decimal): the universe's per-name `earningsGapSd`,
 * else `EARNINGS.gapSdPerVol` times its long-run vol.
 * @example
 * earningsGapSd({ vol: 0.27 } as SymbolSpec); // 0.0405
 * @see docs/methodology.md#earnings-gaps
 */
export function earningsGapSd(spec: Pick<SymbolSpec, "vol" | "earningsGapSd">): number {
  return spec.earningsGapSd ?? EARNINGS.gapSdPerVol * spec.vol;
}

/** Trend growth of a symbol's reference path per year (equities only). */
function trendGrowth(spec: SymbolSpec): number {
  const equity =
    spec.type !== "etf" ||
    [
      "Multi-Sector",
      "Information Technology",
      "Financials",
      "Health Care",
      "Industrials",
      "Consumer Discretionary",
      "Consumer Staples",
      "Utilities",
      "Materials",
      "Real Estate",
      "Communication Services",
      "Energy",
    ].includes(spec.sector);
  return equity && spec.beta > 0 ? TREND.equityGrowth : 0;
}

/**
 * Builds the daily factors of a path owner (a symbol whose `family` is null).
 * @param earningsDays map session date -> "bmo" | "amc" (stocks; empty otherwise)
 */
export function computeDailyPath(seed: number, spec: SymbolSpec, factor: DailyPath | null, earningsDays: ReadonlyMap<string, "bmo" | "amc">): DailyPath {
  const cal = simCalendar();
  const n = cal.days.length;
  const id = symbolId(spec.ticker);
  const beta = factor ? spec.beta : 0;
  const longRunVar = (spec.vol * spec.vol) / 252;
  const factorVar = factor ? factor.longRunVar : 0;
  const ownVar = factor ? Math.max(longRunVar - beta * beta * factorVar, 0.09 * longRunVar) : longRunVar;
  const persistence = GARCH.alpha + GARCH.gamma / 2 + GARCH.beta;
  const phi = OVERNIGHT_VARIANCE_SHARE;
  const sqrtPhi = Math.sqrt(phi);
  const sqrtOneMinusPhi = Math.sqrt(1 - phi);
  const jumpRate = factor ? JUMPS.idioRate : JUMPS.marketRate;
  const jumpMean = factor ? JUMPS.idioMean : JUMPS.marketMean;
  const jumpSd = factor ? JUMPS.idioSd : JUMPS.marketSd;
  const gapSd = earningsGapSd(spec);
  const growthPerDay = trendGrowth(spec) / 252;
  const lnRef = Math.log(spec.refPrice);

  const p: DailyPath = {
    ticker: spec.ticker,
    n,
    refPrice: spec.refPrice,
    open: new Float64Array(n),
    close: new Float64Array(n),
    postEnd: new Float64Array(n),
    retOn: new Float64Array(n),
    retId: new Float64Array(n),
    hTotal: new Float64Array(n),
    hOwn: new Float64Array(n),
    earn: new Int8Array(n),
    longRunVar,
    beta,
    factor,
  };

  // Level anchors: session index -> ln close (and ln open on shock days).
  const anchors = levelAnchors(spec.ticker);
  const anchorClose = new Map<number, number>();
  const anchorOpen = new Map<number, number>();
  for (const a of anchors) {
    const i = cal.dayIndex.get(a.date);
    if (i === undefined) continue;
    anchorClose.set(i, Math.log(a.close));
    if (a.open !== undefined) anchorOpen.set(i, Math.log(a.open));
  }
  // Regime variance: the anchored realized vol of the interval a session falls in (SPX), else the
  // long-run own variance (docs/methodology.md#level-anchors).
  const regimeVar = new Float64Array(n).fill(ownVar);
  const rvAnchors = anchors.filter((x) => x.rv !== undefined && cal.dayIndex.has(x.date));
  for (let j = 0, from = 0; j < rvAnchors.length; j++) {
    const to = cal.dayIndex.get(rvAnchors[j].date)!;
    regimeVar.fill((rvAnchors[j].rv! * rvAnchors[j].rv!) / 252, from, to + 1);
    from = to + 1;
  }
  const nextAnchor = new Int32Array(n).fill(-1);
  for (let d = n - 1, next = -1; d >= 0; d--) {
    if (anchorClose.has(d)) next = d;
    nextAnchor[d] = next;
  }
  // After the last anchor the trend restarts from it.
  let trendBase = lnRef;
  let trendDay = 0;

  const macro = macroEventsByDate();
  let h = regimeVar[0];
  let lnPrev = lnRef;
  let pendingGap = 0; // an after-close release gaps the next session's open
  const lnFactorRef = factor ? Math.log(factor.refPrice) : 0;
  // ln factor close at the last anchor passed (the reference before any).
  let trendFactorBase = lnFactorRef;
  for (let d = 0; d < n; d++) {
    const k = key(seed, id, d, 0x0da1);
    const zOn = normal(k, 1);
    const zId = normal(k, 2);
    const sd = Math.sqrt(h);
    let jump = 0;
    let jumpOvernight = false;
    if (uniform(k, 3) < jumpRate) {
      jump = (jumpMean + jumpSd * normal(k, 4)) * sd;
      jumpOvernight = uniform(k, 5) < JUMPS.overnightShare;
    }
    const timing = earningsDays.get(cal.days[d]);
    let gap = pendingGap;
    pendingGap = 0;
    if (timing === "bmo") {
      p.earn[d] = EARN_BMO;
      gap += gapSd * normal(k, 6);
    } else if (timing === "amc") {
      p.earn[d] = EARN_AMC;
      pendingGap = gapSd * normal(k, 6);
    }
    const hTot = beta * beta * (factor ? factor.hTotal[d] : 0) + h;
    // Scheduled macro news moves the market on its day (before the open or during the session).
    let newsOn = 0;
    let newsId = 0;
    const events = factor ? undefined : macro.get(cal.days[d]);
    if (events) {
      for (let j = 0; j < events.length; j++) {
        const x = events[j].sd * normal(k, 10 + j);
        if (events[j].when === "pre") newsOn += x;
        else newsId += x;
      }
    }
    const ownOn = sd * sqrtPhi * zOn + (jumpOvernight ? jump : 0) + newsOn;
    const ownId = sd * sqrtOneMinusPhi * zId + (jumpOvernight ? 0 : jump) + newsId;
    let on: number;
    let intra: number;
    let shock: number;
    const a = nextAnchor[d];
    if (a >= 0 && factor) {
      // Names: the part the factor does not explain, x = ln P - beta ln F, is a Brownian bridge to
      // its value at the next anchor; the factor's own move passes through (docs/methodology.md#level-anchors).
      const N = a - d + 1;
      const s = Math.sqrt((N - 1) / N);
      const lnFPrev = d > 0 ? Math.log(factor.close[d - 1]) : lnFactorRef;
      const lnFA = Math.log(factor.close[a]);
      const xMove = (anchorClose.get(a)! - beta * lnFA - (lnPrev - beta * lnFPrev)) / N + s * (ownOn + ownId + gap);
      on = beta * factor.retOn[d] + ownOn + gap;
      intra = beta * factor.retId[d] + xMove - ownOn - gap;
      shock = xMove - s * (gap + newsOn + newsId);
      if (a === d) {
        trendBase = anchorClose.get(a)!;
        trendFactorBase = lnFA;
        trendDay = d;
      }
    } else if (a >= 0) {
      // Brownian bridge to the next anchor: the remaining distance spread over the remaining
      // sessions, the day's noise scaled by sqrt((N - 1) / N) (zero on the anchor day).
      const N = a - d + 1;
      const dist = anchorClose.get(a)! - lnPrev;
      const total = dist / N + Math.sqrt((N - 1) / N) * (ownOn + ownId);
      on = a === d && anchorOpen.has(d) ? anchorOpen.get(d)! - lnPrev : ownOn;
      intra = total - on;
      shock = total - growthPerDay - Math.sqrt((N - 1) / N) * (newsOn + newsId);
      if (a === d) {
        trendBase = anchorClose.get(a)!;
        trendDay = d;
      }
    } else {
      // Mean reversion toward the trend: the whole log price for the market and non-equities,
      // the part not explained by the factor for equities (they follow the factor through beta).
      const target =
        factor && growthPerDay > 0
          ? trendBase + beta * ((d > 0 ? Math.log(factor.close[d - 1]) : lnFactorRef) - trendFactorBase)
          : trendBase + growthPerDay * (d - trendDay);
      const drift = TREND.kappa * (target - lnPrev) - 0.5 * hTot;
      shock = ownOn + ownId - newsOn - newsId;
      on = (factor ? beta * factor.retOn[d] : 0) + ownOn + gap;
      intra = (factor ? beta * factor.retId[d] : 0) + ownId + drift;
    }
    p.retOn[d] = on;
    p.retId[d] = intra;
    p.hOwn[d] = h;
    p.hTotal[d] = hTot;
    p.open[d] = Math.exp(lnPrev + on);
    lnPrev += on + intra;
    p.close[d] = Math.exp(lnPrev);
    // GJR-GARCH update on the own shock (earnings gaps excluded: scheduled news does not cluster).
    const ga = shock < 0 ? GARCH.alpha + GARCH.gamma : GARCH.alpha;
    const vNext = regimeVar[Math.min(d + 1, n - 1)];
    h = vNext * (1 - persistence) + ga * shock * shock + GARCH.beta * h;
    h = Math.min(Math.max(h, GARCH.minRatio * vNext), GARCH.maxRatio * vNext);
  }
  for (let d = 0; d < n; d++) {
    const share = p.earn[d] === EARN_AMC ? EARNINGS.postMarketShare : EXTENDED.postMarketShare;
    p.postEnd[d] = d + 1 < n ? p.close[d] * Math.exp(share * p.retOn[d + 1]) : p.close[d];
  }
  return p;
}
