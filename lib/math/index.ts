// Public surface of lib/math: normal distribution, Black-Scholes-Merton, implied volatility.

// normal distribution
export { erf, erfc, erfcx } from "./erf";
export { inverseNormCdf, normCdf, normPdf } from "./normal";

// normalised Black function (Jäckel)
export { complementaryNormalisedBlack, normalisedBlack, normalisedIntrinsic, normalisedVega } from "./normalised-black";

// Black-Scholes-Merton
export { type BsmGreeks, type BsmInput, BsmInputSchema, bsmGreeks, bsmPrice, type OptionRight } from "./black-scholes";

// implied volatility
export {
  type ImpliedVolFailure,
  type ImpliedVolInput,
  type ImpliedVolResult,
  impliedBlackVolatility,
  impliedVol,
  impliedVolFromNormalisedPrice,
} from "./implied-vol";
export {
  IV_CODE_ABOVE_UPPER_BOUND,
  IV_CODE_BELOW_INTRINSIC,
  IV_CODE_INVALID_INPUT,
  impliedVolsInto,
} from "./implied-vol-batch";

// errors
export { MathInputError } from "./errors";
