// The npm peers of the kernels bench, each wrapped to do W1 / W2 / W3 on the same inputs as
// the engines. None takes columns, so each loops over contracts in JS.
import { BlackScholes } from "@uqee/black-scholes";
import { calculateGreeks, calculateImpliedVolatility } from "@fullstackcraftllc/floe";
import * as greeks from "greeks";
import * as impliedVolatility from "implied-volatility";
import type { ImpliedVolInput } from "../lib/kernels";
import type { SpxChain } from "./_spx-chain";

/** What a peer can do; `undefined` = the package has no such function. */
export interface Peer {
  name: string;
  /** W1: gamma (and vanna where offered) exposure accumulated into grids. */
  exposure?: (c: SpxChain, gammaGrid: Float64Array, vannaGrid: Float64Array | null) => void;
  /** W3: total gamma exposure at one spot. */
  gammaTotalAt?: (c: SpxChain, spot: number) => number;
  /** W2: implied vols (decimal) into out. */
  impliedVols?: (input: ImpliedVolInput, out: Float64Array) => void;
  note: string;
}

const uqee = new BlackScholes();

function accumulate(c: SpxChain, spot: number, grid: Float64Array, gammaOf: (i: number) => number): number {
  let total = 0;
  const scale = 100 * spot * spot * 0.01;
  for (let i = 0; i < c.strike.length; i++) {
    if (!(c.oi[i] > 0)) continue;
    const v = (c.right[i] === 1 ? 1 : -1) * c.oi[i] * gammaOf(i) * scale;
    grid[c.strikeIndex[i] * c.nExp + c.expIndex[i]] += v;
    total += v;
  }
  return total;
}

function gammaTotal(c: SpxChain, spot: number, gammaOf: (i: number, spot: number) => number): number {
  let total = 0;
  const scale = 100 * spot * spot * 0.01;
  for (let i = 0; i < c.strike.length; i++) {
    if (c.oi[i] > 0) total += (c.right[i] === 1 ? 1 : -1) * c.oi[i] * gammaOf(i, spot) * scale;
  }
  return total;
}

export const peers: Peer[] = [
  {
    name: "greeks",
    note: "gamma only (no vanna, no dividend yield); no implied vol",
    exposure: (c, g) => void accumulate(c, c.spot, g, (i) => greeks.getGamma(c.spot, c.strike[i], c.tYears[i], c.iv[i], c.rate)),
    gammaTotalAt: (c, s) => gammaTotal(c, s, (i, sp) => greeks.getGamma(sp, c.strike[i], c.tYears[i], c.iv[i], c.rate)),
  },
  {
    name: "@uqee/black-scholes",
    note: "gamma via option() (allocates an object per contract; no vanna, no dividend yield); IV by bisection to 1e-3",
    exposure: (c, g) =>
      void accumulate(
        c,
        c.spot,
        g,
        (i) => uqee.option({ rate: c.rate, sigma: c.iv[i], strike: c.strike[i], time: c.tYears[i], type: c.right[i] === 1 ? "call" : "put", underlying: c.spot }).gamma,
      ),
    gammaTotalAt: (c, s) =>
      gammaTotal(
        c,
        s,
        (i, sp) => uqee.option({ rate: c.rate, sigma: c.iv[i], strike: c.strike[i], time: c.tYears[i], type: c.right[i] === 1 ? "call" : "put", underlying: sp }).gamma,
      ),
    impliedVols: (x, out) => {
      for (let i = 0; i < x.prices.length; i++) {
        out[i] = uqee.sigma({
          price: x.prices[i],
          rate: x.rate ?? 0,
          strike: x.strike[i],
          time: x.tYears[i],
          type: x.right[i] === 1 ? "call" : "put",
          underlying: x.spot,
        });
      }
    },
  },
  {
    name: "@fullstackcraftllc/floe",
    note: "calculateGreeks: gamma and vanna (rounded to 5 decimals by the package); IV by bisection, returned in percent",
    exposure: (c, g, v) => {
      const gammaScale = 100 * c.spot * c.spot * 0.01;
      const vannaScale = 100 * c.spot * 0.01;
      for (let i = 0; i < c.strike.length; i++) {
        if (!(c.oi[i] > 0)) continue;
        const r = calculateGreeks({
          spot: c.spot,
          strike: c.strike[i],
          timeToExpiry: c.tYears[i],
          volatility: c.iv[i],
          riskFreeRate: c.rate,
          dividendYield: c.dividendYield,
          optionType: c.right[i] === 1 ? "call" : "put",
        });
        const w = (c.right[i] === 1 ? 1 : -1) * c.oi[i];
        const cell = c.strikeIndex[i] * c.nExp + c.expIndex[i];
        g[cell] += w * r.gamma * gammaScale;
        if (v) v[cell] += w * r.vanna * vannaScale;
      }
    },
    gammaTotalAt: (c, s) =>
      gammaTotal(
        c,
        s,
        (i, sp) =>
          calculateGreeks({
            spot: sp,
            strike: c.strike[i],
            timeToExpiry: c.tYears[i],
            volatility: c.iv[i],
            riskFreeRate: c.rate,
            dividendYield: c.dividendYield,
            optionType: c.right[i] === 1 ? "call" : "put",
          }).gamma,
      ),
    impliedVols: (x, out) => {
      for (let i = 0; i < x.prices.length; i++) {
        out[i] = calculateImpliedVolatility(x.prices[i], x.spot, x.strike[i], x.rate ?? 0, x.dividendYield ?? 0, x.tYears[i], x.right[i] === 1 ? "call" : "put") / 100;
      }
    },
  },
  {
    name: "implied-volatility",
    note: "IV only: bisection on black-scholes prices to the cent (no dividend yield)",
    impliedVols: (x, out) => {
      for (let i = 0; i < x.prices.length; i++) {
        out[i] = impliedVolatility.getImpliedVolatility(x.prices[i], x.spot, x.strike[i], x.tYears[i], x.rate ?? 0, x.right[i] === 1 ? "call" : "put");
      }
    },
  },
  {
    name: "black-scholes",
    note: "price only (no greeks, no IV): not applicable to W1-W3; it is the pricer inside implied-volatility",
  },
];
