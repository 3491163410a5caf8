/**
 * The minute-by-minute path of one path owner over one extended session (04:00-20:00 ET):
 * Brownian bridges pinned to the day's open, close and post-market level, with U-shaped
 * intraday variance, the factor's intraday noise for correlated symbols, and news minutes for
 * earnings released outside the regular session.
 * @see docs/methodology.md#intraday-paths
 */
import { simCalendar } from "./_calendar";
import { key, normal } from "./_hash";
import { EARN_AMC, EARN_BMO, symbolId, type DailyPath } from "./daily-path";
import { extendedWeights, varianceWeights } from "./intraday-shapes";
import { EARNINGS, EXTENDED, OVERNIGHT_VARIANCE_SHARE } from "./params";

const MINUTE_MS = 60_000;
/** Minute of the pre-market session (from 04:00) at which a before-open release hits: 07:00. */
const BMO_NEWS_MINUTE = 180;
/** Minute of the post-market session (from the close) at which an after-close release hits. */
const AMC_NEWS_MINUTE = 5;

/** One session's path: log prices at minute boundaries from the extended open. */
export interface IntradayPath {
  /** Minutes before the regular open, in the regular session, and after the regular close. */
  nPre: number;
  nReg: number;
  nPost: number;
  /** ln price at boundary k (k = 0 at the extended open; nPre + nReg + nPost + 1 values). */
  ln: Float64Array;
  /** Diffusive sd of each minute's log return (nPre + nReg + nPost values). */
  minuteSd: Float64Array;
  /** Zero-endpoint noise of the regular session (nReg + 1 values), shared with dependents. */
  regNoise: Float64Array;
}

/** Adds a pinned bridge a -> b over weights w (sum = length) with total noise variance v. */
function bridge(
  ln: Float64Array,
  sdOut: Float64Array,
  at: number,
  w: Float64Array,
  a: number,
  b: number,
  v: number,
  base: number,
  noiseOut: Float64Array | null,
  extra: Float64Array | null,
  extraScale: number,
  sdVar: number,
): void {
  const n = w.length;
  const unit = v / n;
  const sdUnit = sdVar / n;
  // Unpinned walk first, then pin it: B_k = W_k - c_k W_n.
  let walk = 0;
  let cum = 0;
  ln[at] = 0;
  for (let j = 0; j < n; j++) {
    walk += Math.sqrt(unit * w[j]) * normal(base, j);
    ln[at + j + 1] = walk;
    sdOut[at + j] = Math.sqrt(sdUnit * w[j]);
  }
  const end = walk;
  const drift = b - a;
  for (let j = 0; j <= n; j++) {
    const c = cum / n;
    if (j < n) cum += w[j];
    let noise = ln[at + j] - c * end;
    if (extra) noise += extraScale * extra[j];
    if (noiseOut) noiseOut[j] = noise;
    ln[at + j] = a + c * drift + noise;
  }
  // Pin exactly (rounding in c would leave ~1e-16 off).
  ln[at + n] = b;
  if (noiseOut) noiseOut[n] = 0;
}

/**
 * Builds the path of session `d` for a path owner.
 * @param factorNoise the factor's `regNoise` for the same session (null for the market)
 */
export function computeIntradayPath(seed: number, daily: DailyPath, d: number, factorNoise: Float64Array | null): IntradayPath {
  const cal = simCalendar();
  const nPre = Math.round((cal.regOpen[d] - cal.extOpen[d]) / MINUTE_MS);
  const nReg = Math.round((cal.regClose[d] - cal.regOpen[d]) / MINUTE_MS);
  const nPost = Math.round((cal.extClose[d] - cal.regClose[d]) / MINUTE_MS);
  const total = nPre + nReg + nPost;
  const ln = new Float64Array(total + 1);
  const minuteSd = new Float64Array(total);
  const regNoise = new Float64Array(nReg + 1);
  const id = symbolId(daily.ticker);
  const hTot = daily.hTotal[d];
  const phi = OVERNIGHT_VARIANCE_SHARE;

  const prevLevel = d > 0 ? daily.postEnd[d - 1] : daily.refPrice;
  const preW = extendedWeights(nPre, daily.earn[d] === EARN_BMO ? BMO_NEWS_MINUTE : -1, 0.75);
  const preVar = EXTENDED.preVarianceShare * hTot;
  bridge(ln, minuteSd, 0, preW, Math.log(prevLevel), Math.log(daily.open[d]), preVar, key(seed, id, d, 0x1d02), null, null, 0, preVar);

  const regW = varianceWeights(nReg);
  const lnOpen = Math.log(daily.open[d]);
  bridge(
    ln,
    minuteSd,
    nPre,
    regW,
    lnOpen,
    lnOpen + daily.retId[d],
    daily.hOwn[d] * (1 - phi),
    key(seed, id, d, 0x1d01),
    regNoise,
    factorNoise,
    daily.beta,
    hTot * (1 - phi),
  );

  const postW = extendedWeights(nPost, daily.earn[d] === EARN_AMC ? AMC_NEWS_MINUTE : -1, EARNINGS.postMarketShare);
  const postVar = EXTENDED.postVarianceShare * hTot;
  bridge(ln, minuteSd, nPre + nReg, postW, Math.log(daily.close[d]), Math.log(daily.postEnd[d]), postVar, key(seed, id, d, 0x1d03), null, null, 0, postVar);
  return { nPre, nReg, nPost, ln, minuteSd, regNoise };
}
