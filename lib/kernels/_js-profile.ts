// JS profile kernel, mirroring assembly/profile.ts: hoisted spot-free terms, and two
// accumulators (even / odd hoisted rows) like the two SIMD lanes, so both engines sum in the same order.
import type { ResolvedParams } from "./_validate";
import type { ProfileColumns, ProfileMetric } from "./types";

const INV_SQRT_2PI = 0.3989422804014327;
const SCALE_PER_PCT = 100 * 0.01;

/**
 * Total gamma or vanna exposure at each spot level.
 * @see docs/methodology.md#profile-kernel
 */
export function jsProfile(c: ProfileColumns, p: ResolvedParams, spots: Float64Array, metric: ProfileMetric): Float64Array {
  const { strike, tYears, iv: ivs, oi: ois, right } = c;
  const { spot, callSign, putSign } = p;
  const vanna = metric === "vanna";
  const n = strike.length;
  const a = new Float64Array(n + 1);
  const b = new Float64Array(n + 1);
  const e = new Float64Array(n + 1);
  const w = new Float64Array(n + 1);
  const s = new Float64Array(n + 1);
  const rMinusQ = p.rate - p.q;
  const negQ = -p.q;
  // A contract with the same strike, tYears and iv as the previous one (a call/put pair quoted at
  // one vol) has the same Gaussian, so it only adds its signed weight to that row.
  let m = 0;
  let prevK = NaN;
  let prevT = NaN;
  let prevIv = NaN;
  for (let i = 0; i < n; i++) {
    const k = strike[i];
    const t = tYears[i];
    const iv = ivs[i];
    const oi = ois[i];
    if (!(k > 0 && t > 0 && iv > 0 && oi > 0)) continue;
    const sqrtT = Math.sqrt(t);
    const sst = iv * sqrtT;
    const rs = 1 / sst;
    const so = (right[i] !== 0 ? callSign : putSign) * oi;
    const wi = vanna ? so * (rs * sqrtT) : so * rs;
    if (k === prevK && t === prevT && iv === prevIv) {
      w[m - 1] += wi;
      continue;
    }
    prevK = k;
    prevT = t;
    prevIv = iv;
    a[m] = Math.log(spot / k) + (rMinusQ + 0.5 * iv * iv) * t;
    b[m] = rs;
    e[m] = negQ * t;
    w[m] = wi;
    s[m] = sst;
    m++;
  }
  const scale = INV_SQRT_2PI * SCALE_PER_PCT;
  const out = new Float64Array(spots.length);
  for (let j = 0; j < spots.length; j++) {
    const lnShift = Math.log(spots[j] / spot);
    let acc0 = 0;
    let acc1 = 0;
    let i = 0;
    if (vanna) {
      for (; i + 1 < m; i += 2) {
        const d1a = (lnShift + a[i]) * b[i];
        const d1b = (lnShift + a[i + 1]) * b[i + 1];
        acc0 += w[i] * Math.exp(e[i] - 0.5 * d1a * d1a) * (s[i] - d1a);
        acc1 += w[i + 1] * Math.exp(e[i + 1] - 0.5 * d1b * d1b) * (s[i + 1] - d1b);
      }
      if (i < m) {
        const d1 = (lnShift + a[i]) * b[i];
        acc0 += w[i] * Math.exp(e[i] - 0.5 * d1 * d1) * (s[i] - d1);
      }
    } else {
      for (; i + 1 < m; i += 2) {
        const d1a = (lnShift + a[i]) * b[i];
        const d1b = (lnShift + a[i + 1]) * b[i + 1];
        acc0 += w[i] * Math.exp(e[i] - 0.5 * d1a * d1a);
        acc1 += w[i + 1] * Math.exp(e[i + 1] - 0.5 * d1b * d1b);
      }
      if (i < m) {
        const d1 = (lnShift + a[i]) * b[i];
        acc0 += w[i] * Math.exp(e[i] - 0.5 * d1 * d1);
      }
    }
    out[j] = scale * spots[j] * (acc0 + acc1);
  }
  return out;
}
