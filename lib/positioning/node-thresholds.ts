/**
 * Node-classification thresholds, as fractions of M (the largest |value| in a frame).
 *
 * The one place these numbers live: the library, the server and the web page all read them from
 * here, so a frame is classified identically everywhere.
 *
 * @see docs/methodology.md#nodes
 */
export const NODE_THRESHOLDS = Object.freeze({
  /** A gatekeeper needs |value| >= 0.40 M and a strike strictly between spot and the king. */
  gatekeeperAbs: 0.4,
  /** A pika (large positive node) needs value >= +0.25 M. */
  pikaPos: 0.25,
  /** A barney (large negative node) needs value <= -0.25 M. */
  barneyNeg: 0.25,
  /** Significant needs |value| >= 0.10 M. */
  significantAbs: 0.1,
});

/** Node types of the spec, strongest rule first (the classifier tests them in this order). */
export const NODE_TYPES = ["king", "gatekeeper", "pika", "barney", "significant", "normal"] as const;

/** One of the six node types of a heatmap strike. */
export type NodeType = (typeof NODE_TYPES)[number];
