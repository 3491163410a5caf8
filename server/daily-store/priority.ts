// The fill's CPU priority: nice 19, the lowest, so any serving thread wins a contended core and
// the fill runs on what is left. On Linux a nice value belongs to a thread: set from the fill
// worker it lowers that thread only, not the server's event loop. See docs/operations.md#daily-store.
import { setPriority } from "node:os";

/** The fill's nice value. */
export const FILL_NICE = 19;

/**
 * The request pools' nice value (compute and statistics workers): below the event loop, above the
 * fill. A cold request's computation still gets most of a contended core, but the thread that
 * routes, charges and answers every other request runs first: on 2 cores, two busy workers at the
 * loop's priority held it off a core for up to 0.8 s (docs/operations.md#daily-store).
 */
export const COMPUTE_NICE = 5;

/** Lower the calling thread to `FILL_NICE`; the value set, or null when the OS refuses. */
export function lowerFillPriority(): number | null {
  try {
    setPriority(FILL_NICE);
    return FILL_NICE;
  } catch {
    return null;
  }
}
