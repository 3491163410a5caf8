// The persisted daily store: finished sessions' derived data on disk, filled in the background.
// See docs/architecture.md#persisted-daily-store.
export { DAILY_DB_FILE, dailyDbPath, openDailyStore } from "./store";
export type { DailyDataStore } from "./store";
export { marketIdentity } from "./fingerprint";
export type { MarketSource } from "./fingerprint";
export { DAILY_KINDS, FLOW_SUMMARY, VOL_READING } from "./kinds";
export type { DailyKind } from "./kinds";
export { startDailyFill } from "./filler";
export type { DailyFiller, FillerRole } from "./filler";
export { startRebuildingFill } from "./rebuild";
export { openFillLease } from "./lease";
export type { FillLease } from "./lease";
export { DEFAULT_FLOW_FILL_SESSIONS, fillPlan, lastFinishedSession } from "./plan";
export type { FillScope } from "./plan";
export { runFill } from "./run-fill";
