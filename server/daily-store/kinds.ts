// The kinds of per-(symbol, session) data the store keeps, each with the version of the formulas
// that computes it: bump a version whenever what its producer computes changes (a formula, a
// threshold, a field), so rows written by an older build are recomputed instead of served.
// See docs/architecture.md#persisted-daily-store.

/** Flow: one ticker's `SessionSummary` (server/modules/flow/sessions/session-summary.ts). */
export const FLOW_SUMMARY = "flow-summary";
/**
 * Flow: one session's market-wide contract table (`ContractTable`, lib/flow/contract-table.ts),
 * stored under the symbol `MARKET_SYMBOL`; built from that session's `FLOW_SUMMARY` rows.
 * @see docs/methodology.md#flow-contract-top-table
 */
export const CONTRACT_TOP = "contract-top";
/**
 * Flow: one session's market-wide table (`MarketSessionTable`, server/modules/flow/sessions/market-session-table.ts):
 * every ticker's totals and the market tide per minute, stored under `MARKET_SYMBOL`; built from
 * that session's `FLOW_SUMMARY` rows. @see docs/methodology.md#flow-market-session-table
 */
export const MARKET_SESSION = "market-session";
/**
 * Flow: one session's print-time index (`PrintTimeIndex`, server/modules/flow/sessions/print-time-index.ts):
 * the tickers printing at each millisecond, stored under `MARKET_SYMBOL`; built from the session's prints.
 * @see docs/methodology.md#flow-print-time-index
 */
export const PRINT_INDEX = "print-index";
/**
 * Flow: one ticker's per-contract volume of one session (`ContractVolumes`,
 * server/modules/flow/sessions/contract-volumes.ts), written with each `FLOW_SUMMARY` row it is
 * read from: the flow feed's RVOL baseline reads a few of these instead of whole summaries.
 * @see docs/methodology.md#flow-feed-rvol
 */
export const CONTRACT_VOLUME = "contract-volume";
/** The symbol a market-wide row is stored under. */
export const MARKET_SYMBOL = "*";
/** Volatility: one symbol's `SessionCloseReading` or null (lib/vol/read-market.ts). */
export const VOL_READING = "vol-reading";

export type DailyKind = typeof FLOW_SUMMARY | typeof VOL_READING | typeof CONTRACT_TOP | typeof MARKET_SESSION | typeof PRINT_INDEX | typeof CONTRACT_VOLUME;

/** Version of each kind's producer (docs/methodology.md sections cited by the producers). */
const FLOW_SUMMARY_VERSION = 4; // 2: `tideMinutes` (the market tide); 3: simulated OI carries the previous session's tape; 4: the tape's order stream no longer reads quotes
export const KIND_VERSIONS: Readonly<Record<DailyKind, number>> = Object.freeze({
  [FLOW_SUMMARY]: FLOW_SUMMARY_VERSION,
  [VOL_READING]: 1,
  // Its rows are the summaries' rows: a new summary version is a new table version too.
  [CONTRACT_TOP]: FLOW_SUMMARY_VERSION * 100 + 2, // 2: int32 columns
  [MARKET_SESSION]: FLOW_SUMMARY_VERSION * 100 + 1,
  // Built from the session's prints: a new tape (a summary version) is a new index too.
  [PRINT_INDEX]: FLOW_SUMMARY_VERSION * 100 + 1,
  // Read from the summaries: a new summary version is a new volume version too.
  [CONTRACT_VOLUME]: FLOW_SUMMARY_VERSION * 100 + 1,
});

export const DAILY_KINDS: readonly DailyKind[] = [FLOW_SUMMARY, VOL_READING, CONTRACT_TOP, MARKET_SESSION, PRINT_INDEX, CONTRACT_VOLUME];
