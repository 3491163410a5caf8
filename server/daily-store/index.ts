// The persisted daily store: finished sessions' derived data on disk, filled in the background.
// See docs/architecture.md#persisted-daily-store.
export { DAILY_DB_FILE, dailyDbPath, openDailyStore } from "./store";
export type { DailyDataStore, DailyRow, DailyStoreOptions, DailyStoreStats } from "./store";
export { marketIdentity, kindFingerprint } from "./fingerprint";
export type { MarketSource } from "./fingerprint";
export { DAILY_KINDS, FLOW_SUMMARY, KIND_VERSIONS, VOL_READING } from "./kinds";
export type { DailyKind } from "./kinds";
export { startDailyFill, FILL_POLL_MS, FILL_STANDBY_RETRY_MS } from "./filler";
export type { DailyFiller, DailyFillOptions, FillerRole } from "./filler";
export { startRebuildingFill } from "./rebuild";
export { isCorruptionError } from "./corruption";
export { openFillLease, FILL_LEASE_MS, FILL_LEASE_RENEW_MS } from "./lease";
export type { FillLease, LeaseHolder, LeaseTake } from "./lease";
export { surveyFill } from "./survey";
export { DEFAULT_FLOW_FILL_SESSIONS, fillPlan, lastFinishedSession } from "./plan";
export type { FillScope, FillStep } from "./plan";
export { runFill } from "./run-fill";
