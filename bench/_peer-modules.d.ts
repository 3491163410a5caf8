// Minimal declarations of the untyped npm peers the kernels bench compares against.

declare module "greeks" {
  /** BSM gamma without dividend yield: (spot, strike, tYears, vol, rate). */
  export function getGamma(s: number, k: number, t: number, v: number, r: number): number;
  export function getDelta(s: number, k: number, t: number, v: number, r: number, callPut: "call" | "put"): number;
  export function getVega(s: number, k: number, t: number, v: number, r: number): number;
}

declare module "black-scholes" {
  /** BSM price without dividend yield. */
  export function blackScholes(s: number, k: number, t: number, v: number, r: number, callPut: "call" | "put"): number;
}

declare module "implied-volatility" {
  /** Bisection (to the cent) implied vol without dividend yield. */
  export function getImpliedVolatility(expectedCost: number, s: number, k: number, t: number, r: number, callPut: "call" | "put", estimate?: number): number;
}
