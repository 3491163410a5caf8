// The background fill of a store whose file may be replaced: when the store finds its file corrupt
// (a read, a write, the fill worker or another process) it moves it aside and opens an empty one;
// the filler of the old file (its worker and lease hold connections to it) is then closed and a
// new one fills the new file. See docs/operations.md#corrupt-daily-store.
import { startDailyFill, type DailyFiller, type DailyFillOptions } from "./filler";

/**
 * `startDailyFill`, started again on the new file each time the store is replaced.
 * @example const filler = startRebuildingFill({ store, source, clock, volSessions: 252, flowFrom: FLOW_FIRST_DATE, log });
 */
export function startRebuildingFill(o: DailyFillOptions): DailyFiller {
  let current = startDailyFill(o);
  let closed = false;
  const off = o.store.onReset(() => {
    if (closed) return;
    // Its close settles the old filler at once (the progress is not "running" any more); the
    // worker's termination finishes in the background.
    void current.close();
    o.log?.({ ts: new Date().toISOString(), level: "info", msg: "daily_fill_rebuild", store: o.store.path });
    current = startDailyFill(o);
  });
  return {
    idle: () => current.idle(),
    role: () => current.role(),
    async close() {
      closed = true;
      off();
      await current.close();
    },
  };
}
