/**
 * Flow Score conviction weights: the schema (user overrides) and the defaults.
 * @see docs/methodology.md#flow-score
 */
import * as z from "zod";
import { FLOW_SCORE_WEIGHTS } from "./params";

const weight = z.number().finite().nonnegative();

/**
 * Conviction weights; missing keys take the defaults. They must be non-negative and sum to
 * 0.95-1.05 (the reference's `conviction_weights` rule).
 */
export const FlowScoreWeightsSchema = z
  .object({
    size: weight.default(FLOW_SCORE_WEIGHTS.size),
    sweep: weight.default(FLOW_SCORE_WEIGHTS.sweep),
    moneyness: weight.default(FLOW_SCORE_WEIGHTS.moneyness),
    dte: weight.default(FLOW_SCORE_WEIGHTS.dte),
    volOi: weight.default(FLOW_SCORE_WEIGHTS.volOi),
    repeat: weight.default(FLOW_SCORE_WEIGHTS.repeat),
  })
  .strict()
  .refine(
    (w) => {
      const sum = w.size + w.sweep + w.moneyness + w.dte + w.volOi + w.repeat;
      return sum >= 0.95 && sum <= 1.05;
    },
    { message: "conviction weights must sum to between 0.95 and 1.05" },
  );

/** Conviction weights (all six present). */
export type FlowScoreWeights = z.output<typeof FlowScoreWeightsSchema>;
/** Conviction weights as a user may give them (any subset). */
export type FlowScoreWeightsInput = z.input<typeof FlowScoreWeightsSchema>;

/** The default weights, parsed. */
export const DEFAULT_FLOW_SCORE_WEIGHTS: FlowScoreWeights = { ...FLOW_SCORE_WEIGHTS };
