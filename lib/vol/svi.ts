import type { Smile } from "./smile-quantiles";

/** Raw SVI parameters: `w(k) = a + b (rho (k - m) + sqrt((k - m)^2 + sigma^2))`, `k = ln(K/F)`. */
export interface SviParams {
  a: number;
  b: number;
  rho: number;
  m: number;
  sigma: number;
}

/** A fitted smile and its checks. */
export interface SviFit {
  params: SviParams;
  tYears: number;
  /** Quotes fitted. */
  n: number;
  /** Root-mean-square IV error of the fit over the quotes, decimal. */
  rmseIv: number;
  /** `b >= 0`, `|rho| < 1`, `sigma > 0`, `a + b sigma sqrt(1 - rho^2) >= 0` (non-negative variance). */
  paramsOk: boolean;
  /** Smallest Durrleman `g(k)` on the check grid; `>= 0` means no butterfly arbitrage there. */
  minG: number;
  butterflyOk: boolean;
}

/** Total variance of an SVI slice at log-moneyness `k`. */
export function sviTotalVariance(p: SviParams, k: number): number {
  const x = k - p.m;
  return p.a + p.b * (p.rho * x + Math.sqrt(x * x + p.sigma * p.sigma));
}

/**
 * Durrleman's butterfly condition of a slice, `g(k) = (1 - k w'/(2w))^2 - (w'^2/4)(1/w + 1/4) + w''/2`;
 * a slice is free of butterfly arbitrage where `g >= 0` (Gatheral & Jacquier 2014).
 *
 * @see docs/methodology.md#smile-fit
 */
export function sviDurrlemanG(p: SviParams, k: number): number {
  const x = k - p.m;
  const r = Math.sqrt(x * x + p.sigma * p.sigma);
  const w = sviTotalVariance(p, k);
  const w1 = p.b * (p.rho + x / r);
  const w2 = (p.b * p.sigma * p.sigma) / (r * r * r);
  const t = 1 - (k * w1) / (2 * w);
  return t * t - ((w1 * w1) / 4) * (1 / w + 0.25) + w2 / 2;
}

/** Least squares of `w = a + d y + c sqrt(y^2 + 1)` for fixed `(m, sigma)` (3x3 normal equations). */
function innerFit(k: Float64Array, w: Float64Array, m: number, sigma: number): { p: SviParams; sse: number } {
  let s11 = 0,
    s12 = 0,
    s13 = 0,
    s22 = 0,
    s23 = 0,
    s33 = 0,
    r1 = 0,
    r2 = 0,
    r3 = 0;
  const n = k.length;
  for (let i = 0; i < n; i++) {
    const y = (k[i] - m) / sigma;
    const z = Math.sqrt(y * y + 1);
    s11 += 1;
    s12 += y;
    s13 += z;
    s22 += y * y;
    s23 += y * z;
    s33 += z * z;
    r1 += w[i];
    r2 += y * w[i];
    r3 += z * w[i];
  }
  // Cramer's rule on the symmetric system.
  const det = s11 * (s22 * s33 - s23 * s23) - s12 * (s12 * s33 - s23 * s13) + s13 * (s12 * s23 - s22 * s13);
  const a = (r1 * (s22 * s33 - s23 * s23) - s12 * (r2 * s33 - s23 * r3) + s13 * (r2 * s23 - s22 * r3)) / det;
  const d = (s11 * (r2 * s33 - s23 * r3) - r1 * (s12 * s33 - s23 * s13) + s13 * (s12 * r3 - r2 * s13)) / det;
  const c = (s11 * (s22 * r3 - r2 * s23) - s12 * (s12 * r3 - r2 * s13) + r1 * (s12 * s23 - s22 * s13)) / det;
  const b = c / sigma;
  const p: SviParams = { a, b, rho: c !== 0 ? d / c : 0, m, sigma };
  let sse = 0;
  for (let i = 0; i < n; i++) {
    const e = sviTotalVariance(p, k[i]) - w[i];
    sse += e * e;
  }
  if (!Number.isFinite(sse) || !(b >= 0) || !(Math.abs(p.rho) < 1)) sse = Infinity;
  return { p, sse };
}

/** Nelder-Mead on two variables. */
function nelderMead2(f: (x: number, y: number) => number, x0: number, y0: number, step: number, iterations: number): [number, number] {
  let pts: [number, number, number][] = [
    [x0, y0, f(x0, y0)],
    [x0 + step, y0, f(x0 + step, y0)],
    [x0, y0 + step, f(x0, y0 + step)],
  ];
  for (let it = 0; it < iterations; it++) {
    pts.sort((p, q) => p[2] - q[2]);
    const [b, g, w] = pts;
    const size = Math.max(Math.abs(w[0] - b[0]), Math.abs(w[1] - b[1]), Math.abs(g[0] - b[0]), Math.abs(g[1] - b[1]));
    if (size < 1e-9 || w[2] - b[2] <= 1e-14 * Math.abs(b[2]) + 1e-32) break;
    const cx = (b[0] + g[0]) / 2;
    const cy = (b[1] + g[1]) / 2;
    const r: [number, number, number] = [2 * cx - w[0], 2 * cy - w[1], 0];
    r[2] = f(r[0], r[1]);
    if (r[2] < b[2]) {
      const e: [number, number, number] = [3 * cx - 2 * w[0], 3 * cy - 2 * w[1], 0];
      e[2] = f(e[0], e[1]);
      pts = [b, g, e[2] < r[2] ? e : r];
    } else if (r[2] < g[2]) {
      pts = [b, g, r];
    } else {
      const c: [number, number, number] = [(cx + w[0]) / 2, (cy + w[1]) / 2, 0];
      c[2] = f(c[0], c[1]);
      if (c[2] < w[2]) pts = [b, g, c];
      else
        pts = [
          b,
          [(b[0] + g[0]) / 2, (b[1] + g[1]) / 2, f((b[0] + g[0]) / 2, (b[1] + g[1]) / 2)],
          [(b[0] + w[0]) / 2, (b[1] + w[1]) / 2, f((b[0] + w[0]) / 2, (b[1] + w[1]) / 2)],
        ];
    }
  }
  pts.sort((p, q) => p[2] - q[2]);
  return [pts[0][0], pts[0][1]];
}

/**
 * Fits a raw SVI slice to a smile's total variance `w = iv^2 T` in `k = ln(K/F)` by least squares,
 * quasi-explicitly: for fixed `(m, sigma)` the slice is linear in `(a, rho b sigma, b sigma)`
 * (solved exactly), and `(m, ln sigma)` are searched by Nelder-Mead (at most 400 iterations, until
 * the simplex is below 1e-9 or flat) from the
 * quote with the smallest variance. Then the checks: parameter bounds and Durrleman's `g(k) >= 0`
 * on 201 points over `[2 k_min, 2 k_max]` (the quoted range and as much again beyond it).
 * Null with fewer than 5 quotes.
 *
 * @example fitSvi(expirationSmile(chain, j, forward, tYears))?.butterflyOk
 * @see docs/methodology.md#smile-fit
 */
export function fitSvi(smile: Smile): SviFit | null {
  const n = smile.strike.length;
  if (n < 5) return null;
  const k = new Float64Array(n);
  const w = new Float64Array(n);
  let iMin = 0;
  for (let i = 0; i < n; i++) {
    k[i] = Math.log(smile.strike[i] / smile.forward);
    w[i] = smile.ivDecimal[i] * smile.ivDecimal[i] * smile.tYears;
    if (w[i] < w[iMin]) iMin = i;
  }
  const span = k[n - 1] - k[0];
  const f = (m: number, ls: number) => innerFit(k, w, m, Math.exp(ls)).sse;
  const [m, ls] = nelderMead2(f, k[iMin], Math.log(Math.max(span / 10, 1e-4)), Math.max(span / 10, 1e-3), 400);
  const { p } = innerFit(k, w, m, Math.exp(ls));
  let se = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.sqrt(Math.max(sviTotalVariance(p, k[i]), 0) / smile.tYears) - smile.ivDecimal[i];
    se += e * e;
  }
  const paramsOk = p.b >= 0 && Math.abs(p.rho) < 1 && p.sigma > 0 && p.a + p.b * p.sigma * Math.sqrt(1 - p.rho * p.rho) >= 0;
  let minG = Infinity;
  const lo = 2 * Math.min(k[0], 0);
  const hi = 2 * Math.max(k[n - 1], 0);
  for (let j = 0; j <= 200; j++) minG = Math.min(minG, sviDurrlemanG(p, lo + ((hi - lo) * j) / 200));
  return { params: p, tYears: smile.tYears, n, rmseIv: Math.sqrt(se / n), paramsOk, minG, butterflyOk: paramsOk && minG >= 0 };
}

/**
 * Calendar check between two fitted slices (`earlier.tYears < later.tYears`): total variance must
 * not decrease with maturity at any `k`. Returns the smallest `w_later(k) - w_earlier(k)` on 201
 * points over `[-kAbs, kAbs]`; `>= 0` means no calendar arbitrage there.
 *
 * @see docs/methodology.md#smile-fit
 */
export function sviCalendarGap(earlier: SviParams, later: SviParams, kAbs: number = 0.5): number {
  let min = Infinity;
  for (let j = 0; j <= 200; j++) {
    const k = -kAbs + (2 * kAbs * j) / 200;
    min = Math.min(min, sviTotalVariance(later, k) - sviTotalVariance(earlier, k));
  }
  return min;
}
