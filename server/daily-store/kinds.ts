// The kinds of per-(symbol, session) data the store keeps, each with the version of the formulas
// that computes it: bump a version whenever what its producer computes changes (a formula, a
// threshold, a field), so rows written by an older build are recomputed instead of served.
// See docs/architecture.md#persisted-daily-store.

/** Flow: one ticker's `SessionSummary` (server/modules/flow/session-summary.ts). */
export const FLOW_SUMMARY = "flow-summary";
/** Volatility: one symbol's `SessionCloseReading` or null (lib/vol/read-market.ts). */
export const VOL_READING = "vol-reading";

export type DailyKind = typeof FLOW_SUMMARY | typeof VOL_READING;

/** Version of each kind's producer (docs/methodology.md sections cited by the producers). */
export const KIND_VERSIONS: Readonly<Record<DailyKind, number>> = Object.freeze({
  [FLOW_SUMMARY]: 3, // 2: `tideMinutes` (the market tide); 3: simulated OI carries the previous session's tape
  [VOL_READING]: 1,
});

export const DAILY_KINDS: readonly DailyKind[] = [FLOW_SUMMARY, VOL_READING];
