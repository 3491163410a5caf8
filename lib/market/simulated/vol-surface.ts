/**
 * The implied-volatility surface: an SSVI smile (Gatheral-Jacquier) in forward log-moneyness over
 * an ATM total-variance term structure that mean-reverts from the short variance (the symbol's
 * conditional variance, moved by spot within the session) to the long-run level.
 * @see docs/methodology.md#implied-volatility-surface
 */
import { SURFACE } from "./params";

/** Parameters of one symbol's surface on one instant. */
export interface SurfaceState {
  /** Short (instantaneous) implied variance, per year. */
  vShort: number;
  /** Long-run implied variance, per year. */
  vLong: number;
  /** SSVI correlation (skew sign and size). */
  rho: number;
  /** SSVI power-law level. */
  eta: number;
}

/**
 * ATM total implied variance to `tYears`: the integral of a forward variance that decays from
 * `vShort` to `vLong` with time constant tau (increasing in T, so no calendar arbitrage).
 * @example
 * atmTotalVariance({ vShort: 0.04, vLong: 0.04, rho: -0.7, eta: 1.2 }, 1); // 0.04
 */
export function atmTotalVariance(s: SurfaceState, tYears: number): number {
  const tau = SURFACE.tauYears;
  return s.vLong * tYears + (s.vShort - s.vLong) * tau * (1 - Math.exp(-tYears / tau));
}

/** SSVI curvature phi(theta) = eta / (theta^gamma (1 + theta)^(1 - gamma)). */
export function ssviPhi(eta: number, theta: number): number {
  const g = SURFACE.gamma;
  return eta / (Math.pow(theta, g) * Math.pow(1 + theta, 1 - g));
}

/**
 * SSVI total implied variance at forward log-moneyness k for ATM total variance theta:
 * w = theta / 2 (1 + rho phi k + sqrt((phi k + rho)^2 + 1 - rho^2)).
 * @example
 * ssviTotalVariance(0.04, 0, -0.7, 1.2); // 0.04 (ATM)
 */
export function ssviTotalVariance(theta: number, k: number, rho: number, eta: number): number {
  const phi = ssviPhi(eta, theta);
  const pk = phi * k;
  return 0.5 * theta * (1 + rho * pk + Math.sqrt((pk + rho) * (pk + rho) + 1 - rho * rho));
}

/**
 * Implied vol (decimal) at strike K for spot S, expiry T, rate r, dividend yield q.
 * A readable reference for the inlined loop in `chain-quotes.ts`.
 * @example
 * impliedVolAt({ vShort: 0.0289, vLong: 0.0289, rho: -0.7, eta: 1.2 }, 4000, 3600, 0.25, 0.045, 0.015) > 0.17; // true (put skew)
 */
export function impliedVolAt(s: SurfaceState, spot: number, strike: number, tYears: number, rate: number, q: number, extraVariance = 0): number {
  const theta = atmTotalVariance(s, tYears) + extraVariance;
  const k = Math.log(strike / spot) - (rate - q) * tYears;
  return Math.sqrt(ssviTotalVariance(theta, k, s.rho, s.eta) / tYears);
}
