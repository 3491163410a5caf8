// The persisted daily store: finished sessions' derived data on disk, filled in the background.
// See docs/architecture.md#persisted-daily-store.
export { DAILY_DB_FILE, dailyDbPath, openDailyStore } from "./store";
export type { DailyDataStore, DailyRow, DailyStoreStats } from "./store";
export { marketIdentity, kindFingerprint } from "./fingerprint";
export type { MarketSource } from "./fingerprint";
export { DAILY_KINDS, FLOW_SUMMARY, KIND_VERSIONS, VOL_READING } from "./kinds";
export type { DailyKind } from "./kinds";
export { startDailyFill, FILL_POLL_MS } from "./filler";
export type { DailyFiller, DailyFillOptions } from "./filler";
export { fillPlan, lastFinishedSession } from "./plan";
export type { FillScope, FillStep } from "./plan";
export { runFill } from "./run-fill";
