/**
 * One-minute bars of a symbol: OHLC from its path owner's minute path (wicks from per-minute
 * noise), share volume on a U-shaped curve scaled by the day's volatility and news, split into
 * buyer-, seller-initiated and unclassified volume by the minute's return. Indices carry zero
 * volume (they do not trade).
 * @see docs/methodology.md#minute-bars
 */
import type { MinuteBars, OhlcvColumns, SidedVolumeColumns } from "../market-data";
import type { SymbolSpec } from "../universe";
import { simCalendar } from "./_calendar";
import { key, normal, uniform } from "./_hash";
import { EARN_AMC, EARN_BMO, symbolId } from "./daily-path";
import type { SimEngine } from "./engine";
import { volumeWeights } from "./intraday-shapes";
import { EXTENDED, INTRADAY } from "./params";

/** All bars of one extended session (04:00-20:00 ET), columnar; bar i starts at `t0Ms + i` minutes. */
export interface DayBars extends Omit<OhlcvColumns, "t">, SidedVolumeColumns {
  t0Ms: number;
  nPre: number;
  nReg: number;
  nPost: number;
}

const MINUTE_MS = 60_000;

/** Builds every bar of session `d` for `spec`. */
export function computeDayBars(engine: SimEngine, spec: SymbolSpec, d: number): DayBars {
  const cal = simCalendar();
  const owner = engine.owner(spec);
  const path = engine.intradayPath(owner.ticker, d);
  const daily = engine.dailyPath(owner.ticker);
  const ratio = engine.ratio(spec);
  const { nPre, nReg, nPost, ln, minuteSd } = path;
  const n = nPre + nReg + nPost;
  const bars: DayBars = {
    t0Ms: cal.extOpen[d],
    nPre,
    nReg,
    nPost,
    o: new Float64Array(n),
    h: new Float64Array(n),
    l: new Float64Array(n),
    c: new Float64Array(n),
    v: new Float64Array(n),
    bv: new Float64Array(n),
    sv: new Float64Array(n),
    uv: new Float64Array(n),
  };
  const wickKey = key(engine.seed, symbolId(owner.ticker), d, 0xb1c0);
  const volKey = key(engine.seed, symbolId(spec.ticker), d, 0xb01e);
  const I = INTRADAY;
  let prev = Math.round(ratio * Math.exp(ln[0]) * 100) / 100;
  for (let j = 0; j < n; j++) {
    const o = prev;
    const c = Math.round(ratio * Math.exp(ln[j + 1]) * 100) / 100;
    const s = minuteSd[j];
    const up = Math.exp(I.wickScale * s * Math.abs(normal(wickKey, 2 * j)));
    const down = Math.exp(-I.wickScale * s * Math.abs(normal(wickKey, 2 * j + 1)));
    bars.o[j] = o;
    bars.c[j] = c;
    bars.h[j] = Math.max(Math.round(Math.max(o, c) * up * 100) / 100, o, c);
    bars.l[j] = Math.min(Math.round(Math.min(o, c) * down * 100) / 100, o, c);
    prev = c;
  }
  if (spec.advShares <= 0) return bars;

  // The day's share volume: average volume x vol state x noise x news.
  const hRatio = daily.hTotal[d] / daily.longRunVar;
  const news = daily.earn[d] === EARN_BMO || (d > 0 && daily.earn[d - 1] === EARN_AMC) ? 3 : 1;
  const dayVolume =
    spec.advShares *
    Math.min(Math.max(Math.sqrt(hRatio), 0.6), 2.5) *
    Math.exp(I.dayVolumeNoiseSd * normal(volKey, 1_000_000) - 0.5 * I.dayVolumeNoiseSd * I.dayVolumeNoiseSd) *
    news;
  const regW = volumeWeights(nReg);
  const postNews = daily.earn[d] === EARN_AMC ? 4 : 1;
  const sdN = I.volNoiseSd;
  const regShare = 1 - EXTENDED.preVolumeShare - EXTENDED.postVolumeShare;
  const continuous = 1 - I.openingAuctionShare - I.closingAuctionShare;
  const sdA = I.auctionNoiseSd;
  for (let j = 0; j < n; j++) {
    let base: number;
    let auction = 0;
    if (j < nPre) base = (dayVolume * EXTENDED.preVolumeShare * (news > 1 ? 2 : 1)) / nPre;
    else if (j < nPre + nReg) {
      // Continuous trading on the U-shaped curve; the opening and closing crosses print in the
      // first and last regular bar.
      base = dayVolume * regShare * continuous * regW[j - nPre];
      if (j === nPre) auction = dayVolume * regShare * I.openingAuctionShare;
      if (j === nPre + nReg - 1) auction = dayVolume * regShare * I.closingAuctionShare;
    } else base = (dayVolume * EXTENDED.postVolumeShare * postNews) / nPost;
    const r = Math.log(bars.c[j] / bars.o[j]);
    const s = minuteSd[j] > 0 ? minuteSd[j] : 1e-9;
    const activity = 0.7 + 0.3 * Math.min(Math.abs(r) / s / 0.798, 4);
    const cross = auction > 0 ? auction * Math.exp(sdA * normal(volKey, 3_000_000 + j) - 0.5 * sdA * sdA) : 0;
    const v = Math.round(base * activity * Math.exp(sdN * normal(volKey, j) - 0.5 * sdN * sdN) + cross);
    const uv = Math.round(v * (I.unclassifiedMin + I.unclassifiedSpan * uniform(volKey, 2_000_000 + j)));
    const buyShare = 0.5 + 0.35 * Math.tanh(r / s);
    const bv = Math.round((v - uv) * buyShare);
    bars.v[j] = v;
    bars.uv[j] = uv;
    bars.bv[j] = bv;
    bars.sv[j] = v - uv - bv;
  }
  return bars;
}

/** An empty bar set. */
export function emptyBars(ticker: string, extended: boolean): MinuteBars {
  const z = () => new Float64Array(0);
  return { ticker, extended, simulated: true, t: z(), o: z(), h: z(), l: z(), c: z(), v: z(), bv: z(), sv: z(), uv: z() };
}

/** Concatenates slices [from, to) of day bars into one columnar result. */
export function sliceBars(ticker: string, extended: boolean, parts: { bars: DayBars; from: number; to: number }[]): MinuteBars {
  let total = 0;
  for (const p of parts) total += p.to - p.from;
  const out = emptyBars(ticker, extended);
  const cols = ["o", "h", "l", "c", "v", "bv", "sv", "uv"] as const;
  out.t = new Float64Array(total);
  for (const c of cols) out[c] = new Float64Array(total);
  let at = 0;
  for (const { bars, from, to } of parts) {
    for (let j = from; j < to; j++) out.t[at + j - from] = bars.t0Ms + j * MINUTE_MS;
    for (const c of cols) out[c].set(bars[c].subarray(from, to), at);
    at += to - from;
  }
  return out;
}
